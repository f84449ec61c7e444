// Runs the matrix of suites: cases × targets × repeats, at most `concurrency` attempts at a time,
// every exchange through the SuiteExchange (so through the key's limiter: the pool bounds how
// many are in flight, the limiter how many a minute). Cancel stops it: attempts not yet started are
// marked cancelled, those in flight are aborted. Events let a front end fill a grid as it goes.
import { randomUUID } from 'node:crypto';
import type {
  AttemptResult,
  BrokenSuite,
  CellResult,
  PlannedCase,
  RunPlan,
  StepResult,
  SuiteRunEvent,
  SuiteRunResult,
  TargetRef,
} from '../../../shared/suite-run';
import type { Profile } from '../profiles';
import type { LoadedSuite } from './suite-loader';
import type { SuiteExchange } from './suite-exchange';
import { cellStats, cellStatus, runTotals } from './suite-stats';
import { runSimulation } from './simulate-run';
import { newSuiteSessionId, notSentStep, runStep, type StepContext } from './suite-step';

export interface RunTarget {
  profile: Profile;
  /** Slug or id; undefined = the service's default agent. */
  agent: string | undefined;
}

export interface RunSuite {
  suite: LoadedSuite;
  targets: RunTarget[];
}

export interface RunOptions {
  exchange: SuiteExchange;
  /** Attempts in flight at once (default 4). */
  concurrency?: number;
  /** Overrides every case's `repeat`. */
  repeat?: number;
  /** Stop starting attempts after the first failure. */
  bail?: boolean;
  signal?: AbortSignal;
  /** Suite files of the run that did not load: failing rows of its plan and result. */
  broken?: readonly BrokenSuite[];
  onEvent?: (event: SuiteRunEvent) => void;
  now?: () => number;
  /** A profile by name, for a judge graded through another profile than its target's. */
  resolveProfile?: (name: string) => Profile;
}

export const DEFAULT_CONCURRENCY = 4;

function targetRef(target: RunTarget): TargetRef {
  return {
    key: `${target.profile.id}/${target.agent ?? ''}`,
    profileId: target.profile.id,
    profileName: target.profile.name,
    agent: target.agent,
  };
}

interface Job {
  cell: CellResult;
  planned: PlannedCase;
  target: RunTarget;
  repeat: number;
  remaining: { count: number };
}

async function runAttempt(job: Job, options: RunOptions, now: () => number): Promise<AttemptResult> {
  const { planned, target } = job;
  const startedAt = now();
  const t0 = performance.now();
  const sessionId = planned.thread ? undefined : newSuiteSessionId();
  let threadId: string | undefined;
  let failed = false;
  let cancelled = false;
  const steps: StepResult[] = [];
  const context: StepContext = {
    exchange: options.exchange,
    profile: target.profile,
    agent: target.agent,
    planned,
    sessionId,
    threadId: undefined,
    signal: options.signal,
    earlier: [],
    profileFor: options.resolveProfile,
  };
  if (planned.simulate) {
    const simulated = await runSimulation(context, planned.simulate);
    steps.push(...simulated.steps);
    threadId = simulated.threadId;
    ({ failed, cancelled } = simulated);
  }
  for (const [index, step] of planned.steps.entries()) {
    if (failed || cancelled || options.signal?.aborted) {
      cancelled ||= options.signal?.aborted === true;
      steps.push(notSentStep(step, index, cancelled ? 'cancelled' : 'skipped'));
      continue;
    }
    if (planned.thread && index > 0 && threadId === undefined) {
      // Turn 1 was expected to fail (and did): there is no thread to continue.
      steps.push({
        ...notSentStep(step, index, 'skipped'),
        checks: [
          {
            kind: 'reply',
            line: step.line,
            passed: false,
            expected: 'a thread to send to',
            actual: 'turn 1 created no thread',
          },
        ],
      });
      failed = true;
      continue;
    }
    const outcome = await runStep(
      {
        ...context,
        threadId,
        earlier: steps.filter((s) => s.state === 'done').map((s) => ({ message: s.message, reply: s.reply })),
      },
      step,
      index,
    );
    threadId ??= outcome.threadId;
    steps.push(outcome.result);
    if (outcome.cancelled) cancelled = true;
    else if (outcome.result.checks.some((c) => !c.passed)) failed = true;
  }
  return {
    repeat: job.repeat,
    status: cancelled ? 'cancelled' : failed ? 'failed' : 'passed',
    startedAt,
    durationMs: Math.round(performance.now() - t0),
    ...(sessionId ? { sessionId } : {}),
    ...(threadId ? { threadId } : {}),
    steps,
  };
}

