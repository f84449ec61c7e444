// What changed between any two runs, cell by cell (case × target): the one engine behind `agent-console
// test diff`, the `--baseline` gate, the reports and the Tests screen. Cells are matched by suite
// file name, case key and target label, so a run of another machine (a CI artifact) matches too.
// When a time changed for real and when it is noise is one rule, here (docs/architecture.md, "Run
// history and diffs").
import type { CellChange, CellDiff, CellSide, RunDiff, TimingDelta } from '../../../shared/run-history';
import { targetLabel } from '../../../shared/suite-folder';
import type { CellResult, SuiteRunResult } from '../../../shared/suite-run';
import { cellSamples, percentiles } from './suite-stats';

/** Fewer samples than this on either side say nothing about a time. */
export const MIN_TIMING_SAMPLES = 3;
/** A median must move by more than this share of the base's… */
const MIN_TIMING_CHANGE = 0.2;
/** …and by more than this many milliseconds, to be more than jitter. */
export const MIN_TIMING_CHANGE_MS = 25;

/** Replies longer than this are cut in a diff: a side-by-side view of megabytes helps nobody. */
const REPLY_CLIP = 20_000;

/** Base name of a path written with either separator: runs of other machines match by it. */
const fileName = (file: string): string => file.split(/[\\/]/).pop() ?? file;

interface Located {
  file: string;
  suite: string;
  cell: CellResult;
}

const keyOf = ({ file, cell }: Located): string =>
  JSON.stringify([fileName(file), cell.caseKey, targetLabel(cell.target)]);

function cells(run: Pick<SuiteRunResult, 'suites'>): Map<string, Located> {
  const located = run.suites.flatMap((s) => s.cells.map((cell) => ({ file: s.file, suite: s.name, cell })));
  return new Map(located.map((l) => [keyOf(l), l]));
}

function side(cell: CellResult): CellSide {
  const ran = cell.attempts.filter((a) => a.status === 'passed' || a.status === 'failed');
  const passed = ran.filter((a) => a.status === 'passed').length;
  return { status: cell.status, passed, runs: ran.length, flaky: passed > 0 && passed < ran.length };
}

/**
 * A time that changed for real: enough samples on both sides, every sample of one run beyond every
 * sample of the other (the spreads of the repeats do not overlap), and the medians apart by more
 * than both floors. Anything less is noise, and says why.
 */
export function timingDelta(before: number[], after: number[]): TimingDelta | undefined {
  const b = percentiles(before);
  const a = percentiles(after);
  if (!b || !a) return undefined;
  const p50DeltaMs = Math.round(a.p50 - b.p50);
  const p95DeltaMs = Math.round(a.p95 - b.p95);
  const delta = { before: b, after: a, p50DeltaMs, p95DeltaMs };
  if (b.samples < MIN_TIMING_SAMPLES || a.samples < MIN_TIMING_SAMPLES) {
    return { ...delta, verdict: 'noise', why: `fewer than ${MIN_TIMING_SAMPLES} samples in a run` };
  }
  const floor = Math.max(MIN_TIMING_CHANGE_MS, MIN_TIMING_CHANGE * b.p50);
  const slower = Math.min(...after) > Math.max(...before);
  const faster = Math.max(...after) < Math.min(...before);
  if (!slower && !faster) return { ...delta, verdict: 'noise', why: 'within the spread of the repeats' };
  if (Math.abs(p50DeltaMs) <= floor) {
    return {
      ...delta,
      verdict: 'noise',
      why: `median moved ${Math.abs(p50DeltaMs)} ms, not past ${Math.round(floor)} ms`,
    };
  }
  return {
    ...delta,
    verdict: slower ? 'slower' : 'faster',
    why: `every sample ${slower ? 'above' : 'below'} the other run's`,
  };
}

function replies(cell: CellResult | undefined): string[] {
  const attempt = cell?.attempts.find((a) => a.status === 'passed' || a.status === 'failed');
  return (attempt?.steps ?? [])
    .filter((s) => s.state === 'done')
    .map((s) => (s.reply.length > REPLY_CLIP ? `${s.reply.slice(0, REPLY_CLIP)}…` : s.reply));
}

function changeOf(before: CellSide | undefined, after: CellSide | undefined): CellChange {
  const failedNow = after?.status === 'failed';
  if (!before) return failedNow ? 'new-failure' : 'added';
  if (!after) return 'removed';
  const failedThen = before.status === 'failed';
  if (failedNow)
    return failedThen ? 'still-failing' : before.status === 'passed' ? 'regression' : 'new-failure';
  if (failedThen && after.status === 'passed') return 'fixed';
  return 'unchanged';
}

