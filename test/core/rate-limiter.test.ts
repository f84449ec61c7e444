// The limiter alone with a ManualClock, then the API client driving the real mock (same clock) at
// more than a key allows: the client must never cause a 429 itself, and must recover from 429s
// caused by another client on the same key.
import { afterEach, describe, expect, test } from 'vitest';
import { ManualClock } from '../../shared/clock';
import { ApiClient } from '../../electron/core/api-client';
import { RateLimiter } from '../../electron/core/rate-limiter';
import type { RequestLogEntry } from '../../shared/request-log-entry';
import { mockConnection, startTestMock, type TestMock } from '../support/mock';

const realPause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('RateLimiter', () => {
  test('lets `limit` requests through in a window and queues the rest until slots free', async () => {
    const clock = new ManualClock();
    const limiter = new RateLimiter({ clock, limit: 30, marginMs: 0 });
    let granted = 0;
    for (let i = 0; i < 40; i++) void limiter.acquire().then(() => granted++);
    await clock.advance(0);
    expect(granted).toBe(30);
    expect(limiter.state()).toMatchObject({ remaining: 0, queued: 10 });
    await clock.advance(59_999);
    expect(granted).toBe(30);
    await clock.advance(1);
    expect(granted).toBe(40);
  });

  test('sends one probe at a time until a reply tells the key limit', async () => {
    const clock = new ManualClock();
    const limiter = new RateLimiter({ clock });
    let granted = 0;
    for (let i = 0; i < 5; i++) void limiter.acquire().then(() => granted++);
    await clock.advance(0);
    expect(granted).toBe(1);
    limiter.observe({ limit: 30, remaining: 29 });
    await clock.advance(0);
    expect(granted).toBe(5);
    expect(limiter.limit).toBe(30);
  });

  test('a 429 pauses everyone for Retry-After, doubling on each consecutive 429, plus jitter', async () => {
    const clock = new ManualClock();
    const limiter = new RateLimiter({ clock, limit: 60, random: () => 0.25, maxJitterMs: 1000 });
    expect(limiter.rejected(3)).toBe(3_000 + 250);
    expect(limiter.rejected(3)).toBe(6_000 + 250);
    expect(limiter.rejected(3)).toBe(12_000 + 250);
    limiter.succeeded();
    expect(limiter.rejected(2)).toBe(2_000 + 250);

    const fresh = new RateLimiter({ clock, limit: 60, random: () => 0.25, maxJitterMs: 1000 });
    fresh.rejected(2);
    let granted = false;
    void fresh.acquire().then(() => (granted = true));
    await clock.advance(2_249);
    expect(granted).toBe(false);
    await clock.advance(1);
    expect(granted).toBe(true);
  });

  test('headers showing another client on the key shrink what this client may send', async () => {
    const clock = new ManualClock();
    const limiter = new RateLimiter({ clock, limit: 30, marginMs: 0 });
    await limiter.acquire();
    limiter.observe({ limit: 30, remaining: 9, reset: Math.ceil((clock.now() + 60_000) / 1000) });
    expect(limiter.state().remaining).toBe(9);
  });

  test('a 429 with Retry-After 3 and X-RateLimit-Reset 60 s later waits 3 s (doubling on the next 429), not 60', async () => {
    const clock = new ManualClock();
    const limiter = new RateLimiter({ clock, limit: 30, random: () => 0.5, maxJitterMs: 1000, marginMs: 0 });
    const resetS = () => Math.ceil((clock.now() + 60_000) / 1000);
    await limiter.acquire();
    limiter.observe({ limit: 30, remaining: 0, reset: resetS(), retryAfterS: 3 });
    limiter.rejected(3);
    let granted = false;
    void limiter.acquire().then(() => (granted = true));
    await clock.advance(3_499);
    expect(granted).toBe(false);
    await clock.advance(1);
    expect(granted).toBe(true);

    limiter.observe({ limit: 30, remaining: 0, reset: resetS(), retryAfterS: 3 });
    expect(limiter.rejected(3)).toBe(6_000 + 500);
    granted = false;
    void limiter.acquire().then(() => (granted = true));
    await clock.advance(6_499);
    expect(granted).toBe(false);
    await clock.advance(1);
    expect(granted).toBe(true);
  });

  test('an aborted wait leaves the queue', async () => {
    const clock = new ManualClock();
    const limiter = new RateLimiter({ clock, limit: 1 });
    await limiter.acquire();
    const controller = new AbortController();
    const waiting = limiter.acquire(controller.signal);
    await clock.advance(0);
    expect(limiter.state().queued).toBe(1);
    controller.abort(new Error('user cancelled'));
    await expect(waiting).rejects.toThrow('user cancelled');
    expect(limiter.state().queued).toBe(0);
  });
});

