// Every query key of the renderer, from one factory. Keys are hierarchies: everything a profile's
// service told us starts with its domain and the profile id, so one prefix reaches every cached
// shape of it (a page, every page, a filter) — invalidating agents of a profile reaches the
// browsers' pages and the playground's picker alike. Local data (keys, profiles, the monitor, the
// embedded mock) has its own roots.
import type { HealthRange } from '../../shared/health';
import type { TranscriptKind } from '../../shared/transcript';

/** A profile's place in a key: its id, or "none" while no profile is active. */
type ProfileKey = string | undefined;
const p = (profile: ProfileKey): string => profile ?? 'none';

export const queryKeys = {
  appInfo: () => ['app-info'] as const,
  updates: () => ['updates'] as const,
  keys: () => ['keys'] as const,
  profiles: () => ['profiles'] as const,
  /** The result of "Test connection" (a GET /health) per profile. */
  connection: (profile: ProfileKey) => ['connection', p(profile)] as const,
  connections: () => ['connection'] as const,

  agents: {
    /** Every cached shape of a profile's agents. */
    of: (profile: ProfileKey) => ['agents', p(profile)] as const,
    page: (profile: ProfileKey, limit: number, offset: number) =>
      ['agents', p(profile), 'page', { limit, offset }] as const,
    /** Every agent, page after page: the pickers, lookups and replay targets. */
    all: (profile: ProfileKey) => ['agents', p(profile), 'all'] as const,
    /** Every profile's agents (the mock changed an agent). */
    root: () => ['agents'] as const,
  },
  conversations: {
    /** Every profile's conversations (the mock was reset). */
    root: () => ['conversations'] as const,
    of: (profile: ProfileKey) => ['conversations', p(profile)] as const,
    page: (profile: ProfileKey, agent: string | undefined, limit: number, offset: number) =>
      ['conversations', p(profile), 'page', { agent: agent ?? null, limit, offset }] as const,
    all: (profile: ProfileKey, agent: string | undefined) =>
      ['conversations', p(profile), 'all', { agent: agent ?? null }] as const,
  },
  threads: {
    root: () => ['threads'] as const,
    of: (profile: ProfileKey) => ['threads', p(profile)] as const,
  },
  /** What this console recorded (on disk, not behind the limiter). */
  transcripts: {
    /** Every profile's records. */
    root: () => ['transcripts'] as const,
    of: (profile: ProfileKey) => ['transcripts', p(profile)] as const,
    list: (profile: ProfileKey, kind: TranscriptKind) => ['transcripts', p(profile), kind] as const,
    one: (profile: ProfileKey, kind: TranscriptKind, id: string) =>
      ['transcripts', p(profile), kind, 'one', id] as const,
  },
  /** Reviews of the recorded history (on disk); the labels are the whole console's. */
  reviews: {
    root: () => ['reviews'] as const,
    labels: () => ['reviews', 'labels'] as const,
    of: (profile: ProfileKey, kind: TranscriptKind, id: string) => ['reviews', p(profile), kind, id] as const,
    queue: (profile: ProfileKey, query: object) => ['reviews', p(profile), 'queue', query] as const,
  },
  usage: (profile: ProfileKey, days: number) => ['usage', p(profile), days] as const,

  health: {
    /** Every monitor's state. */
    states: () => ['health', 'state'] as const,
    /** A monitor's (drill-down), or the active profile's ("active"). */
    state: (monitorId?: string) => ['health', 'state', monitorId ?? 'active'] as const,
    timelines: () => ['health', 'timeline'] as const,
    timeline: (range: HealthRange, monitorId?: string) =>
      ['health', 'timeline', monitorId ?? 'active', range] as const,
    incidents: () => ['health', 'incidents'] as const,
    incidentsIn: (profile: ProfileKey, from: string | undefined, days: number | undefined) =>
      ['health', 'incidents', p(profile), from ?? null, days ?? null] as const,
  },
  monitors: () => ['monitors'] as const,
  /** The saved monitors' incidents (people's, kept by the core), one monitor's or all. */
  incidents: {
    root: () => ['incidents'] as const,
    of: (monitorId: string | undefined) => ['incidents', monitorId ?? 'all'] as const,
  },
  /** The kept suite runs (`latest`: the newest finished run this window saw, so a new one refetches). */
  runHistory: (latest: string) => ['run-history', latest] as const,
  runDiff: (base: string, head: string) => ['run-diff', base, head] as const,
  runCalibration: (runId: string) => ['run-calibration', runId] as const,
  /** The request log's entries read whole (the live rows are in stores/live.ts). */
  log: {
    root: () => ['log'] as const,
    entry: (id: string) => ['log', 'entry', id] as const,
    search: (text: string, newestId: string) => ['log', 'search', text, newestId] as const,
  },
  /** Notifications muted for every monitor (a core setting, so the CLI and the app agree). */
  notificationsMuted: () => ['notifications-muted'] as const,
  /** The name incidents are acknowledged under (Settings). */
  incidentName: () => ['incident-name'] as const,
  mock: {
    state: () => ['mock', 'state'] as const,
    fixtures: () => ['mock', 'fixtures'] as const,
    requests: () => ['mock', 'requests'] as const,
  },
};
