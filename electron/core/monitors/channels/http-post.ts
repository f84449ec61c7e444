// One notification POSTed to an HTTP channel (a webhook, Teams, Discord, PagerDuty), delivered by
// the core on undici: retried a few times on a network failure, a 5xx or a 429 (after the wait the
// receiver asks for: Discord's `retry_after`, else `Retry-After`), never waiting on a receiver
// longer than the timeout, and never reading more of its answer than a few kilobytes — a receiver
// that hangs or streams without end costs one bounded attempt (docs/security.md, "Channels"). The
// URL is a credential: only its scheme and host are ever shown.
import type { Dispatcher } from 'undici';
import { dispatcherFor, request } from '../../http-agent';
import { proxyFromEnvironment, ProxySettingError, type ProxyChoice } from '../../proxy';
import type { MonitorNotification } from '../../../../shared/monitor';
import { guardValue } from '../../output-guard';
import { checkWebhookUrl, webhookPayload, webhookTarget, WebhookError } from './webhook';

export interface PostOptions {
  sleep: (ms: number) => Promise<void>;
  /** Ends every wait at once (the monitors stop). */
  signal?: AbortSignal;
  /** One attempt's limit, from connecting to the end of the answer. */
  timeoutMs?: number;
}

const TIMEOUT_MS = 10_000;
const ATTEMPTS = 3;
/** What is read of a receiver's answer: enough for an error's JSON, never a stream. */
const ANSWER_LIMIT = 16 * 1024;
/** The longest wait a 429 may ask for; longer, the notification is given up. */
const MAX_RETRY_AFTER_MS = 60_000;

/** One connection pool per way out: direct, or each proxy the environment names. */
const dispatchers = new Map<string, Dispatcher>();

function dispatcherTo(target: URL): Dispatcher {
  let proxy: ProxyChoice | undefined;
  try {
    proxy = proxyFromEnvironment(target);
  } catch (error) {
    if (error instanceof ProxySettingError) throw new WebhookError(error.message);
    throw error;
  }
  const way = proxy?.url.href ?? '';
  let dispatcher = dispatchers.get(way);
  if (!dispatcher) dispatchers.set(way, (dispatcher = dispatcherFor({ proxy })));
  return dispatcher;
}

/** At most `limit` bytes of an answer; the rest is never read (the connection is dropped). */
async function readBounded(body: Dispatcher.ResponseData['body'], limit: number): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body as AsyncIterable<Buffer>) {
    chunks.push(chunk);
    size += chunk.length;
    if (size >= limit) break;
  }
  body.destroy();
  return Buffer.concat(chunks).subarray(0, limit).toString('utf8');
}

/** How long a 429 asks to wait, in ms: Discord's `retry_after` (seconds) in the body, else the header. */
function retryAfterMs(answer: string, header: string | string[] | undefined): number | undefined {
  try {
    const seconds = (JSON.parse(answer) as { retry_after?: unknown }).retry_after;
    if (typeof seconds === 'number' && Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  } catch {
    // Not JSON: the header says it, if anything does.
  }
  const value = Number(Array.isArray(header) ? header[0] : header);
  return Number.isFinite(value) && value >= 0 ? value * 1000 : undefined;
}

/**
 * Posts a JSON body (already guarded); resolves once a 2xx says it was taken, rejects with words
 * naming `what` and the receiver's host after the retries.
 */
export async function postJson(url: string, body: string, what: string, options: PostOptions): Promise<void> {
  const target = checkWebhookUrl(url);
  const dispatcher = dispatcherTo(target);
  const timeoutMs = options.timeoutMs ?? TIMEOUT_MS;
  let last = '';
  for (let attempt = 1; attempt <= ATTEMPTS; attempt++) {
    options.signal?.throwIfAborted();
    let wait = 500 * 2 ** (attempt - 1);
    const attemptSignal = AbortSignal.any([
      AbortSignal.timeout(timeoutMs),
      ...(options.signal ? [options.signal] : []),
    ]);
    try {
      const res = await request(dispatcher, target, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'user-agent': 'agent-console' },
        body,
        headersTimeout: timeoutMs,
        bodyTimeout: timeoutMs,
        signal: attemptSignal,
      });
      const answer = await readBounded(res.body, ANSWER_LIMIT).catch(() => '');
      if (res.statusCode >= 200 && res.statusCode < 300) return;
      last = `HTTP ${res.statusCode}`;
      if (res.statusCode === 429) {
        const asked = retryAfterMs(answer, res.headers['retry-after']);
        if (asked !== undefined && asked > MAX_RETRY_AFTER_MS) break;
        wait = asked ?? wait;
        // A 4xx but 429 will not change on a retry: the URL or the payload is refused.
      } else if (res.statusCode < 500) break;
    } catch (error) {
      options.signal?.throwIfAborted();
      last = attemptSignal.aborted
        ? `no answer within ${timeoutMs / 1000} s`
        : ((error as { code?: string }).code ?? (error as Error).message);
    }
    if (attempt < ATTEMPTS) await options.sleep(wait);
  }
  throw new WebhookError(`${what} at ${webhookTarget(url)} did not take the notification (${last}).`);
}

/** A webhook's notification in its format, guarded (no secret leaves in the body). */
export async function postWebhook(
  url: string,
  format: 'json' | 'slack',
  n: MonitorNotification,
  options: PostOptions,
): Promise<void> {
  await postJson(url, JSON.stringify(guardValue(webhookPayload(format, n))), 'The webhook', options);
}
