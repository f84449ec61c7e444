// One headless monitor's start, measured in a process of its own (bench/monitor-metrics.ts runs it):
// the monitors file of the data folder opened as `agent-console monitor` opens it (no checks are
// made: the figures are about what is kept), the start's history pass of each monitor, then
// /metrics scraped `SCRAPES` times. Prints one JSON line: memory after GC, scrape times, and the
// first monitor's 7-day uptime.
import { randomBytes } from 'node:crypto';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { ConsoleCore } from '../electron/core/console-core';
import { monitorMetrics } from '../electron/core/monitors/monitor-metrics';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
const SCRAPES = 200;

const dataDir = process.argv[2] as string;
const now = Number(process.argv[3]);
const core = await ConsoleCore.open({
  dataDir,
  embeddedMock: 'none',
  keychainService: `agent-console-bench-${randomBytes(4).toString('hex')}`,
});
const monitors = await core.openMonitors({
  headless: true,
  serviceProfile: async (config) => ({
    id: `service-${config.id}`,
    name: config.name,
    baseUrl: 'https://127.0.0.1:9',
    keyId: 'none',
    builtIn: false,
  }),
});
// What each monitor's start does with its history before the first check.
for (const monitor of monitors.all()) await monitor.minutes.start(now);
const metrics = monitorMetrics({ monitors, limiters: core.limiters, vault: core.vault, now: () => now });
await metrics.metrics();
const times: number[] = [];
let text = '';
for (let i = 0; i < SCRAPES; i++) {
  const t0 = performance.now();
  text = await metrics.metrics();
  times.push(performance.now() - t0);
}
times.sort((a, b) => a - b);
for (let i = 0; i < 3; i++) gc();
const memory = process.memoryUsage();
const first = monitors.all()[0];
const slo = /agent_console_slo_availability_ratio\{monitor="Monitor 01",window="30d"\} ([\d.e-]+)/.exec(
  text,
)?.[1];
console.log(
  JSON.stringify({
    monitors: monitors.all().length,
    rss: memory.rss,
    heap: memory.heapUsed + memory.arrayBuffers,
    scrapeP50: times[Math.floor(SCRAPES / 2)],
    scrapeP95: times[Math.floor(SCRAPES * 0.95)],
    uptime7d: first?.view().uptime['7d'] ?? null,
    samples: first?.health.history.size ?? 0,
    slo30d: slo === undefined ? null : Number(slo),
  }),
);
metrics.close();
await core.close();