describe('against the mock, on a tier-30 key', () => {
  let mock: TestMock | undefined;
  const clients: ApiClient[] = [];
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((c) => c.close()));
    await mock?.stop();
  });

  function makeClient(
    m: TestMock,
    clock: ManualClock,
    limiter: RateLimiter,
    log?: (e: RequestLogEntry) => void,
  ) {
    const c = new ApiClient({
      profileId: 'p',
      ...mockConnection(m.server, 'tier30'),
      limiter,
      clock,
      random: () => 0.5,
      retries: { after429: 20 },
      ...(log ? { log } : {}),
    });
    clients.push(c);
    return c;
  }

  /** Moves simulated time in steps, letting real HTTP round trips finish between steps. */
  async function drive(clock: ManualClock, ms: number, busy: () => number): Promise<void> {
    for (let t = 0; t < ms; t += 250) {
      await clock.advance(250);
      for (let spin = 0; busy() > 0 && spin < 2000; spin++) await realPause(1);
    }
  }

  function maxInAnyWindow(times: number[]): number {
    const sorted = [...times].sort((a, b) => a - b);
    let max = 0;
    for (let i = 0, j = 0; i < sorted.length; i++) {
      while ((sorted[i] as number) - (sorted[j] as number) >= 60_000) j++;
      max = Math.max(max, i - j + 1);
    }
    return max;
  }

  test('five callers at 300 requests/minute: at most 30 per sliding 60 s reach the service, zero 429s', async () => {
    const clock = new ManualClock();
    mock = await startTestMock({ clock });
    const limiter = new RateLimiter({ clock });
    const client = makeClient(mock, clock, limiter);
    let active = 0;
    let done = 0;
    let stop = false;
    const callers = Array.from({ length: 5 }, async () => {
      while (!stop) {
        active++;
        await client.health();
        active--;
        done++;
        await clock.sleep(1_000); // each caller: 60/min, five of them: 300/min
      }
    });
    await drive(clock, 180_000, () => active - limiter.state().queued);
    stop = true;
    await drive(clock, 70_000, () => active - limiter.state().queued);
    await Promise.all(callers);
    const served = mock.server.control.requests().filter((r) => r.path === '/api/v1/health');
    expect(served.filter((r) => r.status === 429)).toHaveLength(0);
    expect(maxInAnyWindow(served.map((r) => r.at))).toBeLessThanOrEqual(30);
    // Polite, not starved: close to 30 a minute over three minutes.
    expect(done).toBeGreaterThanOrEqual(80);
  }, 60_000);

  test('a second client on the same key causes 429s: waits follow Retry-After with doubling, and every request succeeds', async () => {
    const clock = new ManualClock();
    mock = await startTestMock({ clock });
    const logs: RequestLogEntry[][] = [[], []];
    // Jitter fixed at its mean (500 ms of 0–1000) so each wait is exactly the formula below.
    const limiters = [0, 1].map(() => new RateLimiter({ clock, random: () => 0.5 }));
    const pair = limiters.map((l, i) => makeClient(mock as TestMock, clock, l, (e) => logs[i]?.push(e)));
    let active = 0;
    const results = pair.map(async (c) => {
      let ok = 0;
      for (let i = 0; i < 40; i++) {
        active++;
        await c.health();
        active--;
        ok++;
        await clock.sleep(500);
      }
      return ok;
    });
    const busy = () => active - limiters.reduce((n, l) => n + l.state().queued, 0);
    await drive(clock, 8 * 60_000, busy);
    expect(await Promise.all(results)).toEqual([40, 40]);
    const all = logs.flat();
    expect(all.filter((e) => e.status === 429).length).toBeGreaterThan(0);
    for (const log of logs) {
      let streak = 0;
      log.forEach((entry, i) => {
        const next = log[i + 1];
        if (entry.status !== 429) {
          streak = 0;
          return;
        }
        streak++;
        expect(next, 'a 429 is followed by a retry').toBeDefined();
        const retryAfterMs = (entry.rate.retryAfterS ?? 1) * 1000;
        const expected = retryAfterMs * 2 ** (streak - 1) + 500;
        // Simulated time moves in 250 ms steps while real round trips are in flight, so a request's
        // recorded start can lag its send by up to one step.
        expect((next as RequestLogEntry).startedAt - entry.startedAt).toBeGreaterThanOrEqual(expected - 250);
        expect((next as RequestLogEntry).startedAt - entry.startedAt).toBeLessThan(expected + 2_000);
      });
    }
  }, 60_000);
});
