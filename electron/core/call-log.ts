// Each call of the API client as the request log keeps it (request-log.ts): an entry opened when
// the request leaves, the key never in it, and finished with what came back — or with the code of
// the failure that came instead.
import { randomUUID } from 'node:crypto';
import type { RateHeaders, RequestLogEntry } from '../../shared/request-log-entry';
import type { StreamFrame } from './chat-stream';

/** What came back, for the entry. */
interface CallResult {
  status: number;
  headers: Record<string, string>;
  body: string;
  rate?: RateHeaders;
  requestId?: string | undefined;
  errorCode?: string | undefined;
  /** Bytes on the wire, when `body` is not all of them (a long stream's frames). */
  bytes?: number;
}

export class CallLog {
  constructor(
    private who: {
      profileId: string;
      keyId: string;
      /** The proxy the calls go through, as shown; none: direct. */
      proxy?: string | undefined;
      log?: ((entry: RequestLogEntry) => void) | undefined;
    },
  ) {}

  /** The proxy found once the first call went out (the system's, asked then). */
  useProxy(shown: string | undefined): void {
    this.who = { ...this.who, proxy: shown };
  }

  open(
    method: string,
    url: URL,
    body: string | undefined,
    startedAt: number,
    streamed: boolean,
  ): RequestLogEntry {
    return {
      id: randomUUID(),
      startedAt,
      durationMs: 0,
      profileId: this.who.profileId,
      keyId: this.who.keyId,
      method,
      url: url.toString(),
      ...(this.who.proxy ? { proxy: this.who.proxy } : {}),
      requestHeaders: {
        authorization: 'Bearer ***',
        ...(body ? { 'content-type': 'application/json' } : {}),
      },
      ...(body !== undefined ? { requestBody: body } : {}),
      status: 0,
      responseHeaders: {},
      responseBytes: 0,
      rate: {},
      streamed,
    };
  }

  /** `t0` is the call's performance.now() at its start. */
  finish(entry: RequestLogEntry, t0: number, result: CallResult): void {
    if (!this.who.log) return;
    entry.durationMs = Math.round(performance.now() - t0);
    entry.status = result.status;
    entry.responseHeaders = result.headers;
    entry.responseBytes = result.bytes ?? Buffer.byteLength(result.body);
    // The request log redacts, then caps; cutting here first could split a key so redaction misses it.
    entry.responseBody = result.body;
    entry.rate = result.rate ?? {};
    if (result.requestId) entry.requestId = result.requestId;
    if (result.errorCode) entry.errorCode = result.errorCode;
    // The system's proxy is asked with the first request, after its entry was opened.
    if (this.who.proxy && !entry.proxy) entry.proxy = this.who.proxy;
    this.who.log(entry);
  }
}

/**
 * A stream's frames as the request log keeps them: the log caps each body (64 K characters by
 * default) after redacting it, so whole frames up to a generous bound are enough; the stream's own
 * `frames` keep every one for the inspector. Joining a 20,000-frame stream at its end cost as much
 * as parsing it.
 */
const LOGGED_STREAM_CHARS = 256 * 1024;

export function loggedFrames(frames: readonly StreamFrame[]): string {
  const parts: string[] = [];
  let chars = 0;
  for (const frame of frames) {
    const line = frame.comment ? `: ${frame.data}` : `data: ${frame.data}`;
    parts.push(line);
    chars += line.length + 2;
    if (chars > LOGGED_STREAM_CHARS) break;
  }
  return parts.join('\n\n');
}
