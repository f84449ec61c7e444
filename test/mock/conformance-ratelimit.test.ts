// Spec §8 rate limits with the header arithmetic of docs/decisions.md: a sliding 60 s log per key,
// refused requests not counted, Remaining = limit − requests in the window, Reset = unix seconds when
// the oldest counted request leaves, Retry-After = whole seconds (≥ 1) until a slot frees.
import { beforeEach, describe, expect, it } from 'vitest';
import { NestedErrorBody } from '../../shared/api';
import { ManualClock } from '../../shared/clock';
import { withTestMock, type TestMock } from '../support/mock';
import { callEndpoint, echoThread, ENDPOINTS, expectNestedError, rateHeaders } from './conformance-support';

// A quarter second past a whole second, so rounding of Reset and Retry-After shows.
const clock = new ManualClock(Date.UTC(2026, 0, 15, 12, 0, 0) + 250);
let mock: TestMock;

withTestMock((started) => (mock = started), { clock });
beforeEach(() => mock.server.control.reset());

type Tier = 30 | 60 | 120 | 300;
const newKey = (tier?: Tier): string =>
  mock.server.control.createKey({ name: `rate-${tier ?? 'default'}`, ...(tier ? { tier } : {}) }).secret;
const get = (key: string, path = '/api/v1/agents?limit=1') => mock.call('GET', path, { key });
/** Unix seconds when a request counted at `ms` leaves the window. */
const leavesAt = (ms: number): number => Math.ceil((ms + 60_000) / 1000);

/** Sends `count` requests `gapMs` apart (the first at once) and returns the time of each. */
async function fill(key: string, count: number, gapMs = 0): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < count; i++) {
    if (i > 0 && gapMs > 0) await clock.advance(gapMs);
    times.push(clock.now());
    const res = await get(key);
    expect(res.status, `request ${i + 1}`).toBe(200);
  }
  return times;
}

async function expect429(key: string, path?: string) {
  const res = await get(key, path);
  const error = expectNestedError(res, 429, 'rate_limited');
  expect(error.type).toBe('rate_limit_error');
  const retryAfter = res.headers['retry-after'];
  expect(retryAfter).toMatch(/^\d+$/);
  // The message names the seconds to wait (spec §7).
  expect(error.message).toMatch(new RegExp(`\\b${retryAfter} seconds?\\b`));
  return { retryAfter: Number(retryAfter), ...rateHeaders(res) };
}

describe('after a tier downgrade', () => {
  it('Retry-After and Reset name the request whose leaving frees a slot under the new limit', async () => {
    const created = mock.server.control.createKey({ name: 'downgrade', tier: 60 });
    const times = await fill(created.secret, 60, 1_000);
    mock.server.control.updateKey(created.id, { tier: 30 });
    // 60 counted, 30 allowed: a slot frees when the 31st oldest (index 30) leaves, not the oldest.
    const frees = (times[30] as number) + 60_000;
    const refused = await expect429(created.secret);
    expect(refused.limit).toBe(30);
    expect(refused.retryAfter).toBe(Math.ceil((frees - clock.now()) / 1000));
    expect(refused.reset).toBe(leavesAt(times[30] as number));
    await clock.advance(frees - clock.now() - 1);
    await expect429(created.secret);
    await clock.advance(1);
    expect((await get(created.secret)).status).toBe(200);
  });
});

