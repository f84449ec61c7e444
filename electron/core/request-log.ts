// Every API call the core makes, kept for the request log screen and for export. Bounded, so
// memory stays flat over days of polling, and redacted on the way in, so nothing that reads the
// log — the UI, an export, a bug report — can see a secret (docs/security.md, "Redaction").
import { STATUS_CODES } from 'node:http';
import type { Clock } from '../../shared/clock';
import { CoreError } from './core-error';
import { escapeRegExp, redactHeaders, redactSecrets, redactUrl } from './redact';
import type { RequestLogEntry } from '../../shared/request-log-entry';
import type { HarImported } from '../../shared/bridge/log';
import { readHar } from './har-import';

const DEFAULT_REQUEST_LOG_CAPACITY = 1000;
/** Per body. With the default capacity the log holds at most ~128 MB of text even in the worst case. */
const DEFAULT_MAX_BODY_CHARS = 64 * 1024;

export interface RequestLogOptions {
  capacity?: number;
  maxBodyChars?: number;
  /** Goes into the HAR's `creator.version`; the shell and the CLI pass the app's version. */
  appVersion?: string;
  clock?: Pick<Clock, 'now'>;
}

export type RequestLogEvent = { type: 'added'; entry: RequestLogEntry } | { type: 'cleared' };
export type RequestLogListener = (event: RequestLogEvent) => void;

interface StoredEntry {
  entry: RequestLogEntry;
  /** UTF-8 size of the request body as sent, before redaction and truncation: what HAR's bodySize means. */
  requestBodyBytes: number;
}

export class RequestLog {
  readonly capacity: number;
  private readonly maxBodyChars: number;
  private readonly appVersion: string;
  private readonly clock: Pick<Clock, 'now'>;
  /** A fixed-size ring: `head` is the oldest slot once the ring has wrapped. */
  private readonly slots: (StoredEntry | undefined)[];
  private head = 0;
  private count = 0;
  /** HAR files imported so far: an imported entry's id names its file's turn. */
  private imports = 0;
  private readonly listeners = new Set<RequestLogListener>();

  constructor(options: RequestLogOptions = {}) {
    const capacity = options.capacity ?? DEFAULT_REQUEST_LOG_CAPACITY;
    if (!Number.isInteger(capacity) || capacity < 1) {
      throw new RangeError(`Request log capacity must be a positive integer, got ${capacity}`);
    }
    this.capacity = capacity;
    this.maxBodyChars = options.maxBodyChars ?? DEFAULT_MAX_BODY_CHARS;
    if (!Number.isInteger(this.maxBodyChars) || this.maxBodyChars < 0) {
      throw new RangeError(
        `Request log maxBodyChars must be a non-negative integer, got ${this.maxBodyChars}`,
      );
    }
    this.appVersion = options.appVersion ?? 'dev';
    this.clock = options.clock ?? { now: () => Date.now() };
    this.slots = new Array<StoredEntry | undefined>(capacity);
  }

  get size(): number {
    return this.count;
  }

  /** Stores a redacted, frozen copy; the caller's object is never kept or changed. */
  add(entry: RequestLogEntry): RequestLogEntry {
    const stored: StoredEntry = {
      entry: deepFreeze(this.redact(entry)),
      requestBodyBytes: entry.requestBody === undefined ? 0 : Buffer.byteLength(entry.requestBody),
    };
    if (this.count < this.capacity) {
      this.slots[(this.head + this.count) % this.capacity] = stored;
      this.count++;
    } else {
      this.slots[this.head] = stored;
      this.head = (this.head + 1) % this.capacity;
    }
    this.emit({ type: 'added', entry: stored.entry });
    return stored.entry;
  }

  /** Oldest first, newest last. */
  list(): RequestLogEntry[] {
    return this.stored().map((s) => s.entry);
  }

