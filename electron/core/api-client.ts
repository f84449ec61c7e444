// The API client for every endpoint of the spec (§4), on undici (a real HTTP client) with the
// profile's CA. Every call goes through the key's shared limiter, is logged, is validated with zod
// as a tolerant reader (shared/received.ts: strict on ids, content and counts, lenient on what is
// only shown; a reply that breaks what the client relies on names the field), and fails with one
// ApiError type.
import { randomUUID } from 'node:crypto';
import { Agent, errors as undiciErrors, request } from './http-agent';
import type { z } from 'zod';
import { API_PREFIX } from '../../shared/api';
import {
  ReceivedAgentList,
  ReceivedChatReply,
  ReceivedConversationList,
  ReceivedHealthReport,
  ReceivedThreadCreated,
  ReceivedThreadList,
  ReceivedThreadMessageReply,
  ReceivedUsageReport,
} from '../../shared/received';
import type { Clock } from '../../shared/clock';
import { ApiError, errorFromResponse } from './api-error';
import { ChatStream, type StreamFrame } from './chat-stream';
import type { RateLimiter } from './rate-limiter';
import { redactSecrets, redactValue } from './redact';
import { MAX_BODY_BYTES, MAX_JSON_DEPTH, MAX_STREAM_BYTES, megabytes, nestsDeeperThan } from './reply-limits';
import type { RateHeaders, RequestLogEntry } from '../../shared/request-log-entry';

export interface ApiClientOptions {
  profileId: string;
  baseUrl: string;
  /** PEM of a private CA to trust (the mock's, or a staging server's). */
  ca?: string;
  keyId: string;
  secret: () => Promise<string>;
  limiter: RateLimiter;
  clock: Clock;
  log?: (entry: RequestLogEntry) => void;
  /**
   * Client-side timeouts, each the longest a whole call may take, a stream's reading included:
   * chat 65 s (the service gives up at 60 s), others 15 s.
   */
  timeouts?: { chatMs?: number; otherMs?: number };
  /** The most a reply may hold (reply-limits.ts); tests lower them. */
  limits?: { bodyBytes?: number; streamBytes?: number };
  /** Retries of idempotent GETs: after 429s (waiting as the limiter says) and after 500/502/503. */
  retries?: { after429?: number; after5xx?: number; backoffMs?: number };
  random?: () => number;
}

export interface CallOptions {
  signal?: AbortSignal;
  /**
   * Told each reply's round trip in ms, time queued in the limiter excluded (the health monitor's
   * response time, a test suite's total time), with the reply's status and request id.
   */
  onRoundTrip?: (ms: number, reply: { status: number; requestId: string | undefined }) => void;
}

export interface ChatInput {
  message: string;
  agent?: string;
  session_id?: string;
}

interface Call<T extends z.ZodType> {
  method: 'GET' | 'POST';
  path: string;
  query?: Record<string, string | number | undefined>;
  body?: unknown;
  schema: T;
  idempotent: boolean;
  timeoutMs: number;
}

const RETRYABLE_5XX = new Set([500, 502, 503]);

function rateFrom(headers: Record<string, string>): RateHeaders {
  const num = (name: string): number | undefined => {
    const value = headers[name];
    const n = value === undefined ? NaN : Number(value);
    return Number.isFinite(n) ? n : undefined;
  };
  return {
    limit: num('x-ratelimit-limit'),
    remaining: num('x-ratelimit-remaining'),
    reset: num('x-ratelimit-reset'),
    retryAfterS: num('retry-after'),
  };
}

/** A reply's headers, one string each, redacted: nothing past here sees a secret a server echoed. */
function receivedHeaders(raw: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(raw)) {
    if (value === undefined) continue;
    out[redactSecrets(name.toLowerCase())] = redactSecrets(Array.isArray(value) ? value.join(', ') : value);
  }
  return out;
}

/** Why the client itself ended a call: its time was up. */
const DEADLINE = Symbol('deadline');

