// A HAR file read as request-log entries (docs/security.md, "Imported curl and HAR"): this
// console's own Log export, or a browser's devtools export of calls to the service. The file is
// hostile input: its size is bounded before it is parsed, its shape checked with zod entry by
// entry (an entry that does not fit is skipped and counted, not the whole file refused), and every
// credential it carries — Authorization and cookies, a key-looking query value, a key anywhere —
// is dropped or masked here, before the request log masks the entry once more.
import { Buffer } from 'node:buffer';
import { z } from 'zod';
import { HAR_TOO_LARGE_MESSAGE, MAX_HAR_CHARS } from '../../shared/bridge/log';
import type { RateHeaders, RequestLogEntry } from '../../shared/request-log-entry';
import { CoreError } from './core-error';
import { redactSecrets, redactUrl } from './redact';
import { maskAcrossPieces } from './redact-stream';

/** More than the log keeps (1,000); a file with more is refused rather than read in part. */
const MAX_HAR_ENTRIES = 5_000;
const MAX_TEXT = MAX_HAR_CHARS;

/** Headers dropped whole on import: their value is a credential, whatever it looks like. */
const DROPPED_HEADERS = new Set([
  'authorization',
  'proxy-authorization',
  'cookie',
  'set-cookie',
  'x-api-key',
  'api-key',
]);
/** A query parameter whose name says it carries a credential has its value masked. */
const CREDENTIAL_PARAM = /key|token|secret|auth|pass|sig|session/i;

const NameValue = z.object({ name: z.string().max(1_000), value: z.string().max(MAX_TEXT) });
const Headers = z.array(NameValue).max(1_000).optional();

const HarEntry = z.object({
  startedDateTime: z.string().max(100),
  time: z.number().finite().min(0).optional(),
  request: z.object({
    method: z.string().regex(/^[A-Za-z]{1,20}$/),
    url: z.string().max(64 * 1024),
    headers: Headers,
    postData: z.object({ text: z.string().max(MAX_TEXT).optional() }).optional(),
  }),
  response: z.object({
    status: z.number().int().min(0).max(999),
    headers: Headers,
    content: z
      .object({
        size: z.number().optional(),
        text: z.string().max(MAX_TEXT).optional(),
        encoding: z.string().max(20).optional(),
      })
      .optional(),
    bodySize: z.number().optional(),
  }),
  // This console's own custom fields (request-log.ts, toHarEntry); a browser's HAR has none.
  _requestId: z.string().max(200).nullish(),
  _errorCode: z.string().max(100).nullish(),
  _streamed: z.boolean().optional(),
  _rate: z
    .object({
      limit: z.number().finite().optional(),
      remaining: z.number().finite().optional(),
      reset: z.number().finite().optional(),
      retryAfterS: z.number().finite().optional(),
    })
    .optional(),
});
type HarEntry = z.output<typeof HarEntry>;

const HarFile = z.object({
  log: z.object({ entries: z.array(z.unknown()).max(MAX_HAR_ENTRIES) }),
});

/** An entry of the file as the request log takes it: no id or profile yet, every credential gone. */
export type HarExchange = Omit<RequestLogEntry, 'id' | 'profileId' | 'keyId' | 'imported'>;

export interface HarReading {
  exchanges: HarExchange[];
  /** Entries that were not requests this console can show (their shape), with the first reason. */
  skipped: number;
  firstProblem?: string;
}

/** Reads a HAR file's text; throws CoreError (HAR_TOO_LARGE, HAR_INVALID) in words. */
export function readHar(text: string): HarReading {
  if (text.length > MAX_HAR_CHARS) {
    throw new CoreError('HAR_TOO_LARGE', HAR_TOO_LARGE_MESSAGE);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new CoreError('HAR_INVALID', 'The file is not JSON, so it is not a HAR file.');
  }
  const file = HarFile.safeParse(value);
  if (!file.success) {
    const tooMany = file.error.issues.some((issue) => issue.code === 'too_big');
    throw new CoreError(
      'HAR_INVALID',
      tooMany
        ? `The file holds more than ${MAX_HAR_ENTRIES.toLocaleString('en')} requests; export fewer.`
        : 'The file is JSON but not a HAR file: it has no log.entries list.',
    );
  }
  const reading: HarReading = { exchanges: [], skipped: 0 };
  file.data.log.entries.forEach((raw, index) => {
    const entry = HarEntry.safeParse(raw);
    const startedAt = entry.success ? Date.parse(entry.data.startedDateTime) : NaN;
    if (!entry.success || Number.isNaN(startedAt)) {
      reading.skipped++;
      reading.firstProblem ??= `Entry ${index + 1} is not a request with a method, URL, start time and status.`;
      return;
    }
    reading.exchanges.push(toExchange(entry.data, startedAt));
  });
  return reading;
}