  /** One entry whole, by id; a clear error once it has left the ring. */
  get(id: string): RequestLogEntry {
    const entry = this.list().find((e) => e.id === id);
    if (!entry) throw new CoreError('NOT_FOUND', 'That request is no longer in the log.');
    return entry;
  }

  /**
   * The ids of the entries whose request or response body holds `text`, case-insensitive: the
   * Log's text filter, for an order number that is only in a body. One pass over the ring, with no
   * copy of any body, so a search over a full log costs what reading it once does.
   */
  searchBodies(text: string): string[] {
    const wanted = text.trim();
    if (!wanted) return [];
    const pattern = new RegExp(escapeRegExp(wanted), 'i');
    return this.list()
      .filter((e) => pattern.test(e.requestBody ?? '') || pattern.test(e.responseBody ?? ''))
      .map((e) => e.id);
  }

  /**
   * A HAR file's requests (har-import.ts drops their credentials) added after the live ones, each
   * marked with the file's name: the Log shows them apart, and Clear takes them with the rest.
   */
  importHar(fileName: string, text: string): HarImported {
    const { exchanges, skipped, firstProblem } = readHar(text);
    const batch = ++this.imports;
    exchanges.forEach((exchange, index) =>
      this.add({
        ...exchange,
        id: `imported-${batch}-${index + 1}`,
        profileId: '',
        keyId: '',
        imported: fileName,
      }),
    );
    return { imported: exchanges.length, skipped, ...(firstProblem ? { firstProblem } : {}) };
  }

  clear(): void {
    this.slots.fill(undefined);
    this.head = 0;
    this.count = 0;
    this.emit({ type: 'cleared' });
  }

  /** For the live view. Returns the unsubscribe function. */
  subscribe(listener: RequestLogListener): () => void {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }

  /** The log as a file to save, JSON or HAR, named with the time of export. */
  exportFile(format: 'json' | 'har'): { fileName: string; text: string } {
    const stamp = new Date(this.clock.now()).toISOString().replaceAll(':', '-').slice(0, 19);
    return format === 'har'
      ? { fileName: `agent-console-${stamp}.har`, text: this.exportHar() }
      : { fileName: `agent-console-${stamp}.json`, text: this.exportJson() };
  }

  exportJson(): string {
    const document = {
      format: 'agent-console-request-log',
      version: 1,
      exportedAt: new Date(this.clock.now()).toISOString(),
      entries: this.list(),
    };
    return JSON.stringify(document, null, 2);
  }

  /** HAR 1.2 (http://www.softwareishard.com/blog/har-12-spec/), for browser devtools and HAR viewers. */
  exportHar(): string {
    const har = {
      log: {
        version: '1.2',
        creator: { name: 'Agent Console', version: this.appVersion },
        entries: this.stored().map((s) => toHarEntry(s)),
      },
    };
    return JSON.stringify(har, null, 2);
  }

  private stored(): StoredEntry[] {
    const out: StoredEntry[] = [];
    for (let i = 0; i < this.count; i++) {
      const slot = this.slots[(this.head + i) % this.capacity];
      if (slot) out.push(slot);
    }
    return out;
  }

  private redact(entry: RequestLogEntry): RequestLogEntry {
    // Redact before truncating: a cut through the middle of a key would leave a prefix that no longer
    // looks like a key, and would then be kept.
    const body = (text: string | undefined): string | undefined =>
      text === undefined ? undefined : truncate(redactSecrets(text), this.maxBodyChars);
    const optional = (text: string | undefined): string | undefined =>
      text === undefined ? undefined : redactSecrets(text);
    return {
      ...entry,
      id: redactSecrets(entry.id),
      profileId: redactSecrets(entry.profileId),
      keyId: redactSecrets(entry.keyId),
      method: redactSecrets(entry.method),
      url: redactUrl(entry.url),
      requestHeaders: redactHeaders(entry.requestHeaders),
      requestBody: body(entry.requestBody),
      responseHeaders: redactHeaders(entry.responseHeaders),
      responseBody: body(entry.responseBody),
      requestId: optional(entry.requestId),
      errorCode: optional(entry.errorCode),
      ...(entry.imported === undefined ? {} : { imported: redactSecrets(entry.imported) }),
      rate: { ...entry.rate },
    };
  }

