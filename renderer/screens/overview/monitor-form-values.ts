// The monitor form's values, and how they become what monitors:add and monitors:update take: the
// numbers typed as text, the comma-separated lists, the synthetic check only when asked for, a new
// channel only when its fields were filled. Then the contract's own schema, so every bound the core
// checks is said in the form, on the field it belongs to (the fields are named as the contract
// names them).
import { z } from 'zod';
import type { BridgeInput } from '../../../shared/bridge';
import type { ChannelKind, MonitorView } from '../../../shared/monitor';
import { contractInput } from '../../data/contract';

/** A channel being added: every kind's fields, the ones of its kind sent. */
interface NewChannelValues {
  kind: ChannelKind;
  url: string;
  format: 'json' | 'slack';
  routingKey: string;
  host: string;
  port: string;
  tls: 'starttls' | 'tls';
  user: string;
  password: string;
  from: string;
  /** Addresses, comma-separated. */
  to: string;
}

export interface MonitorFormValues {
  name: string;
  profileId: string;
  healthEveryS: string;
  withSynthetic: boolean;
  synthetic: {
    everyMinutes: string;
    agents: string;
    source: 'message' | 'suite';
    message: string;
    stream: boolean;
    assertYaml: string;
    suite: string;
    cases: string;
  };
  desktop: boolean;
  muted: boolean;
  public: boolean;
  maintenanceYaml: string;
  /** The saved channels kept (shown by their host only: their secrets stay in the keychain). */
  kept: MonitorView['settings']['webhooks'];
  /** A new channel: kept only when its fields are filled (a webhook's unless `kind` says otherwise). */
  webhooks: [Partial<NewChannelValues> & Pick<NewChannelValues, 'url' | 'format'>];
}

/** What monitors:update takes, but the monitor's id. */
export type MonitorInput = Omit<BridgeInput<'monitors:update'>, 'id'>;

const NEW_CHANNEL: NewChannelValues = {
  kind: 'webhook',
  url: '',
  format: 'json',
  routingKey: '',
  host: '',
  port: '587',
  tls: 'starttls',
  user: '',
  password: '',
  from: '',
  to: '',
};

const DEFAULT_ASSERT = '- completes: true\n- ttft-ms: 2000\n';

/** The form as a monitor's settings fill it, or as a new monitor of the active profile starts. */
export function monitorFormStart(editing: MonitorView | undefined, activeProfileId: string | undefined) {
  const settings = editing?.settings;
  const synth = settings?.synthetic;
  return {
    name: settings?.name ?? '',
    profileId: settings?.profileId ?? activeProfileId ?? '',
    healthEveryS: String((settings?.healthEveryMs ?? 60_000) / 1000),
    withSynthetic: synth !== undefined,
    synthetic: {
      everyMinutes: String((synth?.everyMs ?? 300_000) / 60_000),
      agents: (synth?.agents ?? []).join(', '),
      source: synth?.suite ? 'suite' : 'message',
      message: synth?.message ?? 'Are you there?',
      stream: synth?.stream ?? true,
      assertYaml: DEFAULT_ASSERT,
      suite: synth?.suite ?? '',
      cases: (synth?.cases ?? []).join(', '),
    },
    desktop: settings?.desktop ?? true,
    muted: settings?.muted ?? false,
    public: settings?.public ?? false,
    maintenanceYaml: settings?.maintenanceYaml ?? '',
    kept: settings?.webhooks ?? [],
    webhooks: [NEW_CHANNEL],
  } satisfies MonitorFormValues;
}

const list = (text: string) =>
  text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

/** The channel the form describes, once the field that makes it one is filled. */
function newChannel(c: NewChannelValues) {
  switch (c.kind) {
    case 'webhook':
      return c.url.trim() ? { kind: c.kind, url: c.url.trim(), format: c.format } : undefined;
    case 'teams':
    case 'discord':
      return c.url.trim() ? { kind: c.kind, url: c.url.trim() } : undefined;
    case 'pagerduty':
      return c.routingKey.trim() ? { kind: c.kind, routingKey: c.routingKey.trim() } : undefined;
    case 'email':
      return c.host.trim()
        ? {
            kind: c.kind,
            host: c.host.trim(),
            port: Number(c.port),
            tls: c.tls,
            ...(c.user.trim() ? { user: c.user.trim() } : {}),
            ...(c.password ? { password: c.password } : {}),
            from: c.from.trim(),
            to: list(c.to),
          }
        : undefined;
  }
}

function toInput(values: MonitorFormValues): MonitorInput {
  const { synthetic: s } = values;
  const channel = newChannel({ ...NEW_CHANNEL, ...values.webhooks[0] });
  return {
    name: values.name.trim(),
    profileId: values.profileId,
    healthEveryS: Number(values.healthEveryS),
    ...(values.withSynthetic
      ? {
          synthetic: {
            everyMinutes: Number(s.everyMinutes),
            agents: list(s.agents),
            ...(s.source === 'suite'
              ? { suite: s.suite.trim(), ...(list(s.cases).length ? { cases: list(s.cases) } : {}) }
              : { message: s.message, stream: s.stream, assertYaml: s.assertYaml }),
          },
        }
      : {}),
    desktop: values.desktop,
    muted: values.muted,
    public: values.public,
    ...(values.maintenanceYaml.trim() ? { maintenanceYaml: values.maintenanceYaml } : {}),
    ...(channel ? { webhooks: [channel] } : {}),
    keepWebhooks: values.kept.map((h) => h.id),
  };
}

const text = z.string();
export const monitorForm = z
  .object({
    name: text,
    profileId: text,
    healthEveryS: text,
    withSynthetic: z.boolean(),
    synthetic: z.object({
      everyMinutes: text,
      agents: text,
      source: z.enum(['message', 'suite']),
      message: text,
      stream: z.boolean(),
      assertYaml: text,
      suite: text,
      cases: text,
    }),
    desktop: z.boolean(),
    muted: z.boolean(),
    public: z.boolean(),
    maintenanceYaml: text,
    kept: z.array(
      z.object({
        id: text,
        kind: z.enum(['webhook', 'teams', 'discord', 'pagerduty', 'email']),
        format: z.enum(['json', 'slack']).optional(),
        target: text,
      }),
    ),
    webhooks: z.tuple([
      z.object({
        kind: z.enum(['webhook', 'teams', 'discord', 'pagerduty', 'email']).optional(),
        url: text,
        format: z.enum(['json', 'slack']),
        routingKey: text.optional(),
        host: text.optional(),
        port: text.optional(),
        tls: z.enum(['starttls', 'tls']).optional(),
        user: text.optional(),
        password: text.optional(),
        from: text.optional(),
        to: text.optional(),
      }),
    ]),
  })
  .transform(toInput)
  .pipe(contractInput('monitors:update').omit({ id: true }));

/** A new monitor keeps no channels but those it is given. */
export function addInput({ keepWebhooks: _kept, ...input }: MonitorInput): BridgeInput<'monitors:add'> {
  return input;
}
