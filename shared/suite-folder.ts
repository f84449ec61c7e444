// What the Tests screen reads about an opened folder of suite files, the runs kept on disk, and
// how a run compares with the previous run of the same suite. Plain data.
import type { CellResult, FileProblem, SuiteRunResult, TargetRef } from './suite-run';

export interface FolderSuite {
  /** The file name inside the folder (the folder's suites are the *.yaml/*.yml directly in it). */
  file: string;
  /** Absent when the file does not load. */
  name?: string;
  cases: { key: string; name: string; line: number }[];
  agents: string[];
  /** Every problem of a file that does not load, each with its line. */
  problems?: FileProblem[];
  /** Lines to show beside a suite that loads: a declared environment value too short to be masked. */
  warnings?: string[];
}

export interface FolderListing {
  folder: string;
  suites: FolderSuite[];
}

/** A cell of a run named for people: case × target. */
export interface CellRef {
  caseKey: string;
  caseName: string;
  target: string;
}

export interface RunComparison {
  /** The previous run of this suite that this run is compared with. */
  previousRunId: string;
  previousAt: number;
  newFailures: CellRef[];
  fixed: CellRef[];
  slower: (CellRef & { beforeMs: number; afterMs: number; percent: number })[];
  /** The threshold used for `slower`. */
  slowerPercent: number;
}

/** One suite's part of a run, as kept on disk. */
export interface StoredSuiteRun {
  runId: string;
  file: string;
  name: string;
  startedAt: number;
  status: SuiteRunResult['status'];
  cells: CellResult[];
}

export interface SuiteRunSummary {
  runId: string;
  startedAt: number;
  status: SuiteRunResult['status'];
  passed: number;
  failed: number;
}

export const targetLabel = (target: TargetRef): string =>
  `${target.profileName} / ${target.agent ?? 'default agent'}`;