  private emit(event: RequestLogEvent): void {
    for (const listener of [...this.listeners]) {
      // A broken view must not break the API call that is being logged.
      try {
        listener(event);
      } catch (error) {
        console.error('Request log listener failed:', error);
      }
    }
  }
}

/** Keeps the first `max` characters (never half a surrogate pair) and says how much was dropped. */
function truncate(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = max;
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end--;
  return `${text.slice(0, end)}\n…[truncated by Agent Console: ${text.length - end} of ${text.length} characters not kept]`;
}

function deepFreeze<T extends object>(value: T): T {
  for (const child of Object.values(value)) {
    if (child && typeof child === 'object') deepFreeze(child as object);
  }
  return Object.freeze(value);
}

interface HarNameValue {
  name: string;
  value: string;
}

const harHeaders = (headers: Readonly<Record<string, string>>): HarNameValue[] =>
  Object.entries(headers).map(([name, value]) => ({ name, value }));

function headerValue(headers: Readonly<Record<string, string>>, name: string): string | undefined {
  const found = Object.entries(headers).find(([key]) => key.toLowerCase() === name);
  return found?.[1];
}

function harQueryString(url: string): HarNameValue[] {
  try {
    return [...new URL(url).searchParams].map(([name, value]) => ({ name, value }));
  } catch {
    return [];
  }
}

function toHarEntry({ entry, requestBodyBytes }: StoredEntry): object {
  const failed = entry.status === 0;
  const time = Number.isFinite(entry.durationMs) ? Math.max(0, entry.durationMs) : 0;
  const requestMime = headerValue(entry.requestHeaders, 'content-type') ?? 'application/json';
  const responseMime = headerValue(entry.responseHeaders, 'content-type') ?? 'x-unknown';
  return {
    startedDateTime: new Date(entry.startedAt).toISOString(),
    time,
    request: {
      method: entry.method,
      url: entry.url,
      // The core speaks HTTP/1.1 (Node's client); HAR needs a value.
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: harHeaders(entry.requestHeaders),
      queryString: harQueryString(entry.url),
      ...(entry.requestBody === undefined
        ? {}
        : // HAR 1.2: `params` is for form posts and excludes `text`; our bodies are JSON text.
          { postData: { mimeType: requestMime, text: entry.requestBody } }),
      headersSize: -1,
      bodySize: entry.requestBody === undefined ? 0 : requestBodyBytes,
    },
    response: {
      // HAR allows status 0 for a request that got no response (browsers export failures this way).
      status: entry.status,
      statusText: failed ? '' : (STATUS_CODES[entry.status] ?? ''),
      httpVersion: failed ? '' : 'HTTP/1.1',
      cookies: [],
      headers: harHeaders(entry.responseHeaders),
      content: {
        // The size received; `text` may be shorter when the log truncated it.
        size: entry.responseBytes,
        mimeType: responseMime,
        ...(entry.responseBody === undefined ? {} : { text: entry.responseBody }),
      },
      redirectURL: '',
      headersSize: -1,
      bodySize: failed ? -1 : entry.responseBytes,
    },
    cache: {},
    // Only the total is measured; HAR needs send/wait/receive, and `time` must equal their sum.
    timings: { send: 0, wait: time, receive: 0 },
    // Custom fields start with "_" (HAR 1.2 §"Custom fields").
    _requestId: entry.requestId ?? null,
    _errorCode: entry.errorCode ?? null,
    _streamed: entry.streamed,
    _profileId: entry.profileId,
    _keyId: entry.keyId,
    _rate: entry.rate,
    ...(entry.imported === undefined ? {} : { _importedFrom: entry.imported }),
  };
}