/** An AbortSignal that fires when the caller's does, or `ms` from now (its reason then DEADLINE). */
function withDeadline(
  user: AbortSignal | undefined,
  ms: number,
): { signal: AbortSignal; controller: AbortController; clear: () => void } {
  const controller = new AbortController();
  const onAbort = (): void => controller.abort(user?.reason);
  if (user?.aborted) onAbort();
  user?.addEventListener('abort', onAbort, { once: true });
  const timer = setTimeout(() => controller.abort(DEADLINE), ms);
  return {
    signal: controller.signal,
    controller,
    clear: () => {
      clearTimeout(timer);
      user?.removeEventListener('abort', onAbort);
    },
  };
}

/**
 * A reply's body as text, read only up to `maxBytes`: past that (or a Content-Length that says so)
 * the rest is not read, and the call fails with REPLY_TOO_LARGE.
 */
async function readBody(
  res: {
    statusCode: number;
    headers: Record<string, string | string[] | undefined>;
    body: AsyncIterable<Buffer> & { destroy(): unknown };
  },
  maxBytes: number,
  requestId: string | undefined,
): Promise<string> {
  const tooLarge = (): ApiError => {
    res.body.destroy();
    return new ApiError({
      status: res.statusCode,
      code: 'REPLY_TOO_LARGE',
      message: `The service's reply is larger than ${megabytes(maxBytes)}, more than this console reads; it was not read.`,
      requestId,
    });
  };
  if (Number(res.headers['content-length']) > maxBytes) throw tooLarge();
  const pieces: Buffer[] = [];
  let bytes = 0;
  for await (const piece of res.body) {
    bytes += piece.byteLength;
    if (bytes > maxBytes) throw tooLarge();
    pieces.push(piece);
  }
  return Buffer.concat(pieces, bytes).toString('utf8');
}

/**
 * A stream's frames as the request log keeps them: the log caps each body (64 K characters by
 * default) after redacting it, so whole frames up to a generous bound are enough; the stream's own
 * `frames` keep every one for the inspector. Joining a 20,000-frame stream at its end cost as much
 * as parsing it (issue 18).
 */
const LOGGED_STREAM_CHARS = 256 * 1024;

