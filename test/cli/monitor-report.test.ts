// `agent-console monitor report --month 2026-11` over a month of seeded minute rollups and one
// incident, against a hand computation written out here: availability with the decimals asked
// for (cut, not rounded), downtime minutes, the error budget and its burn rate, the TTFT p95, and
// the maintenance and unchecked minutes left out. HTML is one self-contained page; CSV one row.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { WatchStatus } from '../../shared/monitor';
import { IncidentLog } from '../../electron/core/monitors/incident-log';
import { MinuteHistory } from '../../electron/core/monitors/minute-history';
import { ensurePrivateDirSync } from '../../electron/core/private-files';
import { removeDir, tempDir } from '../support/mock';
import { runNode, type ProcessRun } from '../support/run-process';

const MINUTE = 60_000;
const NOV = Date.UTC(2026, 10, 1);
const at = (day: number, hh: number, mm: number) => Date.UTC(2026, 10, day, hh, mm);
let dataDir: string;

const cli = (args: string[]): Promise<ProcessRun> =>
  runNode(['bin/agent-console.js', ...args], { env: { AGENT_CONSOLE_DATA_DIR: dataDir } });

beforeAll(async () => {
  dataDir = tempDir('agent-console-report-');
  writeFileSync(
    join(dataDir, 'monitors.yaml'),
    [
      'monitors:',
      '  - id: production',
      '    name: Production',
      '    service: { baseUrl: "https://agents.example.com" }',
      '    slo: { availability: 99.9%, ttft-p95: 2s }',
    ].join('\n'),
  );
  const dir = join(dataDir, 'monitors', 'production');
  ensurePrivateDirSync(join(dataDir, 'monitors'), dataDir);
  ensurePrivateDirSync(dir, join(dataDir, 'monitors'));
  const minutes = new MinuteHistory(join(dir, 'minutes.jsonl'), 0);
  // The month, minute by minute: what each one was (none: not checked).
  const statusAt = (t: number): WatchStatus | undefined => {
    if (t >= at(1, 2, 0) && t < at(1, 4, 0)) return 'maintenance'; // 120 min, Sunday deploys
    if (t >= at(10, 3, 0) && t < at(10, 3, 12)) return 'unhealthy'; // 12 min down
    if (t >= at(20, 14, 0) && t < at(20, 14, 3)) return 'synthetic-failing'; // 3 min down
    if (t >= at(15, 8, 0) && t < at(15, 9, 0)) return undefined; // 60 min: the monitor was stopped
    if (t >= at(25, 9, 0) && t < at(25, 9, 30)) return 'degraded'; // 30 min, up all the same
    return 'healthy';
  };
  let seeded = 0;
  for (let t = NOV; t < Date.UTC(2026, 11, 1); t += MINUTE) {
    const s = statusAt(t);
    if (!s) continue;
    // 100 minutes of Nov 5 carry a TTFT p95: 94 at 900 ms, 6 at 2.5 s.
    const inTtft = t >= at(5, 0, 0) && t < at(5, 1, 40);
    const f95 = inTtft ? ((t - at(5, 0, 0)) / MINUTE < 94 ? 900 : 2500) : undefined;
    minutes.record({ t, s, n: 1, r: 40, ...(f95 !== undefined ? { f50: 500, f95 } : {}) });
    seeded++;
  }
  // Another month's minute, which the report leaves out.
  minutes.record({ t: Date.UTC(2026, 11, 1, 0, 0), s: 'unreachable', n: 1 });
  await minutes.flush();
  expect(seeded).toBe(43_200 - 60);

  const log = new IncidentLog(join(dataDir, 'monitors', 'incidents.jsonl'));
  const incident = log.open({
    monitorId: 'production',
    monitorName: 'Production',
    status: 'unhealthy',
    startedAt: at(10, 3, 0),
    checks: ['health poll: unhealthy'],
    // Words from the service, written as text: its markup is not the report's.
    firstFailure: `Production: api down, <img src=x onerror="alert('x')"> (was healthy).`,
  });
  log.acknowledge(incident.id, at(10, 3, 4), 'Dana');
  log.resolve(incident.id, at(10, 3, 12), 'monitor');
});

