// A synthetic check: suite cases on a schedule — a case of a suite file, or one message with its
// assertions — run against the monitor's agents through the core's suites (`core.suites`, as the
// CLI's `test` and the Tests screen run them), so through the core's exchanges and the key's one
// limiter (never a self-caused 429). Each case × agent gives a SyntheticResult: passed or the
// first failure in words, time to first chunk, total time, and how late it went out after it was
// due (the key was busy).
import { stringify } from 'yaml';
import type { SyntheticResult } from '../../../shared/monitor';
import type { AttemptResult, CellResult } from '../../../shared/suite-run';
import type { Profile } from '../profiles';
import type { SuiteEnvOptions } from '../suites/suite-env';
import type { LoadedSuite } from '../suites/suite-loader';
import { Suites } from '../suites/suites';
import type { SyntheticConfig } from './monitor-config';

/** A failure's words are kept short: they go into notifications, the history and metrics' help. */
const MAX_FAILURE_TEXT = 300;

/**
 * The cases a synthetic check runs: the suite file's (the chosen ones), or its one message. The
 * suite file may not read the variable the monitor takes its key from (`keyEnv`); the message reads
 * no environment at all (monitor-config.ts).
 */
export async function syntheticSuite(
  config: SyntheticConfig,
  monitorName: string,
  options: SuiteEnvOptions = {},
): Promise<LoadedSuite> {
  if (config.message !== undefined) {
    const text = stringify({
      name: `${monitorName} synthetic check`,
      cases: [
        {
          name: 'synthetic check',
          message: config.message,
          stream: config.stream,
          ...(config.assert ? { assert: config.assert } : {}),
        },
      ],
    });
    return Suites.parse(text, `${monitorName} (synthetic check)`, options);
  }
  const suite = await Suites.loadFile(config.suite as string, options);
  if (!config.cases) return suite;
  const wanted = new Set(config.cases);
  const cases = suite.cases.filter((c) => wanted.has(c.name));
  const missing = config.cases.filter((name) => !suite.cases.some((c) => c.name === name));
  if (missing.length > 0) {
    throw new Error(`${suite.file} has no case named ${missing.map((n) => `"${n}"`).join(', ')}.`);
  }
  return { ...suite, cases };
}

function firstFailure(attempt: AttemptResult | undefined): string | undefined {
  if (!attempt) return 'The check did not run.';
  if (attempt.status === 'passed') return undefined;
  for (const step of attempt.steps) {
    const failed = step.checks.find((c) => !c.passed);
    // The service's own error says more than "expected a complete reply" does.
    if (failed && step.error) return `${step.error.code}: ${step.error.message}`.slice(0, MAX_FAILURE_TEXT);
    if (failed) {
      const what = failed.kind === 'reply' ? 'reply' : failed.kind;
      return `${what}: expected ${failed.expected}, got ${failed.actual}`.slice(0, MAX_FAILURE_TEXT);
    }
  }
  return attempt.status === 'cancelled' ? 'Cancelled.' : 'Failed.';
}

function resultOf(cell: CellResult, dueAt: number): SyntheticResult {
  const attempt = cell.attempts[0];
  const done = attempt?.steps.filter((s) => s.state === 'done') ?? [];
  const ttft = done.find((s) => s.ttftMs !== undefined)?.ttftMs;
  const total = done.reduce((sum, s) => sum + (s.totalMs ?? 0), 0);
  const failure = firstFailure(attempt);
  // Time the exchanges themselves took is not lateness; the rest of the wait since it was due is.
  const late = attempt ? Math.max(0, attempt.startedAt + attempt.durationMs - dueAt - total) : undefined;
  return {
    at: dueAt,
    agent: cell.target.agent ?? 'default',
    check: cell.caseName,
    passed: attempt?.status === 'passed',
    ...(ttft !== undefined ? { ttftMs: Math.round(ttft) } : {}),
    ...(done.length > 0 ? { totalMs: Math.round(total) } : {}),
    ...(failure ? { failure } : {}),
    ...(late !== undefined ? { lateMs: Math.round(late) } : {}),
  };
}

export interface SyntheticRunOptions {
  suites: Suites;
  profile: Profile;
  signal?: AbortSignal;
  now: () => number;
}

/** Runs the check once, due at `dueAt`; one result per case × agent. */
export async function runSyntheticCheck(
  config: SyntheticConfig,
  suite: LoadedSuite,
  dueAt: number,
  options: SyntheticRunOptions,
): Promise<SyntheticResult[]> {
  const targets = options.suites.targets(suite, { profiles: [options.profile], agents: config.agents });
  const result = await options.suites.run([{ suite, targets }], {
    // Sequential: a check is a probe, not a load test; the key's budget is shared with the user.
    concurrency: 1,
    repeat: 1,
    now: options.now,
    ...(options.signal ? { signal: options.signal } : {}),
  });
  return result.suites.flatMap((s) => s.cells.map((cell) => resultOf(cell, dueAt)));
}
