// suites:… — the Tests screen: a folder of suite files (opened by path or the desktop's chooser,
// watched for edits), runs with progress and cancel, runs kept and compared with the previous run
// of the same suite, and "Save as test case".
import { z } from 'zod';
import type { RunCalibration } from '../calibration';
import type { KeptRun, RunDiff, RunListItem } from '../run-history';
import type { FolderListing, RunComparison, StoredSuiteRun, SuiteRunSummary } from '../suite-folder';
import type { CellResult, RunPlan, SuiteRunResult } from '../suite-run';
import { MAX_HAR_CHARS } from './log';
import { id, none, returns, text, type DomainCalls } from './schemas';

export const SUITES_CALLS = {
  /**
   * Opens a folder of suite files: `path` as typed (the web host has no native dialog), or, without
   * it, the desktop's folder chooser. Null when the chooser was cancelled. Edits on disk arrive as
   * `suites:changed`.
   */
  'suites:open': {
    input: z.strictObject({ path: text(4096).optional() }),
    output: returns<FolderListing | null>(),
  },
  /** The open folder's suites again (null when none is open). */
  'suites:list': { input: none, output: returns<FolderListing | null>() },
  /** Starts a run of every suite, one suite (`file`) or one case (`file` + `caseKey`); progress as `suites:progress`. */
  'suites:run': {
    input: z.strictObject({
      file: text(500).optional(),
      caseKey: text(100).optional(),
      concurrency: z.number().int().min(1).max(64).optional(),
    }),
    output: returns<{ runId: string }>(),
  },
  'suites:cancel': { input: z.strictObject({ runId: id }), output: returns<{ cancelled: boolean }>() },
  /** A suite's kept runs, newest first. */
  'suites:runs': { input: z.strictObject({ file: text(500) }), output: returns<SuiteRunSummary[]>() },
  'suites:runGet': {
    input: z.strictObject({ file: text(500), runId: id }),
    output: returns<StoredSuiteRun | null>(),
  },
  /** A kept run against the previous run of the same suite (null when there is none). */
  'suites:compare': {
    input: z.strictObject({
      file: text(500),
      runId: id,
      slowerPercent: z.number().min(1).max(10_000).optional(),
    }),
    output: returns<RunComparison | null>(),
  },
  /** Every kept run (of any folder, the CLI's too), newest first: where, what, totals. */
  'suites:history': { input: none, output: returns<RunListItem[]>() },
  /** A whole kept run by its id (or the start of it); null when none is kept. */
  'suites:historyRun': { input: z.strictObject({ runId: text(100) }), output: returns<KeptRun | null>() },
  /** What changed from the `base` run to the `head` run, cell by cell (run-diff.ts). */
  'suites:diff': {
    input: z.strictObject({ base: text(100), head: text(100) }),
    output: returns<RunDiff>(),
  },
  /** "Save as test case": appends a case suggested from a reply to a suite file of the open folder. */
  'suites:saveCase': {
    input: z.strictObject({
      file: text(500),
      message: text(1_000_000),
      agent: text(200).optional(),
      reply: text(10_000_000),
      stream: z.boolean(),
      ttftMs: z.number().min(0).optional(),
      name: text(200).optional(),
    }),
    output: returns<{ file: string; caseName: string }>(),
  },
  /**
   * "Save as test case" from the active profile's recorded conversation (`session`) or thread: its
   * user messages as the steps of one case, assertions suggested from the replies, and a reply
   * reviewed "wrong" with the right answer in its note (the history's reviews) expected.
   */
  'suites:saveConversationCase': {
    input: z.strictObject({
      file: text(500),
      kind: z.enum(['session', 'thread']),
      id,
    }),
    output: returns<{ file: string; caseName: string }>(),
  },
  /** A kept run's human labels and each labelled judge's agreement, κ and disagreements. */
  'suites:calibration': {
    input: z.strictObject({ runId: id }),
    output: returns<RunCalibration | null>(),
  },
  /** A person's pass/fail (and note) on a judged attempt of a kept run, kept with the run. */
  'suites:label': {
    input: z.strictObject({
      runId: id,
      cellId: text(2000),
      repeat: z.number().int().min(1).max(1000),
      label: z.enum(['pass', 'fail']),
      note: text(2000).optional(),
    }),
    output: returns<RunCalibration>(),
  },
  /** A HAR file's chats as new suite files in the open folder, one case per chat. */
  'suites:importHar': {
    input: z.strictObject({ fileName: text(255), text: text(MAX_HAR_CHARS) }),
    output: returns<{ files: string[]; cases: number; skipped: number }>(),
  },
} as const satisfies DomainCalls<'suites'>;

export interface SuitesEvents {
  /** The open folder's suites after a file was added, edited or removed on disk. */
  'suites:changed': FolderListing;
  'suites:progress': SuitesProgress;
}

/** A suite run as the Tests screen follows it: the plan, attempts, cells, the end with comparisons. */
export type SuitesProgress =
  | { type: 'run-started'; plan: RunPlan }
  | { type: 'attempt-started'; runId: string; cellId: string }
  | { type: 'attempt-finished'; runId: string; cellId: string; done: number; total: number }
  | { type: 'cell-finished'; runId: string; cell: CellResult }
  | {
      type: 'run-finished';
      result: Omit<SuiteRunResult, 'suites'>;
      /** Per suite file: the comparison with its previous run (null when there is none). */
      comparisons: Record<string, RunComparison | null>;
    };
