// Webhook notifications: a JSON POST of our own shape, or a Slack-compatible payload
// (`text`, plus a mrkdwn block) that Slack, Mattermost and Rocket.Chat incoming webhooks accept.
// Delivered by the core on undici, retried a few times on a network failure or a 5xx, and never
// logged with its URL: a webhook URL is a credential (Slack's is), so only its host is shown.
import type { Dispatcher } from 'undici';
import { dispatcherFor, request } from '../http-agent';
import type { MonitorNotification } from '../../../shared/monitor';
import { guardValue } from '../output-guard';
import { CoreError } from '../core-error';
import { isLoopbackHost } from '../profiles';
import { proxyFromEnvironment, ProxySettingError, type ProxyChoice } from '../proxy';
import { rememberSecret } from '../redact';

export type WebhookFormat = 'json' | 'slack';

const TIMEOUT_MS = 10_000;
const ATTEMPTS = 3;

/** One connection pool per way out: direct, or each proxy the environment names. */
const webhookDispatchers = new Map<string, Dispatcher>();

/** The way to a webhook's receiver: direct or through the environment's proxy (proxy.ts). */
function webhookDispatcher(target: URL): Dispatcher {
  let proxy: ProxyChoice | undefined;
  try {
    proxy = proxyFromEnvironment(target);
  } catch (error) {
    if (error instanceof ProxySettingError) throw new WebhookError(error.message);
    throw error;
  }
  const way = proxy?.url.href ?? '';
  let dispatcher = webhookDispatchers.get(way);
  if (!dispatcher) webhookDispatchers.set(way, (dispatcher = dispatcherFor({ proxy })));
  return dispatcher;
}

class WebhookError extends Error {
  override readonly name = 'WebhookError';
}

/** https, or http on this computer only (a receiver under test, a local relay). */
export function checkWebhookUrl(text: string): URL {
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    throw new WebhookError(
      'The webhook URL is not a valid URL; write it in full, e.g. https://hooks.example.com/….',
    );
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && isLoopbackHost(url.hostname))) {
    throw new WebhookError('A webhook URL must use https:// (http:// only for this computer).');
  }
  return url;
}

/**
 * A webhook URL a monitors file names by its environment variable (`url: {env: NAME}`). Once read
 * it is a secret of this process, masked in every output like the URLs kept in the keychain.
 */
export function webhookUrlFromEnv(name: string): string {
  const value = process.env[name];
  if (!value) {
    throw new CoreError('NO_WEBHOOK_URL', `The environment variable ${name} (a webhook URL) is not set.`);
  }
  rememberSecret(value);
  return value;
}

/** What may be shown of a webhook: scheme and host. */
export function webhookTarget(text: string): string {
  try {
    const url = new URL(text);
    return `${url.protocol}//${url.host}/…`;
  } catch {
    return '(not a URL)';
  }
}

function webhookPayload(format: WebhookFormat, n: MonitorNotification): unknown {
  if (format === 'slack') {
    const text = `*${n.title}*\n${n.body}`;
    return {
      text: `${n.title}: ${n.body}`,
      blocks: [{ type: 'section', text: { type: 'mrkdwn', text } }],
    };
  }
  return {
    source: 'agent-console',
    monitor: { id: n.monitorId, name: n.monitorName },
    status: n.to,
    previous: n.from,
    at: new Date(n.at).toISOString(),
    title: n.title,
    body: n.body,
    ...(n.test ? { test: true } : {}),
    ...(n.incidentId
      ? { incident: { id: n.incidentId, ...(n.escalation ? { escalation: n.escalation } : {}) } }
      : {}),
  };
}

/** Posts one notification; resolves once delivered (a 2xx), rejects with words after the retries. */
export async function postWebhook(
  url: string,
  format: WebhookFormat,
  notification: MonitorNotification,
  options: { sleep: (ms: number) => Promise<void>; signal?: AbortSignal },
): Promise<void> {
  const target = checkWebhookUrl(url);
  const body = JSON.stringify(guardValue(webhookPayload(format, notification)));
  const dispatcher = webhookDispatcher(target);
  let last = '';
  for (let attempt = 1; attempt <= ATTEMPTS; attempt++) {
    try {
      const res = await request(dispatcher, target, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'user-agent': 'agent-console' },
        body,
        headersTimeout: TIMEOUT_MS,
        bodyTimeout: TIMEOUT_MS,
        ...(options.signal ? { signal: options.signal } : {}),
      });
      await res.body.text().catch(() => '');
      if (res.statusCode >= 200 && res.statusCode < 300) return;
      last = `HTTP ${res.statusCode}`;
      // A 4xx will not change on a retry: the URL or the payload is refused.
      if (res.statusCode < 500) break;
    } catch (error) {
      last = (error as { code?: string }).code ?? (error as Error).message;
    }
    if (attempt < ATTEMPTS) await options.sleep(500 * 2 ** (attempt - 1));
  }
  throw new WebhookError(`The webhook at ${webhookTarget(url)} did not take the notification (${last}).`);
}
