// The minute rollups across a restart: a monitor started again on its folder counts the last 30
// days from the file (what the SLO gauges read), read from its end, and keeps 400 days — dropping
// older minutes only when there are some. The status page's days come from the same file.
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { MinuteHistory } from '../../../electron/core/monitors/minute-history';
import { removeDir, tempDir } from '../../support/mock';

const MINUTE = 60_000;
const DAY = 1440 * MINUTE;
const NOW = Date.UTC(2026, 10, 28, 12, 0);
let dir: string;

beforeAll(() => {
  dir = tempDir('agent-console-minutes-');
});
afterAll(() => removeDir(dir));

/** Minutes from `days` days before NOW to NOW, each line as the monitor writes it. */
function write(file: string, days: number, down: (t: number) => boolean): void {
  const lines: string[] = [];
  for (let t = NOW - days * DAY; t < NOW; t += MINUTE) {
    lines.push(JSON.stringify({ t, s: down(t) ? 'unreachable' : 'healthy', n: 6, r: 41 }));
  }
  writeFileSync(file, `${lines.join('\n')}\n`, { mode: 0o600 });
}

test('started again, it counts the last 30 days from the file, a file of several chunks read from its end', async () => {
  const file = join(dir, 'restart.jsonl');
  // 45 days: two hours down 10 days ago, and one 40 days ago (before the 30-day window).
  write(
    file,
    45,
    (t) =>
      (t >= NOW - 10 * DAY && t < NOW - 10 * DAY + 120 * MINUTE) ||
      (t >= NOW - 40 * DAY && t < NOW - 40 * DAY + 60 * MINUTE),
  );
  expect(statSync(file).size).toBeGreaterThan(2.5 * 1024 * 1024);
  const minutes = new MinuteHistory(file, 3 * MINUTE);
  expect(minutes.counted(NOW, 30 * 1440)).toEqual({ up: 0, down: 0 });
  await minutes.start(NOW);
  expect(minutes.counted(NOW, 30 * 1440)).toEqual({ up: 30 * 1440 - 120, down: 120 });
  expect(minutes.counted(NOW, 60)).toEqual({ up: 60, down: 0 });
  const days = await minutes.days(NOW, 90);
  expect(days.at(-11)).toMatchObject({ worst: 'unreachable', up: 1440 - 120, down: 120 });
  expect(days.at(-41)).toMatchObject({ worst: 'unreachable', up: 1380, down: 60 });
  expect(days.at(-47)).toEqual({ day: NOW - (NOW % DAY) - 46 * DAY, up: 0, down: 0 });
});

test('400 days are kept: older minutes dropped at a start, the file left alone when there are none', async () => {
  const file = join(dir, 'prune.jsonl');
  const old = JSON.stringify({ t: NOW - 401 * DAY, s: 'healthy', n: 1 });
  const recent = JSON.stringify({ t: NOW - 399 * DAY, s: 'healthy', n: 1 });
  writeFileSync(file, `${old}\n${recent}\n`, { mode: 0o600 });
  await new MinuteHistory(file, MINUTE).start(NOW);
  expect(readFileSync(file, 'utf8')).toBe(`${recent}\n`);
  const before = statSync(file).mtimeMs;
  await new Promise((resolve) => setTimeout(resolve, 20));
  await new MinuteHistory(file, MINUTE).start(NOW);
  expect(statSync(file).mtimeMs).toBe(before);
});