function loggedFrames(frames: readonly StreamFrame[]): string {
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

function describeZodError(error: z.ZodError, what: string): string {
  const issue = error.issues[0];
  const field = issue?.path.length ? issue.path.join('.') : '(root)';
  return `${what} does not match the service spec: field '${field}': ${issue?.message ?? 'invalid'}.`;
}

export class ApiClient {
  private readonly dispatcher: Agent;
  private readonly base: URL;

  constructor(private readonly options: ApiClientOptions) {
    this.base = new URL(options.baseUrl.replace(/\/+$/, '') + API_PREFIX + '/');
    this.dispatcher = new Agent({ connect: options.ca ? { ca: options.ca } : {} });
  }

  close(): Promise<void> {
    return this.dispatcher.close();
  }

  listAgents(query: { limit?: number; offset?: number } = {}, opts: CallOptions = {}) {
    return this.get('agents', ReceivedAgentList, query, opts);
  }

  listConversations(query: { agent?: string; limit?: number; offset?: number } = {}, opts: CallOptions = {}) {
    return this.get('conversations', ReceivedConversationList, query, opts);
  }

  listThreads(opts: CallOptions = {}) {
    return this.get('threads', ReceivedThreadList, {}, opts);
  }

  usage(days?: number, opts: CallOptions = {}) {
    return this.get('usage', ReceivedUsageReport, { days }, opts);
  }

  health(opts: CallOptions = {}) {
    return this.get('health', ReceivedHealthReport, {}, opts);
  }

  createThread(body: { message: string; title?: string; agent?: string }, opts: CallOptions = {}) {
    return this.post('threads', ReceivedThreadCreated, body, opts);
  }

  appendThreadMessage(threadId: string, message: string, opts: CallOptions = {}) {
    return this.post(
      `threads/${encodeURIComponent(threadId)}/messages`,
      ReceivedThreadMessageReply,
      { message },
      opts,
    );
  }

  /** A chat answered in one JSON document. Never retried silently (DESIGN.md §3). */
  chat(input: ChatInput, opts: CallOptions = {}) {
    return this.send(
      {
        method: 'POST',
        path: 'chat',
        body: { ...input, stream: false },
        schema: ReceivedChatReply,
        idempotent: false,
        timeoutMs: this.chatTimeout(),
      },
      opts.signal,
      opts.onRoundTrip,
    );
  }

  /** A streamed chat: resolves once the stream has started (headers received), or rejects with the error reply. */
  async chatStream(input: ChatInput, opts: CallOptions = {}): Promise<ChatStream> {
    const timeoutMs = this.chatTimeout();
    // The key first, outside the network's try: a keychain failure is told as itself, never as
    // "could not reach the service", and takes no slot of the key's rate limit.
    const requestHeaders = await this.headers(true);
    await this.options.limiter.acquire(opts.signal);
    // The chat's time covers the whole stream, its reading included: one that trickles on is cut.
    const call = withDeadline(opts.signal, timeoutMs);
    const controller = call.controller;
    const bodyText = JSON.stringify({ ...input, stream: true });
    const url = new URL('chat', this.base);
    const started = this.options.clock.now();
    const t0 = performance.now();
    const entry = this.entry('POST', url, bodyText, started, true);
    let res;
    try {
      res = await request(this.dispatcher, url, {
        method: 'POST',
        headers: requestHeaders,
        body: bodyText,
        signal: call.signal,
        headersTimeout: timeoutMs,
        bodyTimeout: timeoutMs,
      });
    } catch (error) {
      call.clear();
      this.options.limiter.observe({});
      const failure = this.classify(error, opts.signal, timeoutMs, controller.signal);
      this.finishEntry(entry, t0, { status: 0, headers: {}, body: '', errorCode: failure.code });
      throw failure;
    }
    const headers = receivedHeaders(res.headers);
    const rate = rateFrom(headers);
    this.options.limiter.observe(rate);
    const requestId = headers['x-request-id'];
    if (
      res.statusCode < 200 ||
      res.statusCode >= 300 ||
      // Media types are case-insensitive (RFC 9110 §8.3.1): `Text/Event-Stream` is a stream.
      !(headers['content-type'] ?? '').toLowerCase().includes('text/event-stream')
    ) {
      const text = await readBody(res, this.bodyLimit(), requestId).catch(() => '');
      call.clear();
      let failure: ApiError;
      if (res.statusCode >= 200 && res.statusCode < 300) {
        failure = new ApiError({
          status: res.statusCode,
          code: 'INVALID_RESPONSE',
          message: `Expected an event stream (text/event-stream) but the service sent ${headers['content-type'] ?? 'no content type'}.`,
          requestId,
        });
      } else {
        failure = errorFromResponse(res.statusCode, text, headers);
        if (res.statusCode === 429) this.options.limiter.rejected(failure.retryAfterS);
      }
      this.finishEntry(entry, t0, {
        status: res.statusCode,
        headers,
        body: text,
        rate,
        requestId,
        errorCode: failure.code,
      });
      throw failure;
    }
    this.options.limiter.succeeded();
    const elapsed = (): number => Math.round(performance.now() - t0);
    return new ChatStream(
      {
        body: res.body,
        elapsed,
        abort: () => controller.abort(),
        maxBytes: this.options.limits?.streamBytes ?? MAX_STREAM_BYTES,
        classify: (error, partial) => {
          const failure = this.classify(error, opts.signal, timeoutMs, controller.signal);
          const dropped = failure.code === 'NETWORK';
          const seconds = Math.round(timeoutMs / 1000);
          return new ApiError({
            ...failure.toJSON(),
            status: 200,
            code: dropped ? 'STREAM_INCOMPLETE' : failure.code,
            message: dropped
              ? 'The connection closed before the stream finished ([DONE] never arrived). The reply is incomplete.'
              : failure.code === 'CLIENT_TIMEOUT'
                ? `The stream did not finish within ${seconds} second${seconds === 1 ? '' : 's'}, so this console stopped reading it. The reply is incomplete.`
                : failure.message,
            requestId,
            partial,
            cause: error,
          });
        },
        requestId,
      },
      elapsed(),
      (stream) => {
        call.clear();
        this.finishEntry(entry, t0, {
          status: res.statusCode,
          headers,
          body: loggedFrames(stream.frames),
          bytes: stream.bytesRead,
          rate,
          requestId,
          errorCode: stream.error?.code ?? (stream.status === 'cancelled' ? 'ABORTED' : undefined),
        });
      },
    );
  }

  private chatTimeout(): number {
    return this.options.timeouts?.chatMs ?? 65_000;
  }

  private bodyLimit(): number {
    return this.options.limits?.bodyBytes ?? MAX_BODY_BYTES;
  }

  private get<T extends z.ZodType>(
    path: string,
    schema: T,
    query: Record<string, string | number | undefined>,
    opts: CallOptions,
  ): Promise<z.infer<T>> {
    const timeoutMs = this.options.timeouts?.otherMs ?? 15_000;
    return this.send(
      { method: 'GET', path, query, schema, idempotent: true, timeoutMs },
      opts.signal,
      opts.onRoundTrip,
    );
  }

  private post<T extends z.ZodType>(
    path: string,
    schema: T,
    body: unknown,
    opts: CallOptions,
  ): Promise<z.infer<T>> {
    // Thread messages reach an agent like chat does: the chat timeout applies, and no silent retry.
    return this.send(
      { method: 'POST', path, body, schema, idempotent: false, timeoutMs: this.chatTimeout() },
      opts.signal,
      opts.onRoundTrip,
    );
  }

  private async headers(json: boolean): Promise<Record<string, string>> {
    return {
      authorization: `Bearer ${await this.options.secret()}`,
      accept: json ? 'application/json, text/event-stream' : 'application/json',
      ...(json ? { 'content-type': 'application/json' } : {}),
    };
  }

  private async send<T extends z.ZodType>(
    call: Call<T>,
    signal: AbortSignal | undefined,
    onRoundTrip?: CallOptions['onRoundTrip'],
  ): Promise<z.infer<T>> {
    const retries = this.options.retries ?? {};
    const max429 = retries.after429 ?? 5;
    const max5xx = retries.after5xx ?? 3;
    const backoffMs = retries.backoffMs ?? 500;
    const random = this.options.random ?? Math.random;
    let count429 = 0;
    let count5xx = 0;
    const url = new URL(call.path, this.base);
    for (const [name, value] of Object.entries(call.query ?? {})) {
      if (value !== undefined) url.searchParams.set(name, String(value));
    }
    const bodyText = call.body === undefined ? undefined : JSON.stringify(call.body);
    // Read once, before the loop and outside its try (see chatStream).
    const requestHeaders = await this.headers(bodyText !== undefined);
    for (;;) {
      await this.options.limiter.acquire(signal);
      const started = this.options.clock.now();
      const t0 = performance.now();
      const entry = this.entry(call.method, url, bodyText, started, false);
      let status = 0;
      let headers: Record<string, string> = {};
      let text = '';
      const attempt = withDeadline(signal, call.timeoutMs);
      try {
        const res = await request(this.dispatcher, url, {
          method: call.method,
          headers: requestHeaders,
          body: bodyText,
          signal: attempt.signal,
          headersTimeout: call.timeoutMs,
          bodyTimeout: call.timeoutMs,
        });
        status = res.statusCode;
        headers = receivedHeaders(res.headers);
        text = await readBody(res, this.bodyLimit(), headers['x-request-id']);
        onRoundTrip?.(performance.now() - t0, { status, requestId: headers['x-request-id'] });
      } catch (error) {
        attempt.clear();
        const failure = this.classify(error, signal, call.timeoutMs, attempt.signal);
        this.options.limiter.observe({}); // no reply: release a limit probe, learn nothing
        this.finishEntry(entry, t0, { status, headers, body: text, errorCode: failure.code });
        if (call.idempotent && failure.code === 'NETWORK' && count5xx < max5xx) {
          await this.options.clock.sleep(backoffMs * 2 ** count5xx++ + random() * backoffMs, signal);
          continue;
        }
        throw failure;
      }
      attempt.clear();
      const rate = rateFrom(headers);
      const requestId = headers['x-request-id'];
      this.options.limiter.observe(rate);
      if (status >= 200 && status < 300) {
        this.options.limiter.succeeded();
        this.finishEntry(entry, t0, { status, headers, body: text, rate, requestId });
        return this.parse(call, text, requestId);
      }
      const failure = errorFromResponse(status, text, headers);
      this.finishEntry(entry, t0, { status, headers, body: text, rate, requestId, errorCode: failure.code });
      if (status === 429) {
        // The limiter pauses every caller of this key; the next acquire waits it out.
        this.options.limiter.rejected(failure.retryAfterS);
        if (call.idempotent && count429++ < max429) continue;
      } else if (call.idempotent && RETRYABLE_5XX.has(status) && count5xx < max5xx) {
        await this.options.clock.sleep(backoffMs * 2 ** count5xx++ + random() * backoffMs, signal);
        continue;
      }
      throw failure;
    }
  }

  private parse<T extends z.ZodType>(call: Call<T>, text: string, requestId: string | undefined): z.infer<T> {
    const what = `The reply to ${call.method} ${API_PREFIX}/${call.path}`;
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      throw new ApiError({
        status: 200,
        code: 'INVALID_RESPONSE',
        // Masked before it is cut: a key across the cut would lose its shape, not its secret.
        message: `${what} is not JSON: ${redactSecrets(text).slice(0, 120) || '(empty body)'}`,
        requestId,
      });
    }
    if (nestsDeeperThan(json, MAX_JSON_DEPTH)) {
      throw new ApiError({
        status: 200,
        code: 'INVALID_RESPONSE',
        message: `${what} is nested deeper than ${MAX_JSON_DEPTH} levels, which no reply of the service is; it was not read.`,
        requestId,
      });
    }
    // The boundary: every string the service sent, at any depth, is redacted before the core sees it.
    const result = call.schema.safeParse(redactValue(json));
    if (!result.success) {
      throw new ApiError({
        status: 200,
        code: 'INVALID_RESPONSE',
        message: describeZodError(result.error, what),
        requestId,
      });
    }
    return result.data;
  }

  /** Names a failure that produced no HTTP reply. */
  private classify(
    error: unknown,
    user: AbortSignal | undefined,
    timeoutMs: number,
    own?: AbortSignal,
  ): ApiError {
    if (error instanceof ApiError) return error;
    const timedOut =
      own?.reason === DEADLINE ||
      error instanceof undiciErrors.HeadersTimeoutError ||
      error instanceof undiciErrors.BodyTimeoutError;
    if (timedOut) {
      const seconds = Math.round(timeoutMs / 1000);
      return new ApiError({
        status: 0,
        code: 'CLIENT_TIMEOUT',
        message: `No answer from the service within ${seconds} second${seconds === 1 ? '' : 's'}.`,
        cause: error,
      });
    }
    if (user?.aborted || own?.aborted) {
      return new ApiError({
        status: 0,
        code: 'ABORTED',
        message: 'The request was cancelled.',
        cause: error,
      });
    }
    const detail = (error as { code?: string; message?: string }).code ?? (error as Error).message;
    return new ApiError({
      status: 0,
      code: 'NETWORK',
      message: `Could not reach the service at ${this.options.baseUrl} (${detail}).`,
      cause: error,
    });
  }

  private entry(
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
      profileId: this.options.profileId,
      keyId: this.options.keyId,
      method,
      url: url.toString(),
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

  private finishEntry(
    entry: RequestLogEntry,
    t0: number,
    result: {
      status: number;
      headers: Record<string, string>;
      body: string;
      rate?: RateHeaders;
      requestId?: string | undefined;
      errorCode?: string | undefined;
      /** Bytes on the wire, when `body` is not all of them (a long stream's frames). */
      bytes?: number;
    },
  ): void {
    if (!this.options.log) return;
    entry.durationMs = Math.round(performance.now() - t0);
    entry.status = result.status;
    entry.responseHeaders = result.headers;
    entry.responseBytes = result.bytes ?? Buffer.byteLength(result.body);
    // The request log redacts, then caps; cutting here first could split a key so redaction misses it.
    entry.responseBody = result.body;
    entry.rate = result.rate ?? {};
    if (result.requestId) entry.requestId = result.requestId;
    if (result.errorCode) entry.errorCode = result.errorCode;
    this.options.log(entry);
  }
}
