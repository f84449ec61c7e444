// The health monitor with a ManualClock: its schedule, a window that opens during its first poll,
// its use of the shared limiter on a busy tier-30 key (real mock, real HTTPS, same clock), and the
// debounce of its statuses.
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import type { HealthReport } from '../../shared/api';
import { ManualClock } from '../../shared/clock';
import type { HealthUpdate } from '../../shared/health';
import { HEALTH_HISTORY_FILE } from '../../electron/core/health-history';
import { HealthIntervalError, HealthMonitor, type HealthTarget } from '../../electron/core/health-monitor';
import { RateLimiter } from '../../electron/core/rate-limiter';
import {
  clientFor,
  dir,
  MINUTE,
  monitor,
  realPause,
  report,
  runCleanups,
  startMock,
  stubTarget,
  targetOf,
} from './health-support';

afterEach(runCleanups);

describe('schedule', () => {
  test('polls at start, then every 60 s by default', async () => {
    const clock = new ManualClock();
    const target = stubTarget(clock);
    const m = monitor({ clock, target: () => target });
    expect(m.intervalMs).toBe(60_000);
    m.start();
    await clock.advance(0);
    expect(target.calls).toBe(1);
    await clock.advance(59_999);
    expect(target.calls).toBe(1);
    await clock.advance(1);
    expect(target.calls).toBe(2);
    await clock.advance(10 * MINUTE);
    expect(target.calls).toBe(12);
    expect(m.state().nextCheckAt).toBe(clock.now() + 60_000);
  });

  test('the interval is configurable, never below 10 s', async () => {
    const clock = new ManualClock();
    const target = stubTarget(clock);
    expect(() => new HealthMonitor({ clock, target: () => target, intervalMs: 9_999 })).toThrow(
      HealthIntervalError,
    );
    const saved: number[] = [];
    const m = monitor({
      clock,
      target: () => target,
      intervalMs: 30_000,
      onIntervalChange: (ms) => saved.push(ms),
    });
    m.start();
    await clock.advance(30_000);
    expect(target.calls).toBe(2);
    expect(() => m.setIntervalMs(5_000)).toThrow(/from 10 s/);
    expect(m.intervalMs).toBe(30_000);
    m.setIntervalMs(10_000);
    expect(saved).toEqual([10_000]);
    await clock.advance(10_000);
    expect(target.calls).toBe(3);
    await clock.advance(60_000);
    expect(target.calls).toBe(9);
  });

  test('"Check now" polls at once and the schedule restarts from it', async () => {
    const clock = new ManualClock();
    const target = stubTarget(clock);
    const m = monitor({ clock, target: () => target });
    m.start();
    await clock.advance(40_000);
    const update = await m.checkNow();
    expect(update.sample).toMatchObject({ status: 'healthy', manual: true });
    // The update reports the poll as over, though its promise settles just after.
    expect(update.state).toMatchObject({ checking: false, nextCheckAt: clock.now() + 60_000 });
    expect(target.calls).toBe(2);
    await clock.advance(59_999);
    expect(target.calls).toBe(2);
    await clock.advance(1);
    expect(target.calls).toBe(3);
  });

  test('stop() ends the schedule; a check by hand still works after it', async () => {
    const clock = new ManualClock();
    const target = stubTarget(clock);
    const m = monitor({ clock, target: () => target });
    m.start();
    await clock.advance(0);
    expect(target.calls).toBe(1);
    await m.stop();
    await clock.advance(5 * MINUTE);
    expect(target.calls).toBe(1);
    expect(m.state()).toMatchObject({ running: false });
    expect(m.state().nextCheckAt).toBeUndefined();
    expect((await m.checkNow()).sample?.status).toBe('healthy');
  });

  test('with no active profile nothing is polled, and the state says why', async () => {
    const clock = new ManualClock();
    const m = monitor({ clock, target: () => ({ unavailable: 'No profile is active.' }) });
    m.start();
    await clock.advance(5 * MINUTE);
    expect(m.history.size).toBe(0);
    expect(m.state()).toMatchObject({ idleReason: 'No profile is active.', confirmed: 'unknown' });
  });
});

describe('a window opening during the first poll', () => {
  /** A target whose answer waits until `answer()` is called (or the poll is cancelled), as a slow service. */
  function heldTarget(clock: { now(): number }) {
    let release!: () => void;
    const held = new Promise<void>((go) => (release = go));
    return {
      answer: () => release(),
      target: {
        profileId: 'p1',
        profileName: 'Held',
        health: async ({ signal }: { signal?: AbortSignal }) => {
          await new Promise<void>((go, fail) => {
            void held.then(go);
            signal?.addEventListener('abort', () => fail(new Error('cancelled')));
          });
          return report(clock);
        },
      },
    };
  }

  test("is answered with that poll's outcome, not with a state that is still checking", async () => {
    const clock = new ManualClock();
    const { answer, target } = heldTarget(clock);
    const m = monitor({ clock, target: () => target });
    m.start();
    expect(m.state()).toMatchObject({ checking: true });
    expect(m.state().last).toBeUndefined();
    const opening = m.openingState();
    let answered = false;
    void opening.then(() => (answered = true));
    await realPause(50);
    expect(answered).toBe(false);
    answer();
    const state = await opening;
    expect(state).toMatchObject({ checking: false, confirmed: 'healthy', last: { status: 'healthy' } });
  });

  test('waits no longer than its bound for a poll that does not end', async () => {
    const clock = new ManualClock();
    const { answer, target } = heldTarget(clock);
    const m = monitor({ clock, target: () => target });
    m.start();
    const started = performance.now();
    const state = await m.openingState(150);
    expect(performance.now() - started).toBeGreaterThanOrEqual(140);
    expect(state).toMatchObject({ checking: true });
    expect(state.last).toBeUndefined();
    answer();
  });

  test('is answered at once when the last sample is fresh (the console restarted a moment ago)', async () => {
    const clock = new ManualClock();
    const file = join(dir(), HEALTH_HISTORY_FILE);
    const before = new HealthMonitor({ clock, target: () => stubTarget(clock), historyFile: file });
    await before.checkNow();
    await before.stop();
    await clock.advance(10_000);
    const { answer, target } = heldTarget(clock);
    const m = monitor({ clock, target: () => target, historyFile: file });
    m.start();
    const state = await Promise.race([m.openingState(), realPause(500).then(() => 'waited')]);
    expect(state).toMatchObject({ checking: true, last: { status: 'healthy' } });
    answer();
  });

  test('a later poll is not waited for: it shows as under way', async () => {
    const clock = new ManualClock();
    let target: HealthTarget = stubTarget(clock);
    const m = monitor({ clock, target: () => target });
    m.start();
    expect(await m.openingState()).toMatchObject({ checking: false, last: { status: 'healthy' } });
    const held = heldTarget(clock);
    target = held.target;
    void m.checkNow();
    const state = await Promise.race([m.openingState(), realPause(500).then(() => 'waited')]);
    expect(state).toMatchObject({ checking: true });
    held.answer();
  });
});

