// Suite runs built by hand for the diff and report tests: a cell per case × target with the
// statuses, times and replies of its attempts, and a whole run of such cells.
import type { KeptRun } from '../../shared/run-history';
import type { AttemptResult, CellResult, StepResult, Verdict } from '../../shared/suite-run';
import { cellStats, cellStatus } from '../../electron/core/suites/suite-stats';

export interface AttemptSpec {
  passed?: boolean;
  ttftMs?: number;
  totalMs?: number;
  reply?: string;
  /** The failed check's expected and actual. */
  expected?: string;
  actual?: string;
  /** A grader's verdict: the check is then a `judge` check that passed as `passed` says. */
  verdict?: Verdict;
}

function step(spec: AttemptSpec): StepResult {
  const passed = spec.passed ?? true;
  return {
    index: 0,
    line: 5,
    message: 'hello',
    state: 'done',
    streamed: true,
    status: 200,
    reply: spec.reply ?? 'Echo: hello',
    chunks: 2,
    ...(spec.ttftMs !== undefined ? { ttftMs: spec.ttftMs } : {}),
    ...(spec.totalMs !== undefined ? { totalMs: spec.totalMs } : {}),
    frames: [
      { atMs: spec.ttftMs ?? 1, data: '{"delta":"Echo: "}' },
      { atMs: spec.totalMs ?? 2, data: '[DONE]' },
    ],
    framesDropped: 0,
    rateLimited: 0,
    checks: [
      {
        kind: spec.verdict ? 'judge' : 'contains',
        line: 7,
        passed,
        expected: spec.expected ?? 'contains "hello"',
        actual: spec.actual ?? JSON.stringify(spec.reply ?? 'Echo: hello'),
        ...(spec.verdict ? { verdict: spec.verdict } : {}),
      },
    ],
  };
}

export function cell(
  caseName: string,
  attempts: AttemptSpec[],
  target = { profileName: 'Embedded mock', agent: 'echo' },
): CellResult {
  const results: AttemptResult[] = attempts.map((spec, i) => ({
    repeat: i + 1,
    status: spec.passed === false ? 'failed' : 'passed',
    startedAt: 0,
    durationMs: spec.totalMs ?? 1,
    steps: [step(spec)],
  }));
  const key = `${target.profileName}/${target.agent}`;
  return {
    id: `${caseName}@${key}`,
    caseKey: caseName,
    caseName,
    caseLine: 3,
    target: { key, profileId: target.profileName, profileName: target.profileName, agent: target.agent },
    status: cellStatus(results),
    attempts: results,
    stats: cellStats(results),
  };
}

export function run(runId: string, suites: Record<string, CellResult[]>, folder = '/work/suites'): KeptRun {
  const all = Object.values(suites).flat();
  const attempts = all.flatMap((c) => c.attempts);
  const count = (status: string): number => attempts.filter((a) => a.status === status).length;
  return {
    runId,
    status: count('failed') > 0 ? 'failed' : 'passed',
    startedAt: Date.UTC(2026, 10, 28, 6, 0),
    durationMs: 1500,
    suites: Object.entries(suites).map(([file, cells]) => ({
      file: `${folder}/${file}`,
      name: file.replace(/\.yaml$/, ''),
      cells,
    })),
    totals: {
      attempts: attempts.length,
      passed: count('passed'),
      failed: count('failed'),
      cancelled: 0,
      skipped: 0,
    },
    rateLimited: 0,
    where: { profiles: [{ name: 'Embedded mock', host: '127.0.0.1:4000' }] },
    what: { files: Object.keys(suites).map((file) => ({ file: `${folder}/${file}`, name: file })) },
  };
}