function toExchange(entry: HarEntry, startedAt: number): HarExchange {
  const responseHeaders = headersOf(entry.response.headers);
  const content = entry.response.content;
  const responseBody = content?.text === undefined ? undefined : decodeText(content.text, content.encoding);
  const requestBody = entry.request.postData?.text;
  const contentType = Object.entries(responseHeaders).find(([name]) => name.toLowerCase() === 'content-type');
  const streamed = entry._streamed ?? contentType?.[1].includes('text/event-stream') === true;
  return {
    startedAt,
    durationMs: entry.time ?? 0,
    method: entry.request.method.toUpperCase(),
    url: withoutCredentials(entry.request.url),
    requestHeaders: headersOf(entry.request.headers),
    ...(requestBody === undefined ? {} : { requestBody: redactSecrets(requestBody) }),
    status: entry.response.status,
    responseHeaders,
    ...(responseBody === undefined
      ? {}
      : { responseBody: redactSecrets(streamed ? maskAcrossEvents(responseBody) : responseBody) }),
    responseBytes: Math.max(0, content?.size ?? entry.response.bodySize ?? responseBody?.length ?? 0),
    ...(entry._requestId ? { requestId: redactSecrets(entry._requestId) } : {}),
    ...(entry._errorCode ? { errorCode: redactSecrets(entry._errorCode) } : {}),
    rate: rateOf(entry._rate),
    streamed: entry._streamed ?? contentType?.[1].includes('text/event-stream') === true,
  };
}

/** The headers without the credential ones; a header repeated keeps its last value, as the log does. */
function headersOf(headers: HarEntry['request']['headers']): Record<string, string> {
  const out: Record<string, string> = {};
  for (const { name, value } of headers ?? []) {
    // HTTP/2 pseudo-headers (":authority") are the browser's, not the request's.
    if (name.startsWith(':') || DROPPED_HEADERS.has(name.toLowerCase())) continue;
    out[redactSecrets(name)] = redactSecrets(value);
  }
  return out;
}

/** The URL with any user:password part masked and each credential-named query value masked. */
function withoutCredentials(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return redactUrl(url);
  }
  const names = [...parsed.searchParams.keys()].filter((name) => CREDENTIAL_PARAM.test(name));
  if (names.length === 0) return redactUrl(url);
  for (const name of names) parsed.searchParams.set(name, '***');
  return redactUrl(parsed.href.replaceAll('%2A', '*'));
}

/**
 * A stream's events with a secret split across their `content` masked where it begins, as a live
 * stream's frames are (redact-stream.ts): masking the text whole would miss a key cut in two by
 * `"}\n\ndata: {"content":"`. An event is rewritten only when something in it was masked.
 */
function maskAcrossEvents(body: string): string {
  const events = body.split('\n\n');
  const contents = events.map((event) => {
    const data = /^data: ?(.*)$/s.exec(event)?.[1];
    if (data === undefined) return undefined;
    try {
      const frame: unknown = JSON.parse(data);
      const content = (frame as { content?: unknown } | null)?.content;
      return typeof content === 'string' ? content : undefined;
    } catch {
      return undefined;
    }
  });
  const pieces = contents.map((content) => content ?? '');
  const masked = maskAcrossPieces(pieces, false);
  if (masked === pieces) return body;
  return events
    .map((event, i) =>
      contents[i] !== undefined && masked[i] !== pieces[i]
        ? `data: ${JSON.stringify({ content: masked[i] })}`
        : event,
    )
    .join('\n\n');
}

function decodeText(text: string, encoding: string | undefined): string {
  return encoding === 'base64' ? Buffer.from(text, 'base64').toString('utf8') : text;
}

function rateOf(rate: HarEntry['_rate']): RateHeaders {
  const out: RateHeaders = {};
  for (const field of ['limit', 'remaining', 'reset', 'retryAfterS'] as const) {
    const value = rate?.[field];
    if (value !== undefined) out[field] = value;
  }
  return out;
}
