// What a suite run plans, reports as it goes, and keeps. Plain data, so a front end can
// carry it anywhere: the CLI prints it, the Tests screen will draw its grid from the events
// (a cell per case × target fills as its attempts finish) and open a cell's steps and frames.
import type { AssertionKind } from './suite';

/** One assertion of a step, variables substituted, with the line it was written on. */
export type Check = { line: number } & (
  | { kind: 'contains' | 'not-contains' | 'equals' | 'starts-with'; text: string }
  | { kind: 'regex'; pattern: string; flags: string }
  | { kind: 'json'; schema?: Record<string, unknown> }
  | { kind: 'max-length' | 'min-length'; length: number }
  | { kind: 'ttft-ms' | 'total-ms' | 'max-gap-ms'; ms: number }
  | { kind: 'min-chunks'; count: number }
  | { kind: 'completes'; value: boolean }
  | { kind: 'status'; status: number }
  | { kind: 'code'; code: string }
  | { kind: 'remembers'; text: string; turn?: number }
  | RememberedFactCheck
  | { kind: 'turns-at-most'; turns: number }
  | JudgeCheck
);

/**
 * A check a grading agent answers (docs/architecture.md, "Judges"): `judge` passes at a score of at
 * least `pass` (1–5), `similar-to` at a similarity (score ÷ 5) of at least `min`.
 */
export type JudgeCheck = {
  rubric: string;
  agent: string;
  /** A profile name; undefined = the target's profile. */
  profile?: string;
  /** The grader's prompt template, {{rubric}}, {{message}}, {{reply}}, {{conversation}} unfilled. */
  prompt: string;
} & ({ kind: 'judge'; pass: number } | { kind: 'similar-to'; text: string; min: number });

/** A whole simulated conversation's memory: `fact`, said by the user in `fromTurn` (or any turn), repeated in a later reply. */
interface RememberedFactCheck {
  kind: 'remembers';
  fact: string;
  fromTurn?: number;
}

/**
 * A conversation an agent on the service plays the user in (README, "Simulated conversations"):
 * each turn's message is the simulating agent's answer to the prompt, filled with the goal, the
 * persona and the transcript so far; it ends when a reply meets `until`, or fails at `maxTurns`.
 */
export interface PlannedSimulation {
  line: number;
  agent: string;
  /** A profile name; undefined = the target's profile. */
  profile?: string;
  goal: string;
  persona: string;
  maxTurns: number;
  /** {{goal}}, {{persona}}, {{conversation}} unfilled. */
  prompt: string;
  until: Check & { kind: 'contains' | 'regex' };
  /** Checked on every reply of the agent under test. */
  eachTurn: Check[];
  /** Checked once the conversation ends, over all of it (judge, similar-to, turns-at-most, remembers). */
  conversation: Check[];
}

/** What a grader said of one reply: its score (1–5) and verdict where it gave them, and why. */
export interface Verdict {
  agent: string;
  score?: number;
  pass?: boolean;
  reason: string;
}

export interface PlannedStep {
  line: number;
  message: string;
  checks: Check[];
}

/** A case of a suite file, or one row of its `vars` table. */
export interface PlannedCase {
  /** Unique in its suite: the case's index, plus the row's for a vars table ("2", "3.1"). */
  key: string;
  name: string;
  line: number;
  stream: boolean;
  thread: boolean;
  title?: string;
  repeat: number;
  /** Empty for a simulated conversation, whose turns are written as it goes. */
  steps: PlannedStep[];
  simulate?: PlannedSimulation;
}

export interface TargetRef {
  /** Unique in its suite (profile id + agent). */
  key: string;
  profileId: string;
  profileName: string;
  /** Slug or id as written; undefined = the service's default agent. */
  agent: string | undefined;
}

/** One problem of a file people write by hand (a suite, a monitors file), where it is. */
export interface FileProblem {
  /** 1-based; absent when the file itself could not be read. */
  line?: number;
  col?: number;
  /** Where in the file, e.g. `cases[2].assert[0].contains`. */
  field?: string;
  message: string;
}

/**
 * A suite file of the run that did not load: one failing row with its problems, and the run
 * fails; the files beside it run (docs/architecture.md, "Test suites").
 */
export interface BrokenSuite {
  file: string;
  problems: FileProblem[];
}

/** "broken.yaml:10:14: cases[0].assert: message" — a problem as the CLI and the Tests screen show it. */
export function describeProblem(file: string, problem: FileProblem): string {
  const where = problem.line !== undefined ? `${file}:${problem.line}:${problem.col ?? 1}` : file;
  return `${where}: ${problem.field ? `${problem.field}: ` : ''}${problem.message}`;
}

