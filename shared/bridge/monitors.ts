// monitors:… — the Overview: every monitor's row, adding and editing monitors, checking now, muting
// notifications and a test notification.
import { z } from 'zod';
import { MAX_HEALTH_INTERVAL_MS, MIN_HEALTH_INTERVAL_MS } from '../health';
import type { Incident, IncidentName } from '../incident';
import type {
  MonitorNotification,
  MonitorView,
  PublishedStatusPage,
  TestNotificationResult,
} from '../monitor';
import { id, none, returns, text, type DomainCalls } from './schemas';

const address = z.email('An email address such as ops@example.com.').max(320);
/** A channel added in the app's form: what is a credential goes to the keychain, never the file. */
const newChannel = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('webhook'), url: text(2000), format: z.enum(['json', 'slack']) }),
  z.strictObject({ kind: z.literal('teams'), url: text(2000) }),
  z.strictObject({ kind: z.literal('discord'), url: text(2000) }),
  z.strictObject({ kind: z.literal('pagerduty'), routingKey: z.string().min(1).max(200) }),
  z.strictObject({
    kind: z.literal('email'),
    host: z.string().min(1).max(253),
    port: z.number().int().min(1).max(65_535).optional(),
    tls: z.enum(['starttls', 'tls']).optional(),
    user: z.string().min(1).max(200).optional(),
    password: z.string().min(1).max(500).optional(),
    from: address,
    to: z.array(address).min(1).max(20),
  }),
]);
export type NewChannel = z.output<typeof newChannel>;

const monitorInput = z.strictObject({
  name: text(100),
  profileId: id,
  healthEveryS: z
    .number()
    .int()
    .min(MIN_HEALTH_INTERVAL_MS / 1000)
    .max(MAX_HEALTH_INTERVAL_MS / 1000)
    .optional(),
  synthetic: z
    .strictObject({
      everyMinutes: z.number().int().min(1).max(1440),
      agents: z.array(text(200)).max(20),
      /** One message and its assertions (YAML list, as in a suite file)… */
      message: text(100_000).optional(),
      stream: z.boolean().optional(),
      assertYaml: text(20_000).optional(),
      /** …or a suite file and some of its cases. */
      suite: text(4096).optional(),
      cases: z.array(text(500)).max(100).optional(),
    })
    .optional(),
  desktop: z.boolean().optional(),
  muted: z.boolean().optional(),
  /** On the status page (names and words only; the file can say more, README "Status page"). */
  public: z.boolean().optional(),
  /** Maintenance windows: a YAML list as in the monitors file. */
  maintenanceYaml: text(20_000).optional(),
  webhooks: z.array(newChannel).max(10).optional(),
});

export const MONITORS_CALLS = {
  /** Every monitor: the saved ones and the active profile's own poll, as the Overview shows them. */
  'monitors:list': { input: none, output: returns<MonitorView[]>() },
  'monitors:add': { input: monitorInput, output: returns<MonitorView>() },
  /** `keepWebhooks`: the ids of the channels to keep; new ones come in `webhooks` with their secrets. */
  'monitors:update': {
    input: monitorInput.extend({ id, keepWebhooks: z.array(id).max(20).default([]) }),
    output: returns<MonitorView>(),
  },
  'monitors:remove': { input: z.strictObject({ id }), output: returns<{ removed: string }>() },
  /** Checks now: the health poll, and the synthetic check when the monitor has one. */
  'monitors:check': { input: z.strictObject({ id }), output: returns<MonitorView>() },
  /** Desktop and browser notifications muted (or not) in the app, for every monitor. */
  'monitors:muted': { input: none, output: returns<{ muted: boolean }>() },
  'monitors:mute': { input: z.strictObject({ muted: z.boolean() }), output: returns<{ muted: boolean }>() },
  'monitors:testNotify': { input: z.strictObject({ id }), output: returns<TestNotificationResult>() },
  /** The saved monitors' incidents, newest first: one monitor's, or every one's; open ones only, or all. */
  'monitors:incidents': {
    input: z.strictObject({ monitorId: id.optional(), open: z.boolean().optional() }),
    output: returns<Incident[]>(),
  },
  /** Acknowledged under the name in settings, else the OS user's: re-notifying stops. */
  'monitors:acknowledge': { input: z.strictObject({ id }), output: returns<Incident>() },
  'monitors:addUpdate': {
    input: z.strictObject({ id, text: text(2000) }),
    output: returns<Incident>(),
  },
  'monitors:resolve': { input: z.strictObject({ id }), output: returns<Incident>() },
  /** The name incidents are acknowledged under (Settings), and the OS user's it defaults to. */
  'monitors:incidentName': { input: none, output: returns<IncidentName>() },
  /** Blank goes back to the OS user's name. */
  'monitors:setIncidentName': {
    input: z.strictObject({
      name: z
        .string()
        .max(100, 'At most 100 characters.')
        .regex(/^[^\p{Cc}]*$/u, 'A name on one line, without control characters.'),
    }),
    output: returns<IncidentName>(),
  },
  /**
   * "Publish status page…": index.html and status.json of the monitors on the status page, into a
   * folder typed (the web host, inside the home folder) or, without one, chosen in the desktop's
   * dialog. Null when the dialog was cancelled.
   */
  'monitors:publishStatusPage': {
    input: z.strictObject({ path: text(4096).optional() }),
    output: returns<PublishedStatusPage | null>(),
  },
} as const satisfies DomainCalls<'monitors'>;

export interface MonitorsEvents {
  /** The Overview's rows, after any monitor checked or changed (at most a few times a second). */
  'monitors:changed': MonitorView[];
  /** A confirmed change (or a test) to tell the person: the desktop app and the browser show it. */
  'monitors:notify': MonitorNotification;
}
