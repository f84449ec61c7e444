// What the health monitor (electron/core/health-monitor.ts) tells the rest of the console: its
// statuses, samples, timeline and the words of its notifications. Pure TypeScript, so the core,
// the shell (tray, Electron notifications) and the renderer share one vocabulary.
import type { ReceivedHealthReport as HealthReport } from './received';

/** The spec suggests polling GET /health every 60 s (§4); below 10 s the poller would eat the key's budget. */
export const DEFAULT_HEALTH_INTERVAL_MS = 60_000;
export const MIN_HEALTH_INTERVAL_MS = 10_000;
export const MAX_HEALTH_INTERVAL_MS = 24 * 60 * 60_000;
/**
 * How long a health check (the monitor's or a connection test) answers "Connected?" for the header:
 * within it, a window opening says what the last check found rather than asking again.
 */
export const HEALTH_SAMPLE_FRESH_MS = 60_000;
/** 7 days at the default interval (docs/performance.md: bounded, so memory and disk stay flat). */
export const HEALTH_HISTORY_CAPACITY = 10_080;

/**
 * The service's three statuses (spec §3), plus what this client can tell apart when no report
 * arrives: no answer at all, an answer refusing the key, or nothing known yet.
 */
export const MONITOR_STATUSES = [
  'unknown',
  'healthy',
  'degraded',
  'unhealthy',
  'unreachable',
  'key-rejected',
] as const;
export type MonitorStatus = (typeof MONITOR_STATUSES)[number];

export const STATUS_WORDS: Record<MonitorStatus, string> = {
  unknown: 'Unknown',
  healthy: 'Healthy',
  degraded: 'Degraded',
  unhealthy: 'Unhealthy',
  unreachable: 'Unreachable',
  'key-rejected': 'Key rejected',
};

/** Worse is larger: a timeline bucket shows its worst sample. */
export const STATUS_SEVERITY: Record<MonitorStatus, number> = {
  unknown: 0,
  healthy: 1,
  'key-rejected': 2,
  degraded: 3,
  unhealthy: 4,
  unreachable: 5,
};

/** Counted as "up" in uptime %: the spec calls a degraded system functional (§3). */
export const UP_STATUSES: ReadonlySet<MonitorStatus> = new Set(['healthy', 'degraded']);
/** Counted as "down"; key-rejected and unknown say nothing about the service and are left out. */
export const DOWN_STATUSES: ReadonlySet<MonitorStatus> = new Set(['unhealthy', 'unreachable']);
/** What a usage chart draws as an incident band. */
export const INCIDENT_STATUSES: ReadonlySet<MonitorStatus> = new Set([
  'degraded',
  'unhealthy',
  'unreachable',
]);

export interface HealthSample {
  /** Epoch ms (the core's clock) when the answer, or the failure, arrived. */
  at: number;
  profileId: string;
  status: MonitorStatus;
  /** Round trip of the request that answered; time queued in the rate limiter is not included. */
  responseMs?: number;
  uptimeS?: number;
  version?: string;
  /** Components that were not `operational` (all others were); absent when no report arrived. */
  components?: Record<string, string>;
  httpStatus?: number;
  errorCode?: string;
  /** Asked for by a person ("Check now"), not the schedule. */
  manual?: boolean;
  /** How long after it was due the request went out (it waited for the key's rate limit), ms. */
  lateMs?: number;
  /** The implied start time (timestamp − uptime) moved later than the previous report's: a restart. */
  restart?: boolean;
  /** The version differs from the previous report's: a deploy. */
  deploy?: { from: string; to: string };
  /** The confirmed (debounced) status changed with this sample. */
  transition?: { from: MonitorStatus; to: MonitorStatus };
}

export interface HealthMonitorState {
  running: boolean;
  intervalMs: number;
  /** Polls in a row a new status must hold before it is confirmed (notifications, tray). */
  confirmPolls: number;
  profileId?: string;
  profileName?: string;
  /** The latest sample of the active profile. */
  last?: HealthSample;
  /** The latest full report of the active profile (every component, as the service sent them). */
  lastReport?: HealthReport;
  /** The message of the latest failure, when the latest sample is one. */
  lastError?: string;
  /** The debounced status: what notifications and the tray follow. */
  confirmed: MonitorStatus;
  confirmedSince?: number;
  checking: boolean;
  /** While a check is under way: when it began (it may be waiting for the key's rate limit). */
  checkingSince?: number;
  nextCheckAt?: number;
  /** Why nothing is polled (no active profile, a profile without its key). */
  idleReason?: string;
  /** A history file that could not be read, and where it was set aside. */
  warning?: string;
}

