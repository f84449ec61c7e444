// Availability against a target over a period, from a monitor's minute rollups: up and down
// minutes (maintenance and minutes nobody checked left out), availability with the decimals asked
// for — cut, never rounded up, so 99.9996 % is not shown as 100 % —, the error budget the target
// allows, what is left of it, and the burn rate; the incidents and maintenance in the period. Then
// the monthly report: CSV, and a self-contained HTML page people print to PDF (README "SLA
// reports").
import type { Incident } from '../../../shared/incident';
import { WATCH_WORDS } from '../../../shared/monitor';
import { csvText } from '../../../shared/csv';
import { escapeHtml } from '../../../shared/html-text';
import { MINUTE, minuteCount, type MinuteRollup } from './minute-history';
import type { MonitorConfig } from './monitor-config';

export interface PeriodFigures {
  monitorId: string;
  monitorName: string;
  from: number;
  to: number;
  upMinutes: number;
  downMinutes: number;
  maintenanceMinutes: number;
  /** Minutes nobody checked, or whose status says nothing of the service (a key rejected). */
  unknownMinutes: number;
  /** Percent of up over up + down; none when neither was seen. */
  availability?: number;
  target?: number;
  /** Down minutes the target allows over the up + down minutes seen. */
  allowedDownMinutes?: number;
  /** Percent of the error budget left (negative once overspent). */
  budgetRemaining?: number;
  /** How fast the budget burns: 1 spends it exactly over the period. */
  burnRate?: number;
  /** The p95 of the minutes' TTFT p95s. */
  ttftP95Ms?: number;
  ttftTargetMs?: number;
  incidents: Incident[];
  /** The maintenance windows in the period, as they fell. */
  maintenance: { from: number; to: number }[];
}

/** Availability, budget and burn from up and down minutes and a target (percent). */
export function budgetFigures(
  up: number,
  down: number,
  target: number | undefined,
): Pick<PeriodFigures, 'availability' | 'allowedDownMinutes' | 'budgetRemaining' | 'burnRate'> {
  const seen = up + down;
  if (seen === 0) return {};
  const availability = (up / seen) * 100;
  if (target === undefined) return { availability };
  const allowedDownMinutes = ((100 - target) / 100) * seen;
  return {
    availability,
    allowedDownMinutes,
    budgetRemaining: (1 - down / allowedDownMinutes) * 100,
    burnRate: down / seen / ((100 - target) / 100),
  };
}

export function periodFigures(
  config: Pick<MonitorConfig, 'id' | 'name' | 'slo'>,
  rollups: readonly MinuteRollup[],
  incidents: readonly Incident[],
  from: number,
  to: number,
): PeriodFigures {
  let up = 0;
  let down = 0;
  let maintenanceMinutes = 0;
  const maintenance: PeriodFigures['maintenance'] = [];
  const ttft: number[] = [];
  for (const r of rollups) {
    if (r.t < from || r.t >= to) continue;
    if (r.f95 !== undefined) ttft.push(r.f95);
    if (r.s === 'maintenance') {
      maintenanceMinutes++;
      const last = maintenance.at(-1);
      if (last && last.to === r.t) last.to = r.t + MINUTE;
      else maintenance.push({ from: r.t, to: r.t + MINUTE });
      continue;
    }
    const count = minuteCount(r.s);
    if (count === 'up') up++;
    else if (count === 'down') down++;
  }
  ttft.sort((a, b) => a - b);
  const ttftP95Ms = ttft.length ? ttft[Math.max(1, Math.ceil(0.95 * ttft.length)) - 1] : undefined;
  const target = config.slo?.availability;
  const ttftTargetMs = config.slo?.['ttft-p95'];
  return {
    monitorId: config.id as string,
    monitorName: config.name,
    from,
    to,
    upMinutes: up,
    downMinutes: down,
    maintenanceMinutes,
    unknownMinutes: Math.round((to - from) / MINUTE) - up - down - maintenanceMinutes,
    ...budgetFigures(up, down, target),
    ...(target !== undefined ? { target } : {}),
    ...(ttftP95Ms !== undefined ? { ttftP95Ms } : {}),
    ...(ttftTargetMs !== undefined ? { ttftTargetMs } : {}),
    incidents: incidents.filter((i) => i.startedAt < to && (i.resolved?.at ?? Infinity) > from),
    maintenance,
  };
}

/** `value` with `decimals` places, cut toward zero (a percentage is never shown better than it is). */
export function cutDecimals(value: number, decimals: number): string {
  const scale = 10 ** decimals;
  // The small nudge keeps 99.9 (stored as 99.89999…) from being cut to 99.8.
  return (Math.trunc(value * scale + 1e-9 * Math.sign(value)) / scale).toFixed(decimals);
}

/** "2026-11" → the month's bounds in UTC. */
export function monthRange(month: string): { from: number; to: number } {
  const match = /^(\d{4})-(0[1-9]|1[0-2])$/.exec(month);
  if (!match) throw new RangeError(`--month takes YYYY-MM, e.g. 2026-11 (got "${month}").`);
  const year = Number(match[1]);
  const index = Number(match[2]) - 1;
  return { from: Date.UTC(year, index, 1), to: Date.UTC(year, index + 1, 1) };
}

const iso = (ms: number) => new Date(ms).toISOString().replace(':00.000Z', 'Z');
const fixed = (v: number | undefined, d: number) => (v === undefined ? '' : cutDecimals(v, d));