function notRun(job: Job, status: 'cancelled' | 'skipped', now: number): AttemptResult {
  return {
    repeat: job.repeat,
    status,
    startedAt: now,
    durationMs: 0,
    steps: job.planned.steps.map((s, i) => notSentStep(s, i, status)),
  };
}

export async function runSuites(suites: readonly RunSuite[], options: RunOptions): Promise<SuiteRunResult> {
  const now = options.now ?? Date.now;
  const runId = randomUUID();
  const startedAt = now();
  const t0 = performance.now();
  const jobs: Job[] = [];
  const results = suites.map(({ suite, targets }) => {
    const cells: CellResult[] = [];
    for (const planned of suite.cases) {
      const repeat = options.repeat ?? planned.repeat;
      for (const target of targets) {
        const ref = targetRef(target);
        const cell: CellResult = {
          id: `${suite.file}#${planned.key}@${ref.key}`,
          caseKey: planned.key,
          caseName: planned.name,
          caseLine: planned.line,
          target: ref,
          status: 'passed',
          attempts: [],
          stats: { runs: 0, passed: 0, flaky: false },
        };
        cells.push(cell);
        const remaining = { count: repeat };
        for (let r = 1; r <= repeat; r++) jobs.push({ cell, planned, target, repeat: r, remaining });
      }
    }
    const minKappa = suite.minKappa !== undefined ? { minKappa: suite.minKappa } : {};
    return { file: suite.file, name: suite.name, ...minKappa, cells };
  });
  const broken = options.broken?.length ? { broken: [...options.broken] } : {};
  const plan: RunPlan = {
    runId,
    startedAt,
    ...broken,
    suites: suites.map(({ suite, targets }, i) => ({
      file: suite.file,
      name: suite.name,
      cases: suite.cases.map((c) => ({
        key: c.key,
        name: c.name,
        line: c.line,
        repeat: options.repeat ?? c.repeat,
      })),
      targets: targets.map(targetRef),
      cells: (results[i] as (typeof results)[number]).cells.map((c) => ({
        id: c.id,
        caseKey: c.caseKey,
        targetKey: c.target.key,
        attempts: options.repeat ?? (suite.cases.find((k) => k.key === c.caseKey) as PlannedCase).repeat,
      })),
    })),
    totalAttempts: jobs.length,
  };
  const emit = (event: SuiteRunEvent): void => options.onEvent?.(event);
  emit({ type: 'run-started', plan });

  let done = 0;
  let stop: 'cancelled' | 'skipped' | undefined;
  const finish = (job: Job, attempt: AttemptResult): void => {
    job.cell.attempts.push(attempt);
    done++;
    emit({ type: 'attempt-finished', runId, cellId: job.cell.id, attempt, done, total: jobs.length });
    if (--job.remaining.count === 0) {
      job.cell.attempts.sort((a, b) => a.repeat - b.repeat);
      job.cell.status = cellStatus(job.cell.attempts);
      job.cell.stats = cellStats(job.cell.attempts);
      emit({ type: 'cell-finished', runId, cell: job.cell });
    }
  };
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < jobs.length) {
      if (options.signal?.aborted) stop = 'cancelled';
      const job = jobs[next++] as Job;
      if (stop) {
        finish(job, notRun(job, stop, now()));
        continue;
      }
      emit({ type: 'attempt-started', runId, cellId: job.cell.id, repeat: job.repeat });
      const attempt = await runAttempt(job, options, now);
      if (attempt.status === 'failed' && options.bail) stop ??= 'skipped';
      if (attempt.status === 'cancelled') stop = 'cancelled';
      finish(job, attempt);
    }
  };
  const width = Math.max(1, Math.min(options.concurrency ?? DEFAULT_CONCURRENCY, jobs.length));
  await Promise.all(Array.from({ length: width }, worker));

  const attempts = results.flatMap((s) => s.cells.flatMap((c) => c.attempts));
  const totals = runTotals(attempts);
  const result: SuiteRunResult = {
    runId,
    status:
      options.signal?.aborted || totals.cancelled > 0
        ? 'cancelled'
        : totals.failed > 0 || options.broken?.length
          ? 'failed'
          : 'passed',
    startedAt,
    durationMs: Math.round(performance.now() - t0),
    suites: results,
    ...broken,
    totals,
    rateLimited: attempts.reduce((n, a) => n + a.steps.reduce((m, s) => m + s.rateLimited, 0), 0),
  };
  emit({ type: 'run-finished', result });
  return result;
}
