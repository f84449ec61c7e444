// The API client for every endpoint of the spec (§4), on undici (a real HTTP client) with the
// profile's CA. Every call goes through the key's shared limiter, is logged, is validated with zod
// as a tolerant reader (shared/received.ts: strict on ids, content and counts, lenient on what is
// only shown; a reply that breaks what the client relies on names the field), and fails with one
// ApiError type.
import type { Dispatcher } from 'undici';
import type { z } from 'zod';
import { dispatcherFor, request } from './http-agent';
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
import { parseReply, rateFrom, readBody, receivedHeaders } from './api-reply';
import { ClientCertReason, classifyFailure, withDeadline } from './call-failure';
import { CallLog, loggedFrames } from './call-log';
import { ChatStream } from './chat-stream';
import type { ClientCertificateTls } from './client-certificate';
import type { ProxyChoice } from './proxy';
import type { RateLimiter } from './rate-limiter';
import { MAX_BODY_BYTES, MAX_STREAM_BYTES } from './reply-limits';
import type { RequestLogEntry } from '../../shared/request-log-entry';

export interface ApiClientOptions {
  profileId: string;
  baseUrl: string;
  /** PEM of a private CA to trust (the mock's, or a staging server's). */
  ca?: string;
  /** The proxy requests go through (proxy.ts); none: direct. */
  proxy?: ProxyChoice | undefined;
  /** The proxy's password, read when the first request goes out (the keychain's). */
  proxyPassword?: () => Promise<string | undefined>;
  /**
   * Without `proxy`: the operating system's proxy for the service, asked when the first request
   * goes out (the desktop app's, PAC files included; proxy.ts).
   */
  systemProxy?: () => Promise<ProxyChoice | undefined>;
  /** The client certificate (client-certificate.ts), read when the first request goes out. */
  clientCert?: () => Promise<ClientCertificateTls>;
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

export class ApiClient {
  private connections: Promise<Dispatcher> | undefined;
  private readonly base: URL;
  private readonly calls: CallLog;
  /** The proxy calls go through: the profile's or the environment's, else the system's once asked. */
  private proxy: ProxyChoice | undefined;
  private readonly clientCertReason: ClientCertReason;

  constructor(private readonly options: ApiClientOptions) {
    this.clientCertReason = new ClientCertReason(() => options.clock.now());
    this.base = new URL(options.baseUrl.replace(/\/+$/, '') + API_PREFIX + '/');
    this.calls = new CallLog({ ...options, proxy: options.proxy?.shown });
    this.proxy = options.proxy;
  }

  async close(): Promise<void> {
    await (await this.connections)?.close();
  }

  /** Made with the first request, once the proxy's password (if any) has been read. */
  private dispatcher(): Promise<Dispatcher> {
    this.connections ??= (async () => {
      const { ca, proxyPassword, systemProxy } = this.options;
      if (!this.proxy && systemProxy) {
        this.proxy = await systemProxy();
        this.calls.useProxy(this.proxy?.shown);
      }
      const proxy = this.proxy;
      const password = proxy ? await proxyPassword?.() : undefined;
      const clientCert = await this.options.clientCert?.();
      const tls = { ...(ca ? { ca } : {}), clientCert };
      if (!proxy || !password) return dispatcherFor({ ...tls, proxy });
      const url = new URL(proxy.url);
      url.password = encodeURIComponent(password);
      return dispatcherFor({ ...tls, proxy: { ...proxy, url } });
    })();
    // A keychain that could not be read this time is asked again by the next request.
    this.connections.catch(() => (this.connections = undefined));
    return this.connections;
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

  /** A chat answered in one JSON document. Never retried silently (docs/decisions.md). */
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
    const entry = this.calls.open('POST', url, bodyText, started, true);
    let res;
    try {
      res = await request(await this.dispatcher(), url, {
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
      const failure = await this.classify(error, opts.signal, timeoutMs, controller.signal);
      this.calls.finish(entry, t0, { status: 0, headers: {}, body: '', errorCode: failure.code });
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
      this.calls.finish(entry, t0, {
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
          // Mid-stream the service has answered: its client-certificate check is long passed.
          const failure = classifyFailure(error, {
            user: opts.signal,
            own: controller.signal,
            timeoutMs,
            baseUrl: this.options.baseUrl,
            proxy: this.proxy?.shown,
          });
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
        this.calls.finish(entry, t0, {
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
      const entry = this.calls.open(call.method, url, bodyText, started, false);
      let status = 0;
      let headers: Record<string, string> = {};
      let text = '';
      const attempt = withDeadline(signal, call.timeoutMs);
      try {
        const res = await request(await this.dispatcher(), url, {
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
        const failure = await this.classify(error, signal, call.timeoutMs, attempt.signal);
        this.options.limiter.observe({}); // no reply: release a limit probe, learn nothing
        this.calls.finish(entry, t0, { status, headers, body: text, errorCode: failure.code });
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
        this.calls.finish(entry, t0, { status, headers, body: text, rate, requestId });
        return parseReply(
          call.schema,
          `The reply to ${call.method} ${API_PREFIX}/${call.path}`,
          text,
          requestId,
        );
      }
      const failure = errorFromResponse(status, text, headers);
      this.calls.finish(entry, t0, { status, headers, body: text, rate, requestId, errorCode: failure.code });
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

  /** Names a failure that produced no HTTP reply (call-failure.ts). */
  private classify(
    error: unknown,
    user: AbortSignal | undefined,
    timeoutMs: number,
    own?: AbortSignal,
  ): Promise<ApiError> {
    const { baseUrl, ca, clientCert } = this.options;
    const proxy = this.proxy;
    const failure = classifyFailure(error, { user, own, timeoutMs, baseUrl, proxy: proxy?.shown });
    return this.clientCertReason.of(failure, error, { baseUrl, proxy, ca, clientCert });
  }
}