describe('headers', () => {
  it('counts down Remaining exactly and keeps Reset on the oldest request', async () => {
    const key = newKey(30);
    const t0 = clock.now();
    for (let i = 0; i < 30; i++) {
      if (i > 0) await clock.advance(1_000);
      const h = rateHeaders(await get(key));
      expect(h).toEqual({ limit: 30, remaining: 29 - i, reset: leavesAt(t0) });
    }
    // Unix seconds when the oldest leaves, never before it has left.
    expect(leavesAt(t0) * 1000).toBeGreaterThanOrEqual(t0 + 60_000);
    expect(leavesAt(t0) * 1000).toBeLessThan(t0 + 61_000);

    await clock.advance(1_000); // t0 + 30 s
    const refused = await expect429(key);
    expect(refused).toEqual({ retryAfter: 30, limit: 30, remaining: 0, reset: leavesAt(t0) });
  });

  it('moves Reset to the next-oldest request once the oldest has left', async () => {
    const key = newKey(30);
    const [t0, t1] = await fill(key, 2, 10_000);
    expect(rateHeaders(await get(key)).reset).toBe(leavesAt(t0 as number));
    await clock.advance((t0 as number) + 60_000 - clock.now());
    const h = rateHeaders(await get(key));
    expect(h.reset).toBe(leavesAt(t1 as number));
    // t1 and the two later requests remain: 30 − 3.
    expect(h.remaining).toBe(27);
  });

  it('puts the three headers on a success and on a 429 from every endpoint, one shared count', async () => {
    const key = newKey(60);
    const threadId = await echoThread(mock); // with the pro key: not counted against `key`
    const t0 = clock.now();
    let used = 0;
    for (const endpoint of ENDPOINTS) {
      const res = await callEndpoint(mock, endpoint, threadId, { key });
      used++;
      expect(res.status, endpoint.name).toBe(200);
      expect(rateHeaders(res), endpoint.name).toEqual({
        limit: 60,
        remaining: 60 - used,
        reset: leavesAt(t0),
      });
      await clock.advance(100);
    }
    while (used < 60) {
      expect((await get(key)).status).toBe(200);
      used++;
    }
    for (const endpoint of ENDPOINTS) {
      const res = await callEndpoint(mock, endpoint, threadId, { key });
      expectNestedError(res, 429, 'rate_limited');
      expect(rateHeaders(res), endpoint.name).toEqual({ limit: 60, remaining: 0, reset: leavesAt(t0) });
      expect(Number(res.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    }
  });

  it('gives new keys 60 per minute and shows each tier in X-RateLimit-Limit', async () => {
    const defaults = rateHeaders(await get(newKey()));
    expect(defaults).toMatchObject({ limit: 60, remaining: 59 });
    for (const tier of [30, 60, 120, 300] as const) {
      expect(rateHeaders(await get(newKey(tier)))).toMatchObject({ limit: tier, remaining: tier - 1 });
    }
    expect(rateHeaders(await get(mock.server.keys.tier30))).toMatchObject({ limit: 30, remaining: 29 });
    expect(rateHeaders(await get(mock.server.keys.pro))).toMatchObject({ limit: 60, remaining: 59 });
  });
});

describe('Retry-After', () => {
  it('counts whole seconds down to 1 until the slot frees, then the request is accepted', async () => {
    const key = newKey(30);
    const [t0] = await fill(key, 30, 500);
    const frees = (t0 as number) + 60_000;
    await clock.advance(frees - 10_000 - clock.now());
    expect((await expect429(key)).retryAfter).toBe(10);
    await clock.advance(1_500); // 8.5 s left
    expect((await expect429(key)).retryAfter).toBe(9);
    await clock.advance(frees - 1 - clock.now()); // 1 ms left
    expect((await expect429(key)).retryAfter).toBe(1);
    await clock.advance(1);
    const ok = await get(key);
    expect(ok.status).toBe(200);
    expect(rateHeaders(ok).remaining).toBe(0);
  });

  it('is in the flat body too, as retry_after equal to the header', async () => {
    const key = newKey(30);
    await fill(key, 30);
    await clock.advance(12_000);
    mock.server.control.setFaults({ errorShape: 'flat-429' });
    const res = await get(key);
    expect(res.status).toBe(429);
    expect(res.json).toMatchObject({ code: 'RATE_LIMITED', status: 429, retry_after: 48 });
    expect(res.headers['retry-after']).toBe('48');
    expect(rateHeaders(res)).toMatchObject({ limit: 30, remaining: 0 });
  });
});

describe('the window', () => {
  it('does not count refused requests: when the oldest leaves, exactly one slot frees', async () => {
    const key = newKey(30);
    const [t0] = await fill(key, 30, 1_000);
    for (let i = 0; i < 5; i++) await expect429(key);
    await clock.advance((t0 as number) + 60_000 - clock.now());
    const ok = await get(key);
    expect(ok.status).toBe(200);
    expect(rateHeaders(ok).remaining).toBe(0);
    await expect429(key);
  });

  it('slides: requests leave 60 s after they were made, not at a fixed minute boundary', async () => {
    const key = newKey(30);
    const t0 = clock.now();
    await fill(key, 15);
    await clock.advance(30_000);
    await fill(key, 15);
    await expect429(key);

    await clock.advance(t0 + 59_999 - clock.now());
    await expect429(key);
    await clock.advance(1); // t0 + 60 s: the first 15 leave, the later 15 stay
    for (let i = 0; i < 15; i++) expect(rateHeaders(await get(key)).remaining).toBe(14 - i);
    await expect429(key);

    await clock.advance(30_000); // the second 15 leave
    const h = rateHeaders(await get(key));
    expect(h.remaining).toBe(14);
  });

  it('keeps keys independent, even on the same account', async () => {
    const a = newKey(30);
    const b = newKey(30);
    await fill(a, 30);
    await expect429(a);
    expect(rateHeaders(await get(b))).toMatchObject({ limit: 30, remaining: 29 });
    expect(rateHeaders(await get(mock.server.keys.pro))).toMatchObject({ remaining: 59 });
    await expect429(a);
  });

  it('applies a tier change immediately, in both directions', async () => {
    const created = mock.server.control.createKey({ name: 'retier', tier: 60 });
    await fill(created.secret, 40);
    mock.server.control.updateKey(created.id, { tier: 30 });
    const refused = await expect429(created.secret);
    expect(refused.limit).toBe(30);
    mock.server.control.updateKey(created.id, { tier: 120 });
    const ok = await get(created.secret);
    expect(ok.status).toBe(200);
    expect(rateHeaders(ok)).toMatchObject({ limit: 120, remaining: 120 - 41 });
    mock.server.control.updateKey(created.id, { tier: 60 });
    expect(rateHeaders(await get(created.secret))).toMatchObject({ limit: 60, remaining: 60 - 42 });
    mock.server.control.updateKey(created.id, { tier: 30 });
    expect((await expect429(created.secret)).limit).toBe(30);
  });

  it('lets a tier-300 key make 300 requests in a minute, and no more', async () => {
    const key = newKey(300);
    await Promise.all(Array.from({ length: 10 }, () => fill(key, 30)));
    const last = await expect429(key);
    expect(last).toMatchObject({ limit: 300, remaining: 0, retryAfter: 60 });
  });

  it('answers a 429 body in the nested shape by default', async () => {
    const key = newKey(30);
    await fill(key, 30);
    const res = await get(key);
    const body = NestedErrorBody.parse(res.json);
    expect(body.error).toMatchObject({ code: 'rate_limited', type: 'rate_limit_error' });
  });
});
