// The load suite's figures for `npm run bench`: the run of test/load/load.test.ts, longer
// (BENCH_LOAD_SECONDS, default 90 s: past one whole 60 s window, so the windows really slide).
import type { Figure } from './core';
import { runLoad } from './load-run';

export async function loadFigures(): Promise<Figure[]> {
  const seconds = Number(process.env.BENCH_LOAD_SECONDS ?? 90);
  const f = await runLoad({ seconds, warmupSeconds: Math.min(10, seconds / 4) });
  return [
    ...f.keys.map((k) => ({
      figure: `load: tier-${k.tier} key`,
      value: `${k.sent} requests`,
      note: `max ${k.maxInWindow}/${k.tier} in any 60 s, ${k.status429} × 429, ${k.streamsDone} streams done, ${k.streamsFailed} failed (${seconds}s)`,
    })),
    {
      figure: 'load: heap after GC',
      value: `${f.heapAfterWarmupMb} → ${f.heapAtEndMb} MB`,
      note: `after warm-up → at the end; ${f.healthPolls} health polls; mock log ${f.retained.mockRequestLog}, core log ${f.retained.coreRequestLog} entries`,
    },
  ];
}
