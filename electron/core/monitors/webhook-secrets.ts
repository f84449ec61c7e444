// Webhook URLs added in the app are credentials (Slack's are): kept in the secret store (the OS
// keychain) under `webhook:<id>`, the monitors file naming them by id; a file may instead name an
// environment variable, or write a URL that is no secret.
import { randomUUID } from 'node:crypto';
import { CoreError } from '../core-error';
import type { SecretStore } from '../secret-store';
import type { MonitorConfig } from './monitor-config';
import { checkWebhookUrl, webhookUrlFromEnv } from './webhooks';

type Webhook = MonitorConfig['notify']['webhooks'][number];

const webhookAccount = (id: string) => `webhook:${id}`;

/** The URL a webhook posts to, wherever it is kept. */
export async function webhookUrl(secrets: SecretStore, hook: Webhook): Promise<string> {
  if (typeof hook.url === 'string') return hook.url;
  if ('env' in hook.url) return webhookUrlFromEnv(hook.url.env);
  const value = await secrets.get(webhookAccount(hook.url.secret));
  if (!value)
    throw new CoreError(
      'NO_WEBHOOK_URL',
      'A webhook URL is no longer in the keychain: add the webhook again.',
    );
  return value;
}

/** Keeps URLs given in clear in the secret store; answers the file's entries naming them. */
export async function storeWebhooks(
  secrets: SecretStore,
  given: { url: string; format: 'json' | 'slack' }[],
): Promise<Webhook[]> {
  const out: Webhook[] = [];
  for (const hook of given) {
    checkWebhookUrl(hook.url);
    const id = randomUUID().slice(0, 12);
    await secrets.set(webhookAccount(id), hook.url.trim());
    out.push({ id, url: { secret: id }, format: hook.format });
  }
  return out;
}

/** Webhook secrets a monitor no longer names are deleted from the store. */
export async function forgetWebhooks(
  secrets: SecretStore,
  old: MonitorConfig,
  next: MonitorConfig | undefined,
): Promise<void> {
  const kept = new Set(
    (next?.notify.webhooks ?? []).flatMap((h) =>
      typeof h.url === 'object' && 'secret' in h.url ? [h.url.secret] : [],
    ),
  );
  for (const hook of old.notify.webhooks) {
    if (typeof hook.url === 'object' && 'secret' in hook.url && !kept.has(hook.url.secret)) {
      await secrets.delete(webhookAccount(hook.url.secret)).catch(() => false);
    }
  }
}