function diffCell(base: Located | undefined, head: Located | undefined): CellDiff {
  const at = (head ?? base) as Located;
  const before = base && side(base.cell);
  const after = head && side(head.cell);
  const change = changeOf(before, after);
  const diff: CellDiff = {
    file: fileName(at.file),
    suite: at.suite,
    caseKey: at.cell.caseKey,
    caseName: at.cell.caseName,
    target: targetLabel(at.cell.target),
    change,
    ...(before ? { before } : {}),
    ...(after ? { after } : {}),
    passRateChanged:
      before !== undefined &&
      after !== undefined &&
      before.runs > 0 &&
      after.runs > 0 &&
      before.passed / before.runs !== after.passed / after.runs,
    replies: { before: replies(base?.cell), after: replies(head?.cell) },
    changed: false,
  };
  if (base && head) {
    const [b, a] = [cellSamples(base.cell.attempts), cellSamples(head.cell.attempts)];
    const ttft = timingDelta(b.ttftMs, a.ttftMs);
    const total = timingDelta(b.totalMs, a.totalMs);
    if (ttft) diff.ttftMs = ttft;
    if (total) diff.totalMs = total;
  }
  const judgeBefore = base?.cell.stats.judgeScore;
  const judgeAfter = head?.cell.stats.judgeScore;
  if (judgeBefore !== undefined || judgeAfter !== undefined) {
    diff.judge = {
      ...(judgeBefore !== undefined ? { before: judgeBefore } : {}),
      ...(judgeAfter !== undefined ? { after: judgeAfter } : {}),
    };
  }
  diff.changed =
    (change !== 'unchanged' && change !== 'still-failing') ||
    diff.passRateChanged ||
    (diff.ttftMs !== undefined && diff.ttftMs.verdict !== 'noise') ||
    (diff.totalMs !== undefined && diff.totalMs.verdict !== 'noise') ||
    (diff.judge !== undefined && diff.judge.before !== diff.judge.after);
  return diff;
}

/** What the reader needs first: what broke, then what got slower, then the rest. */
const ORDER: CellChange[] = [
  'regression',
  'new-failure',
  'still-failing',
  'fixed',
  'added',
  'removed',
  'unchanged',
];
const isSlower = (d: CellDiff): boolean => d.ttftMs?.verdict === 'slower' || d.totalMs?.verdict === 'slower';
const rank = (d: CellDiff): number => ORDER.indexOf(d.change) * 2 + (isSlower(d) ? 0 : 1);

export function diffRuns(base: SuiteRunResult, head: SuiteRunResult): RunDiff {
  const before = cells(base);
  const after = cells(head);
  const keys = [...new Set([...after.keys(), ...before.keys()])];
  const diffs = keys.map((key) => diffCell(before.get(key), after.get(key)));
  // Stable: within a rank, cells keep the head run's order.
  diffs.sort((x, y) => rank(x) - rank(y));
  const counts = Object.fromEntries(ORDER.map((c) => [c, 0])) as RunDiff['counts'];
  counts.slower = 0;
  counts.faster = 0;
  for (const d of diffs) {
    counts[d.change]++;
    if (isSlower(d)) counts.slower++;
    else if (d.ttftMs?.verdict === 'faster' || d.totalMs?.verdict === 'faster') counts.faster++;
  }
  return {
    base: { runId: base.runId, startedAt: base.startedAt },
    head: { runId: head.runId, startedAt: head.startedAt },
    cells: diffs,
    counts,
  };
}

/** The cells a `--fail-on regression` gate fails on: failing now, and not failing in the base. */
export const gateRegressions = (diff: RunDiff): CellDiff[] =>
  diff.cells.filter((d) => d.change === 'regression' || d.change === 'new-failure');

/**
 * The run with what the gate names first, for every report: suites holding a regression (or a new
 * failure) first, and in each suite those cells first; the rest keep their order.
 */
export function regressionsFirst<T extends SuiteRunResult>(run: T, diff: RunDiff | undefined): T {
  if (!diff) return run;
  const flagged = new Set(gateRegressions(diff).map((d) => JSON.stringify([d.file, d.caseKey, d.target])));
  const isFlagged = (file: string, cell: CellResult): boolean =>
    flagged.has(JSON.stringify([fileName(file), cell.caseKey, targetLabel(cell.target)]));
  const suites = run.suites.map((suite) => ({
    ...suite,
    cells: [
      ...suite.cells.filter((c) => isFlagged(suite.file, c)),
      ...suite.cells.filter((c) => !isFlagged(suite.file, c)),
    ],
  }));
  const first = (s: (typeof suites)[number]): number => (s.cells.some((c) => isFlagged(s.file, c)) ? 0 : 1);
  return { ...run, suites: [...suites].sort((a, b) => first(a) - first(b)) };
}
