// The diff of two runs: what became of each cell, and when a time change is real or noise (the
// rule of docs/architecture.md, "Run history and diffs").
import { describe, expect, test } from 'vitest';
import {
  diffRuns,
  gateRegressions,
  MIN_TIMING_CHANGE_MS,
  MIN_TIMING_SAMPLES,
  regressionsFirst,
  timingDelta,
} from '../../../electron/core/suites/run-diff';
import { cell, run } from '../../support/run-builder';

const times = (...ms: number[]) => ms.map((t) => ({ ttftMs: t, totalMs: t + 10 }));

describe('a time that changed, or noise', () => {
  test('every sample beyond the other run and the median past both floors: slower, or faster', () => {
    expect(timingDelta([100, 110, 120], [400, 410, 430])).toMatchObject({
      verdict: 'slower',
      p50DeltaMs: 300,
      before: { p50: 110, samples: 3 },
      after: { p50: 410, samples: 3 },
    });
    expect(timingDelta([400, 410, 430], [100, 110, 120])?.verdict).toBe('faster');
  });

  test('overlapping spreads are noise, however far the medians moved', () => {
    const delta = timingDelta([100, 110, 500], [105, 480, 490]);
    expect(delta).toMatchObject({ verdict: 'noise', why: 'within the spread of the repeats' });
    expect(delta?.p50DeltaMs).toBe(370);
  });

  test(`fewer than ${MIN_TIMING_SAMPLES} samples a side are noise, even a tenfold change`, () => {
    expect(timingDelta([100, 100], [1000, 1000, 1000])).toMatchObject({
      verdict: 'noise',
      why: expect.stringContaining('fewer than'),
    });
  });

  test(`apart but within ${MIN_TIMING_CHANGE_MS} ms or 20% is noise`, () => {
    expect(timingDelta([10, 11, 12], [30, 31, 32])?.verdict).toBe('noise');
    expect(timingDelta([1000, 1001, 1002], [1100, 1101, 1102])?.verdict).toBe('noise');
    expect(timingDelta([1000, 1001, 1002], [1300, 1301, 1302])?.verdict).toBe('slower');
  });

  test('no samples on a side: nothing to say', () => {
    expect(timingDelta([], [1, 2, 3])).toBeUndefined();
  });
});

describe('what became of each cell', () => {
  const base = run('base', {
    'a.yaml': [
      cell('stays green', times(100, 101, 102)),
      cell('breaks', [{}]),
      cell('gets fixed', [{ passed: false }]),
      cell('stays red', [{ passed: false }]),
      cell('goes away', [{}]),
      cell('turns flaky', [{}, {}, {}]),
    ],
  });
  const head = run(
    'head',
    {
      'a.yaml': [
        cell('stays green', times(100, 103, 99)),
        cell('breaks', [{ passed: false, reply: 'Sorry, no.' }]),
        cell('gets fixed', [{}]),
        cell('stays red', [{ passed: false }]),
        cell('is new and red', [{ passed: false }]),
        cell('is new and green', [{}]),
        cell('turns flaky', [{}, { passed: false }, {}]),
      ],
    },
    // Another machine's checkout: cells match by file name, case and target.
    'C:\\ci\\checkout\\suites',
  );
  const diff = diffRuns(base, head);
  const changeOf = (name: string) => diff.cells.find((c) => c.caseName === name);

  test('each change named, and matched across machines by file name', () => {
    expect(Object.fromEntries(diff.cells.map((c) => [c.caseName, c.change]))).toEqual({
      'stays green': 'unchanged',
      breaks: 'regression',
      'gets fixed': 'fixed',
      'stays red': 'still-failing',
      'goes away': 'removed',
      'is new and red': 'new-failure',
      'is new and green': 'added',
      'turns flaky': 'regression',
    });
    expect(changeOf('turns flaky')).toMatchObject({
      before: { passed: 3, runs: 3, flaky: false },
      after: { passed: 2, runs: 3, flaky: true },
      passRateChanged: true,
    });
    expect(changeOf('stays green')).toMatchObject({ changed: false, ttftMs: { verdict: 'noise' } });
    expect(changeOf('stays red')?.changed).toBe(false);
    expect(changeOf('breaks')?.replies).toEqual({ before: ['Echo: hello'], after: ['Sorry, no.'] });
  });

  test('regressions first, the gate names regressions and new failures only', () => {
    expect(diff.cells.slice(0, 3).map((c) => c.change)).toEqual(['regression', 'regression', 'new-failure']);
    expect(gateRegressions(diff).map((c) => c.caseName)).toEqual(['breaks', 'turns flaky', 'is new and red']);
    expect(diff.counts).toMatchObject({ regression: 2, 'new-failure': 1, fixed: 1, 'still-failing': 1 });
    const ordered = regressionsFirst(head, diff);
    expect(ordered.suites[0]?.cells.slice(0, 3).map((c) => c.caseName)).toEqual([
      'breaks',
      'is new and red',
      'turns flaky',
    ]);
  });

  test("a judge's score, where a run has one, is compared; none invented where none exists", () => {
    const judged = (score: number) => {
      const c = cell('judged', [{}]);
      return { ...c, stats: { ...c.stats, judgeScore: score } };
    };
    const scored = diffRuns(run('a', { 'j.yaml': [judged(0.9)] }), run('b', { 'j.yaml': [judged(0.6)] }));
    expect(scored.cells[0]).toMatchObject({ judge: { before: 0.9, after: 0.6 }, changed: true });
    expect(diff.cells.every((c) => c.judge === undefined)).toBe(true);
  });
});
