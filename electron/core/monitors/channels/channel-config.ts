// The channels a monitor tells (`notify.webhooks` in the monitors file), each with a `kind`: a
// webhook of our JSON or Slack's shape, a Microsoft Teams or Discord incoming webhook, PagerDuty's
// Events API v2, or email over SMTP (README, "Channels"). What is a credential — a Teams or Discord
// URL, a PagerDuty routing key, an SMTP password — is never written in the file: it names an
// environment variable (`{env: NAME}`) or, in the app's file, a keychain entry (`{secret: id}`).
import { z } from 'zod';
import { CHANNEL_WORDS } from '../../../../shared/monitor';

export const ENV_NAME = /^[A-Z_][A-Z0-9_]*$/;
const EnvRef = z.strictObject({
  env: z.string().regex(ENV_NAME, 'An environment variable name: A-Z, 0-9 and _.'),
});
/** In the app's file: the id of a secret in the keychain (the value itself never touches the file). */
const SecretRef = z.strictObject({ secret: z.string().regex(/^[a-z0-9-]{1,80}$/) });
export type SecretSource = z.output<typeof EnvRef> | z.output<typeof SecretRef>;

const ChannelId = z
  .string()
  .regex(/^[a-z0-9-]{1,80}$/, 'An id is lower-case letters, digits and -.')
  .optional();

/** A credential: from the environment or the keychain; written in clear, refused in words. */
const credential = (what: string, example: string) =>
  z
    .union([z.string(), EnvRef, SecretRef])
    .refine((v) => typeof v !== 'string', {
      message: `${what} is a credential: name an environment variable ({env: ${example}}) or add it in the app (kept in the keychain), never in this file.`,
      abort: true,
    })
    .pipe(z.union([EnvRef, SecretRef]));

/** PagerDuty's Events API v2 endpoint (docs/architecture.md, "Channels": a test points it at a local receiver). */
export const PAGERDUTY_EVENTS_URL = 'https://events.pagerduty.com/v2/enqueue';

const WebhookChannel = z.strictObject({
  kind: z.literal('webhook'),
  id: ChannelId,
  // A URL that is no secret may be written here; one that is (Slack's) comes from env or keychain.
  url: z.union([z.url({ protocol: /^https?$/ }), EnvRef, SecretRef]),
  format: z.enum(['json', 'slack']).default('json'),
});

const TeamsChannel = z.strictObject({
  kind: z.literal('teams'),
  id: ChannelId,
  url: credential('A Teams webhook URL', 'TEAMS_WEBHOOK_URL'),
});

const DiscordChannel = z.strictObject({
  kind: z.literal('discord'),
  id: ChannelId,
  url: credential('A Discord webhook URL', 'DISCORD_WEBHOOK_URL'),
});

const PagerDutyChannel = z.strictObject({
  kind: z.literal('pagerduty'),
  id: ChannelId,
  routingKey: credential('A PagerDuty routing key', 'PAGERDUTY_ROUTING_KEY'),
  endpoint: z
    .url({ protocol: /^https?$/, error: 'An https:// URL (http:// only for this computer).' })
    .optional(),
});

// A host name or an IP literal: nothing that could carry a line break into the SMTP dialogue.
const HOST = /^(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,62})(?:\.[A-Za-z0-9-]{1,63})*|\[[0-9A-Fa-f:.]+\])$/;
const Address = z.email('An email address such as ops@example.com.');

const EmailChannel = z
  .strictObject({
    kind: z.literal('email'),
    id: ChannelId,
    host: z.string().regex(HOST, 'An SMTP server host name such as smtp.example.com.'),
    port: z.int().min(1).max(65_535).default(587),
    /** `starttls` (587: plain connection upgraded, refused without it) or `tls` (465: TLS from the start). */
    tls: z.enum(['starttls', 'tls']).default('starttls'),
    /** A CA certificate (PEM file, relative to the monitors file) for a server on a private CA. */
    ca: z.string().min(1).max(4096).optional(),
    user: z
      .string()
      .min(1)
      .max(200)
      .regex(/^[^\p{Cc}]+$/u, 'A user name without control characters.')
      .optional(),
    password: credential('An SMTP password', 'SMTP_PASSWORD').optional(),
    from: Address,
    to: z
      .union([Address, z.array(Address).min(1).max(20)])
      .transform((to) => (typeof to === 'string' ? [to] : to)),
  })
  .refine((e) => (e.user === undefined) === (e.password === undefined), {
    message: 'An SMTP login names both user: and password: (or neither).',
  });

/** One channel; an entry without `kind` is a webhook (files written before there were kinds). */
export const Channel = z.preprocess(
  (value) =>
    value !== null && typeof value === 'object' && !Array.isArray(value) && !('kind' in value)
      ? { kind: 'webhook', ...value }
      : value,
  z.discriminatedUnion(
    'kind',
    [WebhookChannel, TeamsChannel, DiscordChannel, PagerDutyChannel, EmailChannel],
    {
      error: `kind is one of ${Object.keys(CHANNEL_WORDS).join(', ')}.`,
    },
  ),
);

export type ChannelConfig = z.output<typeof Channel>;
export type EmailConfig = Extract<ChannelConfig, { kind: 'email' }>;

/** Where each of a channel's credentials comes from, with the field that names it. */
export function channelSecrets(channel: ChannelConfig): { field: string; source: SecretSource }[] {
  switch (channel.kind) {
    case 'webhook':
      return typeof channel.url === 'string' ? [] : [{ field: 'url', source: channel.url }];
    case 'teams':
    case 'discord':
      return [{ field: 'url', source: channel.url }];
    case 'pagerduty':
      return [{ field: 'routingKey', source: channel.routingKey }];
    case 'email':
      return channel.password ? [{ field: 'password', source: channel.password }] : [];
  }
}