afterAll(() => removeDir(dataDir));

// By hand: November has 30 × 1440 = 43,200 minutes.
//   maintenance 120, not checked 60: left out → 43,020 minutes seen.
//   down: 12 (unhealthy) + 3 (synthetic check failing) = 15; up: 43,020 − 15 = 43,005 (degraded is up).
//   availability = 43,005 / 43,020 = 99.965132496…% → 99.965 (3 decimals), 99.96513 (5), 99 (0): cut.
//   budget at 99.9%: 0.1% of 43,020 = 43.02 min allowed; left 1 − 15 / 43.02 = 65.13…% → 65.1.
//   burn rate: (15 / 43,020) / 0.001 = 0.3486… → 0.34.
//   TTFT p95 of the minutes' p95s: 100 values, nearest rank 95 → the first 2,500 ms: over 2 s.
test('CSV: one row per monitor, as computed by hand', async () => {
  const run = await cli(['monitor', 'report', '--month', '2026-11', '--format', 'csv', '--decimals', '5']);
  expect(run.stderr).toBe('');
  expect(run.code).toBe(0);
  const [header, row, extra] = run.stdout.trim().split(/\r?\n/);
  expect(header).toBe(
    'monitor,from,to,availability_percent,target_percent,met,up_minutes,down_minutes,maintenance_minutes,unknown_minutes,allowed_down_minutes,budget_remaining_percent,burn_rate,ttft_p95_ms,ttft_p95_target_ms,incidents',
  );
  expect(row).toBe(
    'Production,2026-11-01T00:00Z,2026-12-01T00:00Z,99.96513,99.9,yes,43005,15,120,60,43.0,65.1,0.34,2500,2000,1',
  );
  expect(extra).toBeUndefined();
});

test('HTML: a self-contained page with the figures, the incident and the maintenance', async () => {
  const run = await cli(['monitor', 'report', '--month', '2026-11']);
  expect(run.code).toBe(0);
  const html = run.stdout;
  expect(html).toMatch(/^<!doctype html>/);
  // Nothing from elsewhere: it opens from a file and prints.
  expect(html).not.toMatch(/<(script|link|img)\b|https?:\/\//);
  expect(html).toContain('<th scope="row">Availability</th><td>99.965 %</td>');
  expect(html).toContain('<td>99.9 % — met</td>');
  expect(html).toContain('<td>15 min</td>');
  expect(html).toContain('43.0 min allowed, 65.1 % left, burn rate 0.34');
  expect(html).toContain('2500 ms (target 2000 ms, missed)');
  expect(html).toContain(
    '<td>2026-11-10 03:00 UTC</td><td>Unhealthy</td><td>Production: api down, &lt;img src=x onerror=&quot;alert(&#39;x&#39;)&quot;&gt; (was healthy).</td><td>Dana, 2026-11-10 03:04 UTC</td><td>2026-11-10 03:12 UTC</td>',
  );
  expect(html).toContain('<tr><td>2026-11-01 02:00 UTC</td><td>2026-11-01 04:00 UTC</td></tr>');

  const whole = await cli(['monitor', 'report', '--month', '2026-11', '--format', 'csv', '--decimals', '0']);
  expect(whole.stdout).toContain('Production,2026-11-01T00:00Z,2026-12-01T00:00Z,99,99.9,');
});

test('a month that is not one, or a format it does not write, is a usage error', async () => {
  const bad = await cli(['monitor', 'report', '--month', '2026-13']);
  expect(bad.code).toBe(2);
  expect(bad.stderr).toContain('--month takes YYYY-MM, e.g. 2026-11 (got "2026-13").');
  const pdf = await cli(['monitor', 'report', '--month', '2026-11', '--format', 'pdf']);
  expect(pdf.code).toBe(2);
  expect(pdf.stderr).toContain('--format takes html or csv (got "pdf").');
});
