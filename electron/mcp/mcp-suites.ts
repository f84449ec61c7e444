// The MCP server's run_suite: a suite file, a folder, or one case, run through the core's suites as
// `agent-console test` runs them, and its outcome in the words a coding agent reads.
import { resolve } from 'node:path';
import type { ConsoleCore } from '../core/console-core';
import { CoreError } from '../core/core-error';
import { describeCheck, targetLabel } from '../core/suites/junit-report';
import type { LoadedSuite } from '../core/suites/suite-loader';
import { Suites } from '../core/suites/suites';
import { describeProblem, type SuiteRunResult } from '../../shared/suite-run';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { ServerNotification, ServerRequest } from '@modelcontextprotocol/sdk/types.js';

/** What the SDK hands a tool beside its input: the progress token, the signal, notifications. */
export type Extra = RequestHandlerExtra<ServerRequest, ServerNotification>;

/**
 * A suite run through the core's suites, as `agent-console test` prepares it: the files load
 * before anything is sent; one that does not is a failure of the run, listed with its lines.
 */
export async function runSuite(
  core: ConsoleCore,
  input: {
    path: string;
    case?: string | undefined;
    agents?: string[] | undefined;
    repeat?: number | undefined;
    profile?: string | undefined;
  },
  extra: Extra,
): Promise<unknown> {
  // A file that does not load is a failure of the run, with its lines; the files beside it run
  // (the rule of core.suites, as for `agent-console test` and the Tests screen).
  const { suites, broken } = await Suites.load([resolve(input.path)]);
  if (input.case !== undefined && broken.length > 0)
    throw new CoreError(
      'BAD_INPUT',
      broken.flatMap((b) => b.problems.map((p) => describeProblem(b.file, p))).join('\n'),
    );
  const chosen = input.case === undefined ? suites : [onlyCase(suites, input.case)];
  const profiles = input.profile !== undefined ? [core.profile(input.profile)] : undefined;
  const runs = chosen.map((suite) => ({
    suite,
    targets: core.suites.targets(suite, { profiles, agents: input.agents }),
  }));
  const token = extra._meta?.progressToken;
  const result = await core.suites.run(runs, {
    ...(input.repeat !== undefined ? { repeat: input.repeat } : {}),
    broken,
    signal: extra.signal,
    onEvent: (event) => {
      if (token === undefined || event.type !== 'attempt-finished') return;
      void extra
        .sendNotification({
          method: 'notifications/progress',
          params: { progressToken: token, progress: event.done, total: event.total },
        })
        .catch(() => undefined);
    },
  });
  return suiteOutcome(result);
}

/** The one case of a suite file asked for, by key or name. */
function onlyCase(suites: readonly LoadedSuite[], ref: string): LoadedSuite {
  const [suite] = suites;
  if (suites.length !== 1 || !suite) {
    throw new CoreError('BAD_INPUT', 'Name one suite file to run one of its cases, not a folder.');
  }
  const cases = suite.cases.filter((c) => c.key === ref || c.name === ref);
  if (cases.length === 0) throw new CoreError('NOT_FOUND', `The suite "${suite.name}" has no case ${ref}.`);
  return { ...suite, cases };
}

/**
 * A run as an agent reads it: the totals, and per case × target its status and what failed, in
 * the words the CLI's reporter uses. The frames and replies of passing steps stay out: the kept
 * run, and `agent-console test --reporter json`, have them.
 */
function suiteOutcome(result: SuiteRunResult): unknown {
  return {
    status: result.status,
    totals: result.totals,
    duration_ms: result.durationMs,
    rate_limited: result.rateLimited,
    ...(result.broken?.length
      ? {
          broken_files: result.broken.map((b) => ({
            file: b.file,
            problems: b.problems.map((p) => describeProblem(b.file, p)),
          })),
        }
      : {}),
    cases: result.suites.flatMap((suite) =>
      suite.cells.map((cell) => ({
        suite: suite.name,
        file: suite.file,
        case: cell.caseName,
        case_key: cell.caseKey,
        line: cell.caseLine,
        target: targetLabel(cell),
        status: cell.status,
        attempts: cell.attempts.length,
        failures: cell.attempts.flatMap((attempt) =>
          attempt.steps.flatMap((step) =>
            step.checks
              .filter((check) => !check.passed)
              .map((check) => ({
                repeat: attempt.repeat,
                turn: step.index + 1,
                check: check.kind,
                line: check.line,
                expected: check.expected,
                actual: check.actual,
                description: describeCheck(check),
                ...(step.error ? { error: step.error } : {}),
              })),
          ),
        ),
      })),
    ),
  };
}
