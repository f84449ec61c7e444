// Monitors: what the core tells the Overview screen, the tray, the notifications and
// the headless `agent-console monitor` about every environment it watches. Pure TypeScript, so
// the core, the shell and the renderer share one vocabulary.
import type { HealthMonitorState, MonitorStatus } from './health';
import type { Incident } from './incident';
import type { WatchStatus } from './watch-status';
import { STATUS_SEVERITY, STATUS_WORDS } from './health';

export type { WatchStatus };

export const WATCH_WORDS: Record<WatchStatus, string> = {
  ...STATUS_WORDS,
  'synthetic-failing': 'Synthetic check failing',
  slow: 'Degraded (slow)',
  maintenance: 'Maintenance',
};

/** Worse is larger: the tray, the window title and the headless summary follow the worst monitor. */
export const WATCH_SEVERITY: Record<WatchStatus, number> = {
  ...STATUS_SEVERITY,
  // The service says it is up, but an agent does not answer as it should: worse than degraded.
  'synthetic-failing': STATUS_SEVERITY.degraded + 0.5,
  // Answering, and right, but slower than its budget: short of the service's own "degraded".
  slow: STATUS_SEVERITY.degraded - 0.5,
  // Planned: nobody is told, so it alarms no more than a healthy service.
  maintenance: STATUS_SEVERITY.healthy - 0.5,
};

/**
 * The tray's vocabulary: a failing synthetic check or a slow one shows as degraded (the service is
 * up, an agent is not right); maintenance as unknown (nobody vouches for the service meanwhile).
 */
export function watchTrayStatus(status: WatchStatus): MonitorStatus {
  if (status === 'maintenance') return 'unknown';
  return status === 'synthetic-failing' || status === 'slow' ? 'degraded' : status;
}

/** "Publish status page…": where the page went, and how many monitors it shows. */
export interface PublishedStatusPage {
  folder: string;
  /** index.html and status.json, full paths. */
  files: string[];
  monitors: number;
}

/** A maintenance window as it falls: epoch ms, and its name if the file gives one. */
export interface MaintenanceView {
  from: number;
  to: number;
  name?: string;
}

/** A latency budget of a monitor: a p95 over its newest runs, or over its newest health polls. */
export type BudgetName = 'ttft-p95' | 'total-p95' | 'health-response';

export const BUDGET_WORDS: Record<BudgetName, string> = {
  'ttft-p95': 'TTFT p95',
  'total-p95': 'Total time p95',
  'health-response': 'Health response p95',
};

export interface BudgetView {
  name: BudgetName;
  limitMs: number;
  /** Runs (or polls) the p95 is taken over. */
  window: number;
  /** The p95 now; absent before the first run. */
  observedMs?: number;
  over: boolean;
}

export function worstStatus(statuses: readonly WatchStatus[]): WatchStatus {
  let worst: WatchStatus = 'unknown';
  for (const status of statuses) if (WATCH_SEVERITY[status] > WATCH_SEVERITY[worst]) worst = status;
  return worst;
}

/** One run of a synthetic check against one agent. */
export interface SyntheticResult {
  /** Epoch ms when the check was due. */
  at: number;
  agent: string;
  /** The case's name. */
  check: string;
  passed: boolean;
  ttftMs?: number;
  totalMs?: number;
  /** The first failed assertion or error, in words. */
  failure?: string;
  /** How long the check waited (for the key's rate limit) after it was due. */
  lateMs?: number;
}

export interface Percentile {
  p50: number;
  p95: number;
  samples: number;
}

/** How a monitor's channels are told (README, "Channels"). */
export type ChannelKind = 'webhook' | 'teams' | 'discord' | 'pagerduty' | 'email';

export const CHANNEL_WORDS: Record<ChannelKind, string> = {
  webhook: 'Webhook',
  teams: 'Microsoft Teams',
  discord: 'Discord',
  pagerduty: 'PagerDuty',
  email: 'Email',
};

/** A channel as it may be shown: never a credential. */
interface WebhookView {
  id: string;
  kind: ChannelKind;
  /** A webhook's payload. */
  format?: 'json' | 'slack';
  /** Scheme and host of a URL (a webhook URL is a credential: Slack's are), or an email's server and recipients. */
  target: string;
}

interface MonitorSettingsView {
  name: string;
  profileId: string;
  healthEveryMs: number;
  synthetic?: {
    everyMs: number;
    agents: string[];
    /** A suite file and the cases of it to run, or one message with its assertions. */
    suite?: string;
    cases?: string[];
    message?: string;
    stream: boolean;
    /** The assertions as YAML text (what the user wrote). */
    assertYaml?: string;
  };
  desktop: boolean;
  muted: boolean;
  /** On the status page. */
  public: boolean;
  webhooks: WebhookView[];
  /** Its maintenance windows as YAML (the file's list), for the form. */
  maintenanceYaml?: string;
}

export interface MonitorView {
  id: string;
  name: string;
  profileId: string;
  profileName: string;
  /** The active profile's own monitor, kept while no saved monitor watches that profile. */
  implicit: boolean;
  status: WatchStatus;
  /** Since when the status holds (confirmed). */
  since?: number;
  health: Pick<
    HealthMonitorState,
    'confirmed' | 'intervalMs' | 'checking' | 'nextCheckAt' | 'idleReason' | 'lastError'
  > & {
    lastCheckAt?: number;
    lastResponseMs?: number;
    /** How late the newest poll went out after it was due (the key was busy), ms. */
    lastLateMs?: number;
    /** Since when the poll under way has waited, while it waits. */
    waitingSince?: number;
  };
  uptime: { '24h': number | null; '7d': number | null };
  /** Response times of the newest polls, oldest first (the sparkline). */
  responseMs: number[];
  synthetic?: {
    everyMs: number;
    agents: string[];
    last?: SyntheticResult[];
    lastAt?: number;
    nextAt?: number;
    failing: boolean;
    /** Over the last 24 h. */
    ttft24h?: Percentile;
    passed24h: { passed: number; runs: number };
  };
  /** The maintenance window under way, and the next one to begin. */
  maintenance?: { active?: MaintenanceView; next?: MaintenanceView };
  /** Its open incident, if any (saved monitors only). */
  incident?: Incident;
  /** Its latency budgets, as they stand. */
  budgets?: BudgetView[];
  settings: MonitorSettingsView;
}

/** The words of a notification, and where it came from. */
export interface MonitorNotification {
  monitorId: string;
  monitorName: string;
  from: WatchStatus;
  to: WatchStatus;
  at: number;
  title: string;
  body: string;
  /** Desktop notifications asked for (the monitor's setting, not muted). */
  desktop: boolean;
  /** A test from the "Send test notification" button. */
  test?: boolean;
  /** The incident the change opened, noted or resolved. */
  incidentId?: string;
  /** The how-manieth re-notification of an incident nobody has acknowledged. */
  escalation?: number;
}

/**
 * What a test notification reached: `desktop` when one was raised for the desktop (whether the
 * window can show it is the window's to say: a browser may block it), `webhooks` delivered, and why
 * others were not.
 */
export interface TestNotificationResult {
  desktop: boolean;
  webhooks: number;
  failures: string[];
}
