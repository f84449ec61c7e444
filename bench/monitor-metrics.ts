// The headless monitor after a year: 20 monitors, each with a year of minute rollups and a week of
// raw health checks at a 10 s interval, against the same 20 monitors started fresh (no history).
// Each start runs in a process of its own (bench/monitor-metrics-process.ts), five times, fresh and
// loaded alternating. Goals (docs/performance.md): a /metrics scrape ≤ 10 ms; memory ≤ 1.2× the
// fresh start's; the 7-day uptime covering the whole week (one seeded hour down, 6 days ago).
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HealthHistory } from '../electron/core/health-history';
import { median } from './timing';
import type { Figure } from './core';

const MONITORS = 20;
const MINUTE = 60_000;
const DAY = 1440 * MINUTE;
const EVERY_MS = 10_000;
const RUNS = Number(process.env.BENCH_METRICS_RUNS ?? 5);

interface Measured {
  monitors: number;
  rss: number;
  heap: number;
  scrapeP50: number;
  scrapeP95: number;
  uptime7d: number | null;
  samples: number;
  slo30d: number | null;
}

const id = (i: number): string => `monitor-${String(i + 1).padStart(2, '0')}`;

function monitorsFile(dir: string): void {
  const monitors = Array.from({ length: MONITORS }, (_, i) => ({
    id: id(i),
    name: `Monitor ${String(i + 1).padStart(2, '0')}`,
    service: { baseUrl: 'https://agents.example.com' },
    health: { every: '10s' },
    slo: { availability: '99.9%' },
  }));
  writeFileSync(join(dir, 'monitors.yaml'), JSON.stringify({ monitors }, null, 2));
}

/** A year of minutes and a week of 10 s polls per monitor; the hour 6 days ago is down. */
async function seed(dir: string, now: number): Promise<void> {
  const outage = { from: now - 6 * DAY, to: now - 6 * DAY + 60 * MINUTE };
  const end = now - (now % MINUTE);
  for (let i = 0; i < MONITORS; i++) {
    const folder = join(dir, 'monitors', id(i));
    mkdirSync(folder, { recursive: true, mode: 0o700 });
    const lines: string[] = [];
    for (let t = end - 365 * DAY; t < end; t += MINUTE) {
      const down = t >= outage.from && t < outage.to;
      lines.push(`{"t":${t},"s":"${down ? 'unhealthy' : 'healthy'}","n":6,"r":${40 + (t % 7)}}`);
    }
    writeFileSync(join(folder, 'minutes.jsonl'), `${lines.join('\n')}\n`, { mode: 0o600 });
    const history = new HealthHistory({
      file: join(folder, 'health.jsonl'),
      capacity: Math.ceil(((7 * DAY) / EVERY_MS) * 1.25),
    });
    for (let at = now - 7 * DAY + EVERY_MS; at <= now; at += EVERY_MS) {
      const down = at >= outage.from && at < outage.to;
      history.add({
        at,
        profileId: `service-${id(i)}`,
        status: down ? 'unhealthy' : 'healthy',
        responseMs: 40 + (at % 7),
        httpStatus: down ? 503 : 200,
      });
    }
    await history.flush();
  }
}

function measure(dataDir: string, now: number): Promise<Measured> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', 'bench/monitor-metrics-process.ts', dataDir, String(now)],
      { stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, DBUS_SESSION_BUS_ADDRESS: '' } },
    );
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.once('exit', (code) => {
      const line = out.trim().split('\n').at(-1) ?? '';
      if (code !== 0 || !line.startsWith('{'))
        return reject(new Error(`monitor bench child: exit ${code}: ${out}`));
      resolve(JSON.parse(line) as Measured);
    });
  });
}

const mb = (bytes: number): string => `${(bytes / 1048576).toFixed(0)} MB`;

export async function monitorMetricsFigures(): Promise<Figure[]> {
  const root = mkdtempSync(join(tmpdir(), 'agent-console-bench-metrics-'));
  try {
    const fresh = join(root, 'fresh');
    const loaded = join(root, 'loaded');
    for (const dir of [fresh, loaded]) {
      mkdirSync(dir, { mode: 0o700 });
      monitorsFile(dir);
    }
    const now = Date.now();
    const t0 = performance.now();
    await seed(loaded, now);
    const seedS = (performance.now() - t0) / 1000;
    const runs: { fresh: Measured; loaded: Measured }[] = [];
    for (let r = 0; r < RUNS; r++)
      runs.push({ fresh: await measure(fresh, now), loaded: await measure(loaded, now) });
    const ratios = runs.map((r) => r.loaded.rss / r.fresh.rss);
    const p50s = runs.map((r) => r.loaded.scrapeP50);
    const p95s = runs.map((r) => r.loaded.scrapeP95);
    const list = (values: number[], digits: number) => values.map((v) => v.toFixed(digits)).join('/');
    const last = runs.at(-1)?.loaded as Measured;
    const expected = ((7 * 1440 - 60) / (7 * 1440)) * 100;
    return [
      {
        figure: '/metrics scrape, 20 monitors after a year',
        value: `${median(p50s).toFixed(2)} ms median, p95 ${median(p95s).toFixed(2)} ms`,
        note: `each run 200 scrapes, median of ${RUNS} runs (${list(p50s, 2)} ms; p95 ${list(p95s, 2)}); the same 20 monitors with no history ${median(runs.map((r) => r.fresh.scrapeP50)).toFixed(2)} ms; a year of minute rollups and a week of 10 s polls per monitor, seeded in ${seedS.toFixed(0)} s (goal ≤ 10 ms)`,
      },
      {
        figure: 'headless monitor memory, a year of history vs none',
        value: `${median(ratios).toFixed(2)}× (${mb(median(runs.map((r) => r.loaded.rss)))} vs ${mb(median(runs.map((r) => r.fresh.rss)))} RSS)`,
        note: `RSS after the start's history pass, 200 scrapes and GC, median of ${RUNS} runs (${list(ratios, 2)}); heap + ArrayBuffers ${mb(median(runs.map((r) => r.loaded.heap)))} vs ${mb(median(runs.map((r) => r.fresh.heap)))} (goal ≤ 1.2×)`,
      },
      {
        figure: '7-day uptime at a 10 s interval',
        value: `${last.uptime7d?.toFixed(3) ?? 'none'}% over ${last.samples.toLocaleString('en-US')} polls`,
        note: `one hour down 6 days ago: the whole week counts (${expected.toFixed(3)}% expected); the 30-day SLO gauge after the restart reads ${last.slo30d === null ? 'nothing' : `${(last.slo30d * 100).toFixed(3)}%`}`,
      },
    ];
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}
