// The health history over time: bounded over a simulated month, kept across a new monitor on the
// same file, torn and foreign files handled, and the uptime and incidents read from it.
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import type { HealthReport } from '../../shared/api';
import { ManualClock } from '../../shared/clock';
import { HEALTH_HISTORY_CAPACITY } from '../../shared/health';
import { HEALTH_HISTORY_FILE } from '../../electron/core/health-history';
import { HealthMonitor } from '../../electron/core/health-monitor';
import { SteppingClock } from '../support/stepping-clock';
import { DAY, dir, MINUTE, monitor, report, runCleanups, stubTarget } from './health-support';

afterEach(runCleanups);

describe('history', () => {
  test('after a simulated 30 days of polling the ring and the file stay bounded', async () => {
    // ManualClock's contract, minus its 1 ms per timer (see test/support/stepping-clock.ts).
    const clock = new SteppingClock();
    const file = join(dir(), HEALTH_HISTORY_FILE);
    const target = stubTarget(clock);
    const m = monitor({ clock, target: () => target, historyFile: file });
    m.start();
    const sizes: number[] = [];
    for (let day = 1; day <= 30; day++) {
      await clock.advance(DAY);
      await m.history.flush();
      sizes.push(statSync(file).size);
    }
    expect(target.calls).toBe(30 * 24 * 60 + 1);
    expect(m.history.size).toBe(HEALTH_HISTORY_CAPACITY);
    expect(m.history.fileLines).toBeLessThanOrEqual(HEALTH_HISTORY_CAPACITY * 1.125);
    const lines = readFileSync(file, 'utf8').trimEnd().split('\n');
    expect(lines.length - 1).toBe(m.history.fileLines);
    // Flat from the first week on: the largest file of days 8–30 is no bigger than ~1.2 weeks of lines.
    const week = sizes[6] as number;
    expect(Math.max(...sizes.slice(7))).toBeLessThanOrEqual(week * 1.2);
    // What the screen gets stays small: an hour of checks as they are, a week in ≤ 720 buckets.
    expect(m.timeline('1h')).toMatchObject({ bucketMs: 0 });
    expect(m.timeline('1h').points).toHaveLength(61); // both ends of the hour
    const weekView = m.timeline('7d');
    expect(weekView.bucketMs).toBe(840_000);
    expect(weekView.points.length).toBeLessThanOrEqual(721);
    expect(weekView.uptime.map((u) => u.percent)).toEqual([100, 100, 100]);
    // The oldest sample kept is 7 days old: older ones left the ring.
    expect(clock.now() - (m.history.list()[0]?.at ?? 0)).toBeLessThanOrEqual(7 * DAY);
    console.log(
      `health history after 30 simulated days: ${m.history.size} samples in memory, file ${Math.max(...sizes.slice(7))} bytes at most (${m.history.fileLines} lines now)`,
    );
  }, 60_000);

  test('survives a new monitor on the same file, and restart detection carries over', async () => {
    const clock = new ManualClock();
    const file = join(dir(), HEALTH_HISTORY_FILE);
    let uptime = 1_000;
    let version = '1.0.0';
    const answer = () => report(clock, { uptime_seconds: uptime, version });
    const first = new HealthMonitor({ clock, target: () => stubTarget(clock, answer), historyFile: file });
    for (let i = 0; i < 5; i++) {
      await first.checkNow();
      await clock.advance(MINUTE);
      uptime += 60;
    }
    await first.stop();

    const second = monitor({ clock, target: () => stubTarget(clock, answer), historyFile: file });
    expect(second.history.list()).toEqual(first.history.list());
    expect(second.state().last).toMatchObject({ status: 'healthy', version: '1.0.0' });
    // Same run of the service, seen by a new console: no restart, no deploy.
    expect((await second.checkNow()).sample).not.toHaveProperty('restart');
    await clock.advance(MINUTE);
    uptime = 30;
    version = '1.0.1';
    expect((await second.checkNow()).sample).toMatchObject({
      restart: true,
      deploy: { from: '1.0.0', to: '1.0.1' },
    });
    await second.history.flush();
    expect(readFileSync(file, 'utf8').trimEnd().split('\n')).toHaveLength(1 + 7);
  });

  test('a line torn by a crash is skipped; a file in an unknown format is set aside, not overwritten', async () => {
    const clock = new ManualClock();
    const d = dir();
    const file = join(d, HEALTH_HISTORY_FILE);
    const first = new HealthMonitor({ clock, target: () => stubTarget(clock), historyFile: file });
    await first.checkNow();
    await first.checkNow();
    await first.stop();
    writeFileSync(file, readFileSync(file, 'utf8') + '{"t":17684', { flag: 'w' });
    const second = monitor({ clock, target: () => stubTarget(clock), historyFile: file });
    expect(second.history.size).toBe(2);
    await second.checkNow();
    await second.history.flush();
    const lines = readFileSync(file, 'utf8').split('\n');
    expect(lines.filter((l) => l !== '')).toHaveLength(4);
    expect(lines.every((l) => l === '' || JSON.parse(l))).toBe(true);

    writeFileSync(file, 'not a history\n');
    const third = monitor({ clock, target: () => stubTarget(clock), historyFile: file });
    expect(third.state().warning).toMatch(/set aside/);
    expect(readdirSync(d).some((f) => f.startsWith(`${HEALTH_HISTORY_FILE}.unreadable-`))).toBe(true);
    expect(existsSync(file)).toBe(false);
  });
});

describe('uptime and incidents', () => {
  test('uptime % per window counts degraded as up, leaves out unknown time, and incidents are runs', async () => {
    const clock = new ManualClock();
    let status: HealthReport['status'] = 'healthy';
    const m = monitor({ clock, target: () => stubTarget(clock, () => report(clock, { status })) });
    m.start();
    await clock.advance(30 * MINUTE); // 30 min healthy
    status = 'unhealthy';
    await clock.advance(15 * MINUTE); // 15 min down
    status = 'degraded';
    await clock.advance(15 * MINUTE); // 15 min degraded (still up)
    status = 'healthy';
    await clock.advance(MINUTE);
    const [hour, day] = m.timeline('1h').uptime;
    expect(hour?.percent).toBe(75);
    expect(day?.coveredMs).toBe(61 * MINUTE); // the rest of the day is not known, so not counted
    const incidents = m.incidents(clock.now() - DAY, clock.now());
    expect(incidents).toHaveLength(1);
    expect(incidents[0]).toMatchObject({ worst: 'unhealthy', ongoing: false });
    expect(
      (incidents[0] as { end: number; start: number }).end - (incidents[0] as { start: number }).start,
    ).toBe(30 * MINUTE);
  });
});
