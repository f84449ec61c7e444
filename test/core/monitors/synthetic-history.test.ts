// Synthetic results are kept 7 days whatever the interval: a check every minute against four
// agents makes 40,320 results a week, twice what a ring of a fixed 20,160 held (3.5 days). Played
// through the history and its journal, read on a manual clock, then read again as after a restart.
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { ManualClock } from '../../../shared/clock';
import { checkMonitors } from '../../../electron/core/monitors/monitor-config';
import { SyntheticHistory, syntheticCapacity } from '../../../electron/core/monitors/synthetic-history';
import { removeDir, tempDir } from '../../support/mock';

const MINUTE = 60_000;
const WEEK = 7 * 1440 * MINUTE;
let dir: string;

beforeAll(() => {
  dir = tempDir('agent-console-synthetic-');
});
afterAll(() => removeDir(dir));

const checkOf = (synthetic: Record<string, unknown>) =>
  checkMonitors([{ name: 'API', profile: 'Default', synthetic }])[0]?.synthetic as NonNullable<
    ReturnType<typeof checkMonitors>[number]['synthetic']
  >;

test('a week of checks every minute against four agents is all kept, and read back after a restart', async () => {
  const check = checkOf({ every: '1m', agents: ['a', 'b', 'c', 'd'], message: 'ping' });
  const file = join(dir, 'synthetic.jsonl');
  const clock = new ManualClock(Date.UTC(2026, 10, 1));
  const start = clock.now();
  const history = new SyntheticHistory({ file, capacity: syntheticCapacity(check) });
  for (let run = 0; run < 9 * 1440; run++) {
    for (const agent of check.agents ?? []) {
      history.add({ at: start + run * MINUTE, agent, check: 'ping', passed: run % 100 !== 0, ttftMs: 300 });
    }
  }
  await history.flush();
  await clock.advance(9 * 1440 * MINUTE);
  const now = clock.now();
  const week = history.list(now - WEEK);
  expect(week).toHaveLength(7 * 1440 * 4);
  expect(week[0]?.at).toBe(now - WEEK);
  const again = new SyntheticHistory({ file, capacity: syntheticCapacity(check) });
  expect(again.list(now - WEEK)).toEqual(week);
  // And no more than a week and a quarter: the first day’s results have gone.
  expect(again.list()[0]?.at).toBeGreaterThan(start);
});

test('room follows the interval, the agents and the cases a run checks', () => {
  expect(syntheticCapacity(checkOf({ every: '1m', agents: ['a', 'b', 'c', 'd'], message: 'x' }))).toBe(
    50_400,
  );
  expect(syntheticCapacity(checkOf({ every: '1m', suite: 's.yaml', cases: ['a', 'b', 'c'] }))).toBe(37_800);
  // Hourly, one agent: the least a ring holds.
  expect(syntheticCapacity(checkOf({ every: '1h', message: 'x' }))).toBe(20_160);
});
