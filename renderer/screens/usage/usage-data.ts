// What the Usage screen computes from one usage report: totals, the tables behind each chart, and
// the CSV files. Pure functions, so the numbers in a chart, its table and its CSV are the same.
import type { ReceivedUsageReport as UsageReport } from '../../../shared/received';
import type { HealthIncident } from '../../../shared/health';
import { STATUS_WORDS } from '../../../shared/health';
import type { TableData } from '../../components/chart-card';
import { csvText } from '../../components/csv';

export type Usage = UsageReport['usage'];

/** Spec §4: days is 1–90, default 30. */
export const MIN_DAYS = 1;
export const MAX_DAYS = 90;
export const DEFAULT_DAYS = 30;
export const DAY_MS = 86_400_000;

export const numberFormat = new Intl.NumberFormat('en-US');
export const compactFormat = new Intl.NumberFormat('en-US', {
  notation: 'compact',
  maximumFractionDigits: 1,
});

/** A whole number of days in range, or undefined for anything else typed. */
export function parseDays(text: string): number | undefined {
  if (!/^\d{1,3}$/.test(text.trim())) return undefined;
  const days = Number(text);
  return days >= MIN_DAYS && days <= MAX_DAYS ? days : undefined;
}

/** The service's dates are UTC calendar dates (spec §2); shown as "Jan 15" in UTC so a day stays that day. */
export function shortDate(date: string): string {
  return new Date(`${date}T00:00:00Z`).toLocaleDateString('en-US', {
    month: 'short',
    day: 'numeric',
    timeZone: 'UTC',
  });
}

export interface UsageSummary {
  totalRequests: number;
  totalTokens: number;
  /** Weighted by each day's requests; null when no request was made. */
  avgLatencyMs: number | null;
  busiest: { date: string; requests: number } | undefined;
  activeDays: number;
}

export function summarise(usage: Usage): UsageSummary {
  let weighted = 0;
  let counted = 0;
  let busiest: UsageSummary['busiest'];
  for (const day of usage.daily) {
    if (day.requests > 0) {
      weighted += day.avg_latency_ms * day.requests;
      counted += day.requests;
    }
    if (!busiest || day.requests > busiest.requests) busiest = { date: day.date, requests: day.requests };
  }
  return {
    totalRequests: usage.total_requests,
    totalTokens: usage.total_tokens,
    avgLatencyMs: counted > 0 ? Math.round(weighted / counted) : null,
    busiest: busiest && busiest.requests > 0 ? busiest : undefined,
    activeDays: usage.daily.filter((d) => d.requests > 0).length,
  };
}

function time(ms: number): string {
  return new Date(ms).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

/** Incidents that touch a UTC date, in words. */
function incidentsOn(date: string, incidents: HealthIncident[]): string {
  const start = Date.parse(`${date}T00:00:00Z`);
  return incidents
    .filter((i) => i.start < start + DAY_MS && i.end >= start)
    .map((i) => `${STATUS_WORDS[i.worst]} ${time(i.start)} – ${i.ongoing ? 'now' : time(i.end)}`)
    .join('; ');
}

export function requestsTable(usage: Usage): TableData {
  return {
    caption: 'Requests per day (UTC dates)',
    columns: ['Date', 'Requests'],
    rows: usage.daily.map((d) => [d.date, d.requests]),
  };
}

export function tokensTable(usage: Usage): TableData {
  return {
    caption: 'Tokens per day (UTC dates)',
    columns: ['Date', 'Tokens'],
    rows: usage.daily.map((d) => [d.date, d.tokens]),
  };
}

export function latencyTable(usage: Usage, incidents: HealthIncident[]): TableData {
  return {
    caption: 'Average latency per day, with health incidents seen by this console’s monitor',
    columns: ['Date', 'Average latency (ms)', 'Health incidents'],
    rows: usage.daily.map((d) => [
      d.date,
      d.requests > 0 ? d.avg_latency_ms : '—',
      incidentsOn(d.date, incidents),
    ]),
  };
}

export function agentsTable(usage: Usage): TableData {
  const total = usage.by_agent.reduce((n, a) => n + a.requests, 0);
  return {
    caption: 'Requests and tokens by agent over the period',
    columns: ['Agent', 'Requests', 'Share of requests', 'Tokens'],
    rows: usage.by_agent.map((a) => [
      a.agent,
      a.requests,
      total > 0 ? `${((a.requests / total) * 100).toFixed(1)}%` : '—',
      a.tokens,
    ]),
  };
}

export function dailyCsv(usage: Usage): string {
  return csvText(
    ['date', 'requests', 'tokens', 'avg_latency_ms'],
    usage.daily.map((d) => [d.date, d.requests, d.tokens, d.avg_latency_ms]),
  );
}

export function agentsCsv(usage: Usage): string {
  return csvText(
    ['agent', 'requests', 'tokens'],
    usage.by_agent.map((a) => [a.agent, a.requests, a.tokens]),
  );
}

/** `usage-daily-2026-01-01-to-2026-01-30.csv` */
export function csvName(kind: 'daily' | 'by-agent', usage: Usage): string {
  const first = usage.daily[0]?.date ?? usage.period_start.slice(0, 10);
  const last = usage.daily.at(-1)?.date ?? usage.period_end.slice(0, 10);
  return `usage-${kind}-${first}-to-${last}.csv`;
}
