// A channel's credentials (webhook URLs, a PagerDuty routing key, an SMTP password) as the core
// reads them: from the environment variable the monitors file names, or from the secret store (the
// OS keychain) where the app put what was typed in its form, the file naming it by id. Once read,
// each is a secret of this process, masked in every output (redact.ts `rememberSecret`).
import { randomUUID } from 'node:crypto';
import type { NewChannel } from '../../../../shared/bridge/monitors';
import { CoreError } from '../../core-error';
import { rememberSecret } from '../../redact';
import type { SecretStore } from '../../secret-store';
import type { MonitorConfig } from '../monitor-config';
import { channelSecrets, type ChannelConfig, type SecretSource } from './channel-config';
import { checkWebhookUrl } from './webhook';

// The keychain's entry names date from when every channel was a webhook; kept so saved ones still open.
const secretAccount = (id: string) => `webhook:${id}`;

/** The value of a variable a monitors file names; `what` says what it should hold. */
export function secretFromEnv(name: string, what: string): string {
  const value = process.env[name];
  if (!value) {
    throw new CoreError('NO_CHANNEL_SECRET', `The environment variable ${name} (${what}) is not set.`);
  }
  rememberSecret(value);
  return value;
}

/** A credential wherever it is kept. */
export async function secretValue(secrets: SecretStore, source: SecretSource, what: string): Promise<string> {
  if ('env' in source) return secretFromEnv(source.env, what);
  const value = await secrets.get(secretAccount(source.secret));
  if (!value)
    throw new CoreError(
      'NO_CHANNEL_SECRET',
      `${what[0]?.toUpperCase()}${what.slice(1)} is no longer in the keychain: add the channel again.`,
    );
  return value;
}

/** The credentials a monitor's channels read from the environment, masked from its start on. */
export function rememberEnvSecrets(config: MonitorConfig): void {
  for (const channel of config.notify.webhooks) {
    for (const { source } of channelSecrets(channel)) {
      const value = 'env' in source ? process.env[source.env] : undefined;
      if (value) rememberSecret(value);
    }
  }
}

/** Keeps what the app's form typed in clear in the secret store; answers the file's entries naming it. */
export async function storeChannels(
  secrets: SecretStore,
  given: readonly NewChannel[],
): Promise<ChannelConfig[]> {
  const out: ChannelConfig[] = [];
  for (const channel of given) {
    const id = randomUUID().slice(0, 12);
    const keep = async (value: string) => {
      await secrets.set(secretAccount(id), value.trim());
      return { secret: id };
    };
    switch (channel.kind) {
      case 'webhook':
      case 'teams':
      case 'discord':
        checkWebhookUrl(channel.url);
        out.push({ ...channel, id, url: await keep(channel.url) } as ChannelConfig);
        break;
      case 'pagerduty':
        out.push({ kind: 'pagerduty', id, routingKey: await keep(channel.routingKey) });
        break;
      case 'email': {
        const { password, ...rest } = channel;
        out.push({
          ...rest,
          id,
          port: rest.port ?? 587,
          tls: rest.tls ?? 'starttls',
          ...(password ? { password: await keep(password) } : {}),
        });
        break;
      }
    }
  }
  return out;
}

/** Secrets a monitor's channels no longer name are deleted from the store. */
export async function forgetChannels(
  secrets: SecretStore,
  old: MonitorConfig,
  next: MonitorConfig | undefined,
): Promise<void> {
  const ids = (config: MonitorConfig | undefined) =>
    (config?.notify.webhooks ?? []).flatMap((c) =>
      channelSecrets(c).flatMap(({ source }) => ('secret' in source ? [source.secret] : [])),
    );
  const kept = new Set(ids(next));
  for (const id of ids(old)) {
    if (!kept.has(id)) await secrets.delete(secretAccount(id)).catch(() => false);
  }
}
