// The load suite, short: four profiles on keys of every tier, ten concurrent streams and
// the health poller through ConsoleCore against the real mock. `npm run bench` runs it longer.
import { expect, test } from 'vitest';
import { LOAD_TIERS, runLoad } from '../../bench/load-run';

test('four tiers, ten streams and the health poller: within every limit, no 429, memory flat', async () => {
  const figures = await runLoad({ seconds: 15, warmupSeconds: 4 });
  for (const [i, key] of figures.keys.entries()) {
    expect(key.tier).toBe(LOAD_TIERS[i]);
    // Every key was pushed to its limit: the limiter, not the load, held requests back.
    expect(key.sent).toBeGreaterThanOrEqual(Math.min(key.tier, 25));
    expect(key.maxInWindow).toBeLessThanOrEqual(key.tier);
    expect(key.status429).toBe(0);
    expect(key.streamsFailed).toBe(0);
    expect(key.streamsDone).toBeGreaterThan(0);
  }
  expect(figures.healthPolls).toBeGreaterThanOrEqual(1);
  // Memory flat: what the console keeps is bounded, and the heap did not grow with the load.
  expect(figures.retained.mockRequestLog).toBeLessThanOrEqual(500);
  expect(figures.retained.limiterQueued).toBe(0);
  expect(figures.heapAtEndMb - figures.heapAfterWarmupMb).toBeLessThan(40);
  console.log(JSON.stringify(figures));
}, 40_000);