export function reportCsv(periods: readonly PeriodFigures[], decimals: number): string {
  return csvText(
    [
      'monitor',
      'from',
      'to',
      'availability_percent',
      'target_percent',
      'met',
      'up_minutes',
      'down_minutes',
      'maintenance_minutes',
      'unknown_minutes',
      'allowed_down_minutes',
      'budget_remaining_percent',
      'burn_rate',
      'ttft_p95_ms',
      'ttft_p95_target_ms',
      'incidents',
    ],
    periods.map((p) => [
      p.monitorName,
      iso(p.from),
      iso(p.to),
      fixed(p.availability, decimals),
      p.target,
      p.availability === undefined || p.target === undefined ? '' : p.availability >= p.target ? 'yes' : 'no',
      p.upMinutes,
      p.downMinutes,
      p.maintenanceMinutes,
      p.unknownMinutes,
      fixed(p.allowedDownMinutes, 1),
      fixed(p.budgetRemaining, 1),
      fixed(p.burnRate, 2),
      p.ttftP95Ms,
      p.ttftTargetMs,
      p.incidents.length,
    ]),
  );
}

/** "2026-11-28 10:00 UTC": how the console's pages write a time. */
export const whenUtc = (ms: number): string => iso(ms).replace('T', ' ').replace('Z', ' UTC');

function monitorSection(p: PeriodFigures, decimals: number): string {
  const met = p.availability !== undefined && p.target !== undefined ? p.availability >= p.target : undefined;
  const rows: [string, string][] = [
    [
      'Availability',
      p.availability === undefined ? 'no checks' : `${cutDecimals(p.availability, decimals)} %`,
    ],
    [
      'Target',
      p.target === undefined
        ? 'none set'
        : `${p.target} %${met === undefined ? '' : met ? ' — met' : ' — missed'}`,
    ],
    ['Downtime', `${p.downMinutes} min`],
    [
      'Error budget',
      p.allowedDownMinutes === undefined
        ? '—'
        : `${fixed(p.allowedDownMinutes, 1)} min allowed, ${fixed(p.budgetRemaining, 1)} % left, burn rate ${fixed(p.burnRate, 2)}`,
    ],
    ['Maintenance', `${p.maintenanceMinutes} min (left out)`],
    ['Not checked', `${p.unknownMinutes} min (left out)`],
    [
      'TTFT p95',
      p.ttftP95Ms === undefined
        ? '—'
        : `${p.ttftP95Ms} ms${p.ttftTargetMs === undefined ? '' : ` (target ${p.ttftTargetMs} ms${p.ttftP95Ms <= p.ttftTargetMs ? ', met' : ', missed'})`}`,
    ],
  ];
  const incidents = p.incidents.length
    ? `<table><caption>Incidents</caption><thead><tr><th>Started</th><th>Status</th><th>What failed</th><th>Acknowledged</th><th>Resolved</th></tr></thead><tbody>${p.incidents
        .map(
          (i) =>
            `<tr><td>${whenUtc(i.startedAt)}</td><td>${escapeHtml(WATCH_WORDS[i.status])}</td><td>${escapeHtml(i.firstFailure)}</td><td>${i.acknowledged ? `${escapeHtml(i.acknowledged.by)}, ${whenUtc(i.acknowledged.at)}` : '—'}</td><td>${i.resolved ? whenUtc(i.resolved.at) : 'open'}</td></tr>`,
        )
        .join('')}</tbody></table>`
    : '<p>No incidents.</p>';
  const maintenance = p.maintenance.length
    ? `<table><caption>Maintenance</caption><thead><tr><th>From</th><th>To</th></tr></thead><tbody>${p.maintenance
        .map((m) => `<tr><td>${whenUtc(m.from)}</td><td>${whenUtc(m.to)}</td></tr>`)
        .join('')}</tbody></table>`
    : '<p>No maintenance.</p>';
  return `<section><h2>${escapeHtml(p.monitorName)}</h2><table class="figures"><tbody>${rows
    .map(([k, v]) => `<tr><th scope="row">${k}</th><td>${escapeHtml(v)}</td></tr>`)
    .join('')}</tbody></table>${incidents}${maintenance}</section>`;
}

/** One page, no outside resources: opened from a file, printed to PDF. */
export function reportHtml(
  periods: readonly PeriodFigures[],
  options: { title: string; decimals: number; generatedAt: number },
): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(options.title)}</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>
body{font:14px/1.45 system-ui,sans-serif;color:#1b1f24;max-width:60rem;margin:2rem auto;padding:0 1rem}
h1{font-size:1.5rem}h2{font-size:1.15rem;margin-top:2rem;border-bottom:1px solid #ccd;padding-bottom:.2rem}
table{border-collapse:collapse;margin:.6rem 0;width:100%}th,td{text-align:left;padding:.25rem .5rem;border-bottom:1px solid #e3e5e8;vertical-align:top}
.figures th{width:12rem;font-weight:600}caption{text-align:left;font-weight:600;padding:.3rem 0}
.muted{color:#5b6470}
@media print{body{margin:0;max-width:none}section{break-inside:avoid}}
</style></head><body>
<h1>${escapeHtml(options.title)}</h1>
<p class="muted">Generated ${whenUtc(options.generatedAt)}. Times in UTC. Availability is up minutes over up and down minutes, ${options.decimals} decimals, cut (not rounded); maintenance and minutes not checked are left out.</p>
${periods.map((p) => monitorSection(p, options.decimals)).join('\n')}
</body></html>
`;
}
