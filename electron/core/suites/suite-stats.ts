// What repeats tell: p50/p95 of time to first chunk and of total time over a cell's exchanges, and
// how many of its runs passed (a cell that passes 4 times in 5 is flaky, not fine).
import type {
  AttemptResult,
  AttemptStatus,
  CellStats,
  Percentiles,
  SuiteRunResult,
} from '../../../shared/suite-run';

/** Nearest-rank percentile (a value that was observed, never an interpolation between two). */
function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return NaN;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1] as number;
}

export function percentiles(values: number[]): Percentiles | undefined {
  if (values.length === 0) return undefined;
  const sorted = [...values].sort((a, b) => a - b);
  return { p50: percentile(sorted, 50), p95: percentile(sorted, 95), samples: sorted.length };
}

/** The times a cell's stats are made of: every exchange of the attempts that ran to the end. */
export function cellSamples(attempts: readonly AttemptResult[]): { ttftMs: number[]; totalMs: number[] } {
  const steps = attempts
    .filter((a) => a.status === 'passed' || a.status === 'failed')
    .flatMap((a) => a.steps.filter((s) => s.state === 'done'));
  return {
    ttftMs: steps.flatMap((s) => (s.ttftMs !== undefined ? [s.ttftMs] : [])),
    totalMs: steps.flatMap((s) => (s.totalMs !== undefined ? [s.totalMs] : [])),
  };
}

export function cellStats(attempts: readonly AttemptResult[]): CellStats {
  const ran = attempts.filter((a) => a.status === 'passed' || a.status === 'failed');
  const passed = ran.filter((a) => a.status === 'passed').length;
  const samples = cellSamples(attempts);
  const ttft = percentiles(samples.ttftMs);
  const total = percentiles(samples.totalMs);
  const judge = judgeScore(ran);
  return {
    runs: ran.length,
    passed,
    flaky: passed > 0 && passed < ran.length,
    ...(ttft ? { ttftMs: ttft } : {}),
    ...(total ? { totalMs: total } : {}),
    ...(judge !== undefined ? { judgeScore: judge } : {}),
  };
}

/** The mean of the graders' scores, each as score ÷ 5, to two places; undefined when none scored. */
function judgeScore(attempts: readonly AttemptResult[]): number | undefined {
  const scores = attempts.flatMap((a) =>
    a.steps.flatMap((s) =>
      s.checks.flatMap((c) => (c.verdict?.score !== undefined ? [c.verdict.score] : [])),
    ),
  );
  if (scores.length === 0) return undefined;
  return Math.round((scores.reduce((n, s) => n + s, 0) / scores.length / 5) * 100) / 100;
}

/** A cell fails when any attempt failed; otherwise it is cancelled/skipped if any was, else passed. */
export function cellStatus(attempts: readonly AttemptResult[]): AttemptStatus {
  const has = (s: AttemptStatus): boolean => attempts.some((a) => a.status === s);
  if (has('failed')) return 'failed';
  if (has('cancelled')) return 'cancelled';
  if (has('skipped')) return 'skipped';
  return 'passed';
}

/** A run's attempts counted by how they ended. */
export function runTotals(attempts: readonly AttemptResult[]): SuiteRunResult['totals'] {
  const count = (status: AttemptStatus): number => attempts.filter((a) => a.status === status).length;
  return {
    attempts: attempts.length,
    passed: count('passed'),
    failed: count('failed'),
    cancelled: count('cancelled'),
    skipped: count('skipped'),
  };
}