describe('through the shared limiter', () => {
  /** Moves simulated time in steps, letting real HTTP round trips finish between steps. */
  async function drive(clock: ManualClock, ms: number, busy: () => number): Promise<void> {
    for (let t = 0; t < ms; t += 250) {
      await clock.advance(250);
      for (let spin = 0; busy() > 0 && spin < 2000; spin++) await realPause(1);
    }
  }

  test('a tier-30 key busy with playground traffic: the poller never gets a 429 and never starves', async () => {
    const clock = new ManualClock();
    const mock = await startMock(clock);
    const limiter = new RateLimiter({ clock });
    const client = clientFor(mock, clock, 'tier30', limiter);
    const m = monitor({ clock, target: () => targetOf(client), intervalMs: 10_000 });
    // Playground-like traffic on the same key and limiter: three callers, each asking for more than the key allows.
    let active = 0;
    let stop = false;
    let served = 0;
    const callers = Array.from({ length: 3 }, async (_, i) => {
      while (!stop) {
        active++;
        await (i === 0 ? client.listAgents() : client.listThreads());
        active--;
        served++;
        await clock.sleep(500);
      }
    });
    const checking = () => (m.state().checking ? 1 : 0);
    m.start();
    await drive(clock, 5 * MINUTE, () => active + checking() - limiter.state().queued);
    stop = true;
    await drive(clock, 70_000, () => active + checking() - limiter.state().queued);
    await Promise.all(callers);
    const requests = mock.server.control.requests();
    expect(requests.filter((r) => r.status === 429)).toHaveLength(0);
    const samples = m.history.list();
    // Every poll got its answer: on a saturated key it waits for a slot like every caller (FIFO),
    // so it may be late — but never refused, never two at once, never starved past one window.
    expect(samples.every((s) => s.status === 'healthy')).toBe(true);
    const gaps = samples.slice(1).map((s, i) => s.at - (samples[i] as { at: number }).at);
    expect(Math.min(...gaps)).toBeGreaterThanOrEqual(10_000);
    expect(Math.max(...gaps)).toBeLessThanOrEqual(75_000);
    expect(samples.length).toBeGreaterThanOrEqual(5);
    const polls = requests.filter((r) => r.path === '/api/v1/health');
    expect(polls).toHaveLength(samples.length);
    expect(served + polls.length).toBeGreaterThanOrEqual(140); // the key's budget was used, not wasted
    // The recorded response time is the round trip, not the seconds spent queued behind the playground.
    expect(Math.max(...samples.map((s) => s.responseMs ?? Infinity))).toBeLessThan(2_000);
  }, 60_000);
});

describe('debounce', () => {
  test('a new status is confirmed (and notified) after holding for 2 polls; a one-poll blip is not', async () => {
    const clock = new ManualClock();
    let status: HealthReport['status'] = 'healthy';
    const target = stubTarget(clock, () =>
      report(clock, {
        status,
        components: {
          api: 'operational',
          vps: 'operational',
          agents: status === 'healthy' ? 'operational' : 'down',
          gateway: 'operational',
        },
      }),
    );
    const m = monitor({ clock, target: () => target });
    const updates: HealthUpdate[] = [];
    m.subscribe((u) => updates.push(u));
    const transitions = () => updates.flatMap((u) => (u.transition ? [u.transition] : []));

    await m.checkNow();
    expect(transitions()).toMatchObject([{ from: 'unknown', to: 'healthy', notify: false }]);
    status = 'degraded';
    await m.checkNow();
    expect(transitions()).toHaveLength(1);
    status = 'healthy';
    await m.checkNow(); // a blip of one poll: nothing to say
    status = 'degraded';
    await m.checkNow();
    await m.checkNow();
    expect(transitions()[1]).toMatchObject({
      from: 'healthy',
      to: 'degraded',
      notify: true,
      title: 'Service degraded',
    });
    expect(transitions()[1]?.body).toBe('Stub: agents down (was healthy).');
    expect(m.state().confirmed).toBe('degraded');
    status = 'healthy';
    await m.checkNow();
    await m.checkNow();
    expect(transitions()[2]).toMatchObject({ to: 'healthy', title: 'Service healthy again' });
    // The blip was not notified, but it shows among the events as not confirmed.
    expect(m.timeline('1h').marks.map((mark) => mark.label)).toEqual([
      'Degraded for 1 check, not confirmed (stayed healthy)',
      'Degraded (was healthy)',
      'Healthy (was degraded)',
    ]);
  });
});