export interface RunPlan {
  runId: string;
  startedAt: number;
  /** Suite files named for the run that did not load; absent when every one loaded. */
  broken?: BrokenSuite[];
  suites: {
    file: string;
    name: string;
    cases: Pick<PlannedCase, 'key' | 'name' | 'line' | 'repeat'>[];
    targets: TargetRef[];
    /** The grid: a cell per case × target, each filled by its `repeat` attempts. */
    cells: { id: string; caseKey: string; targetKey: string; attempts: number }[];
  }[];
  /** Exchanges are not known in advance (a failed turn ends its attempt); attempts are. */
  totalAttempts: number;
}

/** One frame of a streamed reply, as the stream inspector shows it (data masked). */
export interface RunFrame {
  atMs: number;
  data: string;
  comment?: boolean;
}

export interface CheckResult {
  /**
   * `reply` is the implicit check that a step without an error assertion got a whole reply; `until`
   * that a simulated conversation reached its goal before its last turn.
   */
  kind: AssertionKind | 'reply' | 'until';
  line: number;
  passed: boolean;
  expected: string;
  actual: string;
  /** A judged check's verdict; absent when the grader gave none (its answer is in `actual`). */
  verdict?: Verdict;
}

export interface StepResult {
  index: number;
  line: number;
  /** Masked, as everything below (electron/core/redact.ts). */
  message: string;
  /** `skipped`: an earlier turn of the attempt failed, so this one was not sent. */
  state: 'done' | 'skipped' | 'cancelled';
  streamed: boolean;
  requestId?: string;
  /** HTTP status; 0 when no reply came (network, cancel). A started stream is 200. */
  status: number;
  error?: { code: string; message: string; type?: string };
  reply: string;
  chunks: number;
  ttftMs?: number;
  totalMs?: number;
  maxGapMs?: number;
  frames: RunFrame[];
  /** Frames past the cap kept per step (a runaway stream must not exhaust memory). */
  framesDropped: number;
  /** 429s the service answered to this step (each retried once the limiter allowed). */
  rateLimited: number;
  checks: CheckResult[];
  /** A simulated turn: the agent that wrote the message, and its own exchange. */
  simulated?: { agent: string; requestId?: string; totalMs?: number };
}

export type AttemptStatus = 'passed' | 'failed' | 'cancelled' | 'skipped';

export interface AttemptResult {
  /** 1-based repeat number. */
  repeat: number;
  status: AttemptStatus;
  startedAt: number;
  durationMs: number;
  sessionId?: string;
  threadId?: string;
  steps: StepResult[];
}

export interface Percentiles {
  p50: number;
  p95: number;
  samples: number;
}

export interface CellStats {
  /** Attempts that ran to the end (not cancelled or skipped). */
  runs: number;
  passed: number;
  /** Some runs passed and some failed. */
  flaky: boolean;
  /** Over every exchange of the cell's attempts. */
  ttftMs?: Percentiles;
  totalMs?: Percentiles;
  /**
   * The mean of the graders' scores of the cell's replies, each as score ÷ 5 (0.2 to 1), to two
   * places; absent when nothing was graded. A run diff compares it (run-diff.ts).
   */
  judgeScore?: number;
}

/** A case × target: one cell of the grid, with its repeats. */
export interface CellResult {
  id: string;
  caseKey: string;
  caseName: string;
  caseLine: number;
  target: TargetRef;
  status: AttemptStatus;
  attempts: AttemptResult[];
  stats: CellStats;
}

interface SuiteResult {
  file: string;
  name: string;
  /** The suite's `min-kappa`: the lowest κ of a judge against human labels it trusts. */
  minKappa?: number;
  cells: CellResult[];
}

export interface SuiteRunResult {
  runId: string;
  status: 'passed' | 'failed' | 'cancelled';
  startedAt: number;
  durationMs: number;
  suites: SuiteResult[];
  /** As in the plan: each one makes the run fail. */
  broken?: BrokenSuite[];
  totals: { attempts: number; passed: number; failed: number; cancelled: number; skipped: number };
  /** 429s the service answered during the run (retried); 0 when the limiter did its job. */
  rateLimited: number;
}

export type SuiteRunEvent =
  | { type: 'run-started'; plan: RunPlan }
  | { type: 'attempt-started'; runId: string; cellId: string; repeat: number }
  | {
      type: 'attempt-finished';
      runId: string;
      cellId: string;
      attempt: AttemptResult;
      done: number;
      total: number;
    }
  | { type: 'cell-finished'; runId: string; cell: CellResult }
  | { type: 'run-finished'; result: SuiteRunResult };
