// A suite run as JUnit XML, the report every CI reads (Jenkins, GitLab, GitHub Actions reporters):
// one <testsuite> per suite file (one errored <testcase> for a file that does not load), one
// <testcase> per case × target × repeat, a <failure> carrying
// each failed assertion's line, expected and actual, an <error> when the exchange itself failed.
// Valid against test/fixtures/junit.xsd (checked with xmllint in the tests), a schema of the format
// as CI readers take it, stricter than most of them: junit-report-builder writes `skipped` on
// <testsuites>, which it refuses, so the document is built here and serialised (escaping) by
// fast-xml-parser.
import { XMLBuilder } from 'fast-xml-parser';
import {
  describeProblem,
  type AttemptResult,
  type BrokenSuite,
  type CellResult,
  type CheckResult,
  type SuiteRunResult,
} from '../../../shared/suite-run';

/** Characters XML 1.0 cannot carry at all (control characters, lone surrogates). */
/* eslint-disable no-control-regex -- finding control characters is the point */
const NOT_XML =
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
/* eslint-enable no-control-regex */

/** Text as XML can carry it: what it cannot becomes U+FFFD. */
function xmlText(text: string): string {
  return text.replace(NOT_XML, '\uFFFD');
}

const seconds = (ms: number): string => (ms / 1000).toFixed(3);

function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}… (${text.length} characters in all)` : text;
}

export function targetLabel(cell: Pick<CellResult, 'target'>): string {
  return `${cell.target.profileName} / ${cell.target.agent ?? 'default agent'}`;
}

/** "line 12 contains: expected …, actual …" — one failed check, as the CLI and JUnit print it. */
export function describeCheck(check: CheckResult): string {
  const what = check.kind === 'reply' ? 'reply' : check.kind;
  return `line ${check.line} ${what}: expected ${check.expected}, actual ${check.actual}`;
}

function failedChecks(attempt: AttemptResult): CheckResult[] {
  return attempt.steps.flatMap((s) => s.checks.filter((c) => !c.passed));
}

function stepLog(attempt: AttemptResult): string {
  const lines: string[] = [];
  if (attempt.sessionId) lines.push(`session ${attempt.sessionId}`);
  if (attempt.threadId) lines.push(`thread ${attempt.threadId}`);
  for (const step of attempt.steps) {
    lines.push(`turn ${step.index + 1} (line ${step.line}): ${JSON.stringify(clip(step.message, 200))}`);
    if (step.state !== 'done') {
      lines.push(`  not sent (${step.state})`);
      continue;
    }
    const timing = [
      step.status ? `HTTP ${step.status}` : 'no HTTP reply',
      step.streamed ? `${step.chunks} chunk${step.chunks === 1 ? '' : 's'}` : undefined,
      step.ttftMs !== undefined ? `first chunk ${Math.round(step.ttftMs)} ms` : undefined,
      step.totalMs !== undefined ? `total ${Math.round(step.totalMs)} ms` : undefined,
      step.requestId ? `request ${step.requestId}` : undefined,
    ].filter(Boolean);
    lines.push(`  ${timing.join(', ')}`);
    if (step.error) lines.push(`  error ${step.error.type ?? step.error.code}: ${step.error.message}`);
    lines.push(`  reply: ${JSON.stringify(clip(step.reply, 2_000))}`);
  }
  return lines.join('\n');
}

function testcase(suiteName: string, cell: CellResult, attempt: AttemptResult): Record<string, unknown> {
  const repeatTag = cell.attempts.length > 1 ? ` #${attempt.repeat}` : '';
  const node: Record<string, unknown> = {
    '@_classname': xmlText(suiteName),
    '@_name': xmlText(`${cell.caseName} [${targetLabel(cell)}]${repeatTag}`),
    '@_time': seconds(attempt.durationMs),
  };
  if (attempt.status === 'cancelled' || attempt.status === 'skipped') {
    node.skipped = {
      '@_message':
        attempt.status === 'cancelled' ? 'The run was cancelled.' : 'Not run: --bail stopped the run.',
    };
    return node;
  }
  const failures = failedChecks(attempt);
  if (failures.length > 0) {
    // The exchange itself failing (no whole reply, and no assertion expected that) is an error.
    const broken = failures.find((c) => c.kind === 'reply');
    const first = broken ?? (failures[0] as CheckResult);
    node[broken ? 'error' : 'failure'] = {
      '@_message': xmlText(clip(describeCheck(first), 500)),
      '@_type': first.kind,
      '#text': xmlText(failures.map(describeCheck).join('\n')),
    };
  }
  node['system-out'] = xmlText(stepLog(attempt));
  return node;
}

/** A file that did not load: a suite of one errored case, so CI counts it and shows its lines. */
function brokenTestsuite(broken: BrokenSuite, timestamp: string): Record<string, unknown> {
  const problems = broken.problems.map((p) => describeProblem(broken.file, p));
  return {
    '@_name': xmlText(broken.file),
    '@_tests': 1,
    '@_failures': 0,
    '@_errors': 1,
    '@_skipped': 0,
    '@_time': seconds(0),
    '@_timestamp': timestamp,
    '@_file': xmlText(broken.file),
    testcase: [
      {
        '@_classname': xmlText(broken.file),
        '@_name': 'the suite file loads',
        '@_time': seconds(0),
        error: {
          '@_message': xmlText(clip(problems[0] ?? 'The file does not load.', 500)),
          '@_type': 'suite-file',
          '#text': xmlText(problems.join('\n')),
        },
      },
    ],
  };
}

export function junitReport(result: SuiteRunResult): string {
  const timestamp = new Date(result.startedAt).toISOString().slice(0, 19);
  const broken = result.broken ?? [];
  let tests = broken.length;
  let failures = 0;
  let errors = broken.length;
  const suites = result.suites.map((suite) => {
    const cases = suite.cells.flatMap((cell) => cell.attempts.map((a) => testcase(suite.name, cell, a)));
    const count = (key: string): number => cases.filter((c) => key in c).length;
    const suiteMs = suite.cells.reduce((n, c) => n + c.attempts.reduce((m, a) => m + a.durationMs, 0), 0);
    tests += cases.length;
    failures += count('failure');
    errors += count('error');
    return {
      '@_name': xmlText(suite.name),
      '@_tests': cases.length,
      '@_failures': count('failure'),
      '@_errors': count('error'),
      '@_skipped': count('skipped'),
      '@_time': seconds(suiteMs),
      '@_timestamp': timestamp,
      '@_file': xmlText(suite.file),
      testcase: cases,
    };
  });
  const builder = new XMLBuilder({
    ignoreAttributes: false,
    attributeNamePrefix: '@_',
    textNodeName: '#text',
    format: true,
    suppressEmptyNode: true,
  });
  return builder.build({
    '?xml': { '@_version': '1.0', '@_encoding': 'UTF-8' },
    testsuites: {
      '@_name': 'agent-console test',
      '@_tests': tests,
      '@_failures': failures,
      '@_errors': errors,
      '@_time': seconds(result.durationMs),
      testsuite: [...broken.map((b) => brokenTestsuite(b, timestamp)), ...suites],
    },
  }) as string;
}