interface HealthTransition {
  from: MonitorStatus;
  to: MonitorStatus;
  at: number;
  /** False only for the uninteresting first "healthy" after a start or a profile switch. */
  notify: boolean;
  title: string;
  body: string;
}

/** The `health:update` event: after every check, with the transition when one was confirmed. */
export interface HealthUpdate {
  state: HealthMonitorState;
  sample?: HealthSample;
  transition?: HealthTransition;
}

export const HEALTH_RANGES = { '1h': 3_600_000, '24h': 86_400_000, '7d': 604_800_000 } as const;
export type HealthRange = keyof typeof HEALTH_RANGES;

export interface HealthTimelinePoint {
  /** Start of the bucket (epoch ms). */
  at: number;
  /** The worst status in the bucket. */
  status: MonitorStatus;
  /** Mean and max round trip of the bucket's answered checks. */
  responseMs?: number;
  maxResponseMs?: number;
  samples: number;
}

export interface HealthMark {
  at: number;
  /** `flip`: a status that held for fewer checks than confirmation needs, then went back. */
  kind: 'transition' | 'flip' | 'restart' | 'deploy';
  label: string;
  to?: MonitorStatus;
}

export interface UptimeFigure {
  range: HealthRange;
  /** Up time over known time, 0–100; null when nothing is known of the window. */
  percent: number | null;
  /** How much of the window the history covers (known up + down time). */
  coveredMs: number;
  windowMs: number;
}

export interface HealthTimeline {
  range: HealthRange;
  from: number;
  to: number;
  /** 0 when every check is its own point; else the width of the buckets points stand for. */
  bucketMs: number;
  points: HealthTimelinePoint[];
  /** Newest last; only the newest 200 when there are more. */
  marks: HealthMark[];
  uptime: UptimeFigure[];
}

export interface HealthIncident {
  start: number;
  end: number;
  worst: MonitorStatus;
  ongoing: boolean;
}

export type TrayColour = 'healthy' | 'degraded' | 'unhealthy' | 'unknown';

/** Tray colours: an unreachable service is red for its user; a rejected key says nothing of the service. */
export function trayColourOf(status: MonitorStatus): TrayColour {
  switch (status) {
    case 'healthy':
    case 'degraded':
    case 'unhealthy':
      return status;
    case 'unreachable':
      return 'unhealthy';
    default:
      return 'unknown';
  }
}

/** "agents down, gateway degraded": the components a report shows as not operational. */
export function describeComponents(components: Record<string, string> | undefined): string {
  const bad = Object.entries(components ?? {}).filter(([, v]) => v !== 'operational');
  return bad.map(([name, value]) => `${name} ${value}`).join(', ');
}

/** The words of a transition's notification, the same in Electron and in the browser. */
export function describeTransition(
  from: MonitorStatus,
  to: MonitorStatus,
  context: { profileName?: string; sample?: HealthSample; error?: string },
): { title: string; body: string } {
  const where = context.profileName ? `${context.profileName}: ` : '';
  const was = from === 'unknown' ? '' : ` (was ${STATUS_WORDS[from].toLowerCase()})`;
  switch (to) {
    case 'healthy':
      return {
        title: from === 'unknown' ? 'Service healthy' : 'Service healthy again',
        body: `${where}all components operational${was}.`,
      };
    case 'degraded':
    case 'unhealthy':
      return {
        title: `Service ${to}`,
        body: `${where}${describeComponents(context.sample?.components) || 'see the Health screen'}${was}.`,
      };
    case 'unreachable':
      return { title: 'Service unreachable', body: `${where}${context.error ?? 'no answer'}${was}.` };
    case 'key-rejected':
      return {
        title: 'API key rejected',
        body: `${where}the service refused the key (HTTP ${context.sample?.httpStatus ?? '?'} ${context.sample?.errorCode ?? ''})${was}.`,
      };
    default:
      // A failure that never reached the service (the keychain not giving the key) says why.
      return {
        title: 'Service status unknown',
        body: `${where}${context.error ?? 'the last check gave no answer'}${was}.`,
      };
  }
}
