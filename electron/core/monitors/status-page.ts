// The public status page: for the monitors a file marks `public`, what their users may be told —
// each one's status now, a bar of its last 90 days (one cell a day, coloured by its worst status,
// its availability on hover), the open incidents with the updates people posted, and the
// maintenance ahead. Names and words only: no base URL, key, agent or error detail unless the
// monitor says `public: { show-errors: true }` (README "Status page"). It is built as data
// (status.json) and rendered by status-page-html.ts; status-page-files.ts writes both.
import type { Incident } from '../../../shared/incident';
import type { MaintenanceView, WatchStatus } from '../../../shared/monitor';
import { BY_MONITOR } from './incident-log';
import type { DaySummary } from './minute-history';
import { publicOf, type MonitorConfig } from './monitor-config';
import { cutDecimals, whenUtc } from './sla-report';

export const STATUS_DAYS = 90;

/** What a user of the service is told of a status: the words status pages use. */
export type PublicLevel =
  'operational' | 'degraded' | 'partial-outage' | 'outage' | 'maintenance' | 'no-data';

export const PUBLIC_WORDS: Record<PublicLevel, string> = {
  operational: 'Operational',
  degraded: 'Degraded performance',
  'partial-outage': 'Partial outage',
  outage: 'Major outage',
  maintenance: 'Under maintenance',
  'no-data': 'No data',
};

/** Worse is larger: the page's headline follows its worst monitor. */
const LEVEL_ORDER: readonly PublicLevel[] = [
  'no-data',
  'operational',
  'maintenance',
  'degraded',
  'partial-outage',
  'outage',
];

/**
 * A rejected key says nothing of the service (availability leaves it out too), and an agent that
 * answers wrongly is part of the service down, not all of it.
 */
function publicLevel(status: WatchStatus | undefined): PublicLevel {
  switch (status) {
    case 'healthy':
      return 'operational';
    case 'degraded':
    case 'slow':
      return 'degraded';
    case 'synthetic-failing':
      return 'partial-outage';
    case 'unhealthy':
    case 'unreachable':
      return 'outage';
    case 'maintenance':
      return 'maintenance';
    default:
      return 'no-data';
  }
}

export interface StatusDay {
  /** YYYY-MM-DD, UTC. */
  date: string;
  level: PublicLevel;
  /** Percent of up minutes over up and down minutes, two decimals cut; null when none was seen. */
  availability: number | null;
}

interface StatusMonitor {
  name: string;
  level: PublicLevel;
  words: string;
  /** Since when (ISO) the status holds. */
  since?: string;
  /** Over the 90 days, as each day's. */
  availability: number | null;
  days: StatusDay[];
  /** What fails now, in words: only with `show-errors`. */
  failing?: string[];
}

interface StatusIncident {
  monitor: string;
  level: PublicLevel;
  words: string;
  startedAt: string;
  acknowledged: boolean;
  /** The first failure in words: only with `show-errors`. */
  firstFailure?: string;
  /** Oldest first; the monitor's own notes only with `show-errors`. */
  updates: { at: string; text: string }[];
}

interface StatusMaintenance {
  monitor: string;
  name?: string;
  from: string;
  to: string;
  underWay: boolean;
}

/** status.json, and what the HTML page is rendered from. */
export interface StatusPage {
  title: string;
  generatedAt: string;
  level: PublicLevel;
  words: string;
  monitors: StatusMonitor[];
  incidents: StatusIncident[];
  maintenance: StatusMaintenance[];
}

/** One monitor as the page is built from it (status-page-files.ts gathers them from the registry). */
export interface StatusSource {
  config: Pick<MonitorConfig, 'name' | 'public'>;
  status: WatchStatus;
  since?: number;
  days: readonly DaySummary[];
  maintenance: { active?: MaintenanceView; next?: MaintenanceView };
  failing: readonly string[];
  incidents: readonly Incident[];
}

const iso = (ms: number): string => new Date(ms).toISOString();

function availabilityOf(up: number, down: number): number | null {
  return up + down === 0 ? null : Number(cutDecimals((up / (up + down)) * 100, 2));
}

function dayOf(day: DaySummary): StatusDay {
  return {
    date: iso(day.day).slice(0, 10),
    level: publicLevel(day.worst),
    availability: availabilityOf(day.up, day.down),
  };
}

function incidentOf(incident: Incident, showErrors: boolean): StatusIncident {
  const level = publicLevel(incident.status);
  return {
    monitor: incident.monitorName,
    level,
    words: PUBLIC_WORDS[level],
    startedAt: iso(incident.startedAt),
    acknowledged: incident.acknowledged !== undefined,
    ...(showErrors ? { firstFailure: incident.firstFailure } : {}),
    updates: incident.updates
      .filter((u) => showErrors || u.by !== BY_MONITOR)
      .map((u) => ({ at: iso(u.at), text: u.text })),
  };
}

export function statusPage(
  sources: readonly StatusSource[],
  now: number,
  title = 'Service status',
): StatusPage {
  const shown = sources.flatMap((source) => {
    const wanted = publicOf(source.config);
    return wanted ? [{ source, showErrors: wanted.showErrors }] : [];
  });
  const monitors = shown.map(({ source, showErrors }): StatusMonitor => {
    const level = publicLevel(source.status);
    const up = source.days.reduce((sum, d) => sum + d.up, 0);
    const down = source.days.reduce((sum, d) => sum + d.down, 0);
    return {
      name: source.config.name,
      level,
      words: PUBLIC_WORDS[level],
      ...(source.since !== undefined ? { since: iso(source.since) } : {}),
      availability: availabilityOf(up, down),
      days: source.days.map(dayOf),
      ...(showErrors && source.failing.length > 0 ? { failing: [...source.failing] } : {}),
    };
  });
  const worst = monitors.reduce<PublicLevel>(
    (w, m) => (LEVEL_ORDER.indexOf(m.level) > LEVEL_ORDER.indexOf(w) ? m.level : w),
    'no-data',
  );
  return {
    title,
    generatedAt: iso(now),
    level: worst,
    words: headline(worst, monitors.length),
    monitors,
    incidents: shown.flatMap(({ source, showErrors }) =>
      source.incidents.filter((i) => i.resolved === undefined).map((i) => incidentOf(i, showErrors)),
    ),
    maintenance: shown.flatMap(({ source }) =>
      [source.maintenance.active, source.maintenance.next].flatMap((w) =>
        w && w.to > now
          ? [
              {
                monitor: source.config.name,
                ...(w.name ? { name: w.name } : {}),
                from: iso(w.from),
                to: iso(w.to),
                underWay: w.from <= now,
              },
            ]
          : [],
      ),
    ),
  };
}

function headline(worst: PublicLevel, count: number): string {
  if (count === 0) return 'Nothing is published on this page yet.';
  switch (worst) {
    case 'operational':
      return 'All systems operational';
    case 'no-data':
      return 'Waiting for the first checks';
    default:
      return PUBLIC_WORDS[worst];
  }
}

/** "2026-11-28 10:00 UTC", as the SLA report writes times (to the minute). */
export function pageTime(isoText: string): string {
  const ms = Date.parse(isoText);
  return whenUtc(ms - (ms % 60_000));
}
