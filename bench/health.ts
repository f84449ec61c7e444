// The health monitor's memory figure for `npm run bench`: the whole core — embedded
// mock, API client, limiter, request log, the monitor and its history — polling GET /health over
// real HTTPS once a simulated minute, measured after 1 hour and after 7 days (docs/performance.md: flat).
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { ConsoleCore } from '../electron/core/console-core';
import { HEALTH_HISTORY_FILE } from '../electron/core/health-history';
import { SteppingClock } from '../test/support/stepping-clock';
import type { Figure } from './core';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
const mb = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

/** JS heap plus ArrayBuffers (the history's typed arrays live outside the heap proper). */
function memoryAfterGc(): number {
  for (let i = 0; i < 3; i++) gc();
  const usage = process.memoryUsage();
  return usage.heapUsed + usage.arrayBuffers;
}

export async function healthMemoryFigure(): Promise<Figure> {
  const clock = new SteppingClock(Date.now());
  const dataDir = mkdtempSync(join(tmpdir(), 'agent-console-bench-health-'));
  const core = await ConsoleCore.open({
    dataDir,
    clock,
    embeddedMock: 'in-process',
    keychainService: `agent-console-bench-${randomBytes(4).toString('hex')}`,
  });
  let samples = 0;
  core.health.subscribe((update) => {
    if (update.sample) samples++;
  });
  /** One simulated minute at a time, waiting for each poll's real round trip. */
  const simulate = async (minutes: number): Promise<void> => {
    for (let m = 0; m < minutes; m++) {
      const want = samples + 1;
      await clock.advance(60_000);
      while (samples < want) await new Promise((resolve) => setImmediate(resolve));
    }
  };
  const t0 = performance.now();
  core.health.start();
  await simulate(60);
  await core.health.history.flush();
  const hour = memoryAfterGc();
  await simulate(23 * 60);
  await core.health.history.flush();
  const day = memoryAfterGc();
  await simulate(6 * 24 * 60);
  await core.health.history.flush();
  const week = memoryAfterGc();
  const seconds = (performance.now() - t0) / 1000;
  const file = statSync(join(dataDir, HEALTH_HISTORY_FILE)).size;
  const polls = samples;
  for (const key of core.vault.list()) await core.vault.remove(key.id).catch(() => undefined);
  await core.close();
  rmSync(dataDir, { recursive: true, force: true });
  const pct = (from: number) => {
    const change = ((week - from) / from) * 100;
    return `${change >= 0 ? '+' : ''}${change.toFixed(1)}%`;
  };
  // The request log (1,000 entries) and the mock's own log (500) are rings too, but they fill only
  // after their first 1,000 polls (~17 h): the 1-day figure shows memory once every ring is full.
  return {
    figure: 'core memory, 7 days of health polling',
    value: `${mb(week)}: ${pct(hour)} vs 1 h (${mb(hour)}), ${pct(day)} vs 1 day (${mb(day)})`,
    note: `heap + ArrayBuffers after GC; ${polls} polls over real HTTPS in ${seconds.toFixed(0)} s; history file ${(file / 1024).toFixed(0)} KB (goal: within 10%)`,
  };
}
