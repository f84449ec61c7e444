// The runs kept on disk and what changed between two of them: plain data for the CLI (`agent-console
// test runs`, `test diff`, `--baseline`), the reports and the Tests screen alike
// (docs/architecture.md, "Run history and diffs").
import type { HumanLabel } from './calibration';
import type { AttemptStatus, Percentiles, SuiteRunResult } from './suite-run';

/** Where a run ran: each profile it used, with the host of its base URL. */
export interface RunWhere {
  profiles: { name: string; host: string }[];
}

/** What a run ran: its suite files, each with the git commit of its folder when that is a checkout. */
export interface RunWhat {
  files: { file: string; name: string; commit?: string }[];
}

/**
 * A whole run, as kept and as `--reporter json` writes it: every suite file of the run in one,
 * with where and what. A `results.json` of another machine is one of these (or, from before
 * `where` and `what` were written, a bare `SuiteRunResult`).
 */
export interface KeptRun extends SuiteRunResult {
  where: RunWhere;
  what: RunWhat;
  /** A shard of a run split across machines (`--shard i/n`), until `test merge` joins them. */
  shard?: RunShard;
  /** People's pass/fail labels on judged attempts (`--labels`, the Tests screen), kept with the run. */
  labels?: HumanLabel[];
}

/** Which slice of the whole run a shard ran, and the whole run's suite files in their order. */
export interface RunShard {
  index: number;
  count: number;
  files: string[];
}

/** A kept run as `test runs` lists it. */
export type RunListItem = Pick<
  KeptRun,
  'runId' | 'startedAt' | 'durationMs' | 'status' | 'totals' | 'where' | 'what'
>;

/** How long runs are kept: the newest `keep`, none older than `maxAgeDays`. */
export interface RunRetention {
  keep: number;
  maxAgeDays: number;
}

/**
 * What became of a cell (case × target) from the base run to the head run:
 * `regression` passed then and fails now; `new-failure` was not in the base and fails;
 * `fixed` failed then and passes; `still-failing` failed in both; `added` is new and passes;
 * `removed` is in the base only; `unchanged` passed in both.
 */
export type CellChange =
  'regression' | 'new-failure' | 'fixed' | 'still-failing' | 'added' | 'removed' | 'unchanged';

/** One side of a cell in a diff: its status and how many of its repeats passed. */
export interface CellSide {
  status: AttemptStatus;
  passed: number;
  runs: number;
  /** Some repeats passed and some failed. */
  flaky: boolean;
}

/** A time of a cell in both runs; `verdict` says whether the change is real (docs/architecture.md). */
export interface TimingDelta {
  before: Percentiles;
  after: Percentiles;
  p50DeltaMs: number;
  p95DeltaMs: number;
  verdict: 'slower' | 'faster' | 'noise';
  /** Why, in words: "every sample beyond the other run's" or what made it noise. */
  why: string;
}

export interface CellDiff {
  /** Suite file name (no folder: runs of other machines match by it), case key and target. */
  file: string;
  suite: string;
  caseKey: string;
  caseName: string;
  target: string;
  change: CellChange;
  before?: CellSide;
  after?: CellSide;
  /** The share of repeats that passed differs between the runs. */
  passRateChanged: boolean;
  ttftMs?: TimingDelta;
  totalMs?: TimingDelta;
  /** A judge's score in either run (suite-run.ts `judgeScore`); absent while no judge scores. */
  judge?: { before?: number; after?: number };
  /** The replies of each turn of the first attempt that ran, for a side-by-side text diff. */
  replies: { before: string[]; after: string[] };
  /** Anything above differs in a way that is not noise; `test diff` shows only these by default. */
  changed: boolean;
}

interface RunRef {
  runId: string;
  startedAt: number;
}

export interface RunDiff {
  base: RunRef;
  head: RunRef;
  /** Every cell of either run, regressions first (run-diff.ts's order). */
  cells: CellDiff[];
  counts: Record<CellChange, number> & { slower: number; faster: number };
}

/**
 * What to call a cell in a list of changes: its change, except that a cell that passed in both
 * runs and got slower (or faster) for real is called that.
 */
export function cellHeadline(cell: CellDiff): CellChange | 'slower' | 'faster' {
  if (cell.change !== 'unchanged') return cell.change;
  const verdicts = [cell.ttftMs?.verdict, cell.totalMs?.verdict];
  if (verdicts.includes('slower')) return 'slower';
  if (verdicts.includes('faster')) return 'faster';
  return 'unchanged';
}
