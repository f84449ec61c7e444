// How `agent-console test` reports: a line per attempt as it finishes (failures with their line,
// expected and actual right under it), a summary with repeat statistics (and what changed against
// a baseline, regressions first), and the whole result as JUnit XML, JSON, a Markdown summary or
// one self-contained HTML file for CI.
import type { KeptRun, RunDiff } from '../../shared/run-history';
import type { AttemptResult, SuiteRunEvent, SuiteRunResult } from '../../shared/suite-run';
import { describeCheck, junitReport, targetLabel } from '../core/suites/junit-report';
import { diffText } from './test-diff-text';

export const REPORTERS = ['pretty', 'junit', 'json', 'markdown', 'html'] as const;
export type ReporterName = (typeof REPORTERS)[number];

/** What `--fail-on` may name: exit 1 for any failure, or only for a regression against the baseline. */
export const FAIL_ON = ['any-failure', 'regression'] as const;

const MARK: Record<AttemptResult['status'], string> = {
  passed: '✓',
  failed: '✗',
  cancelled: '-',
  skipped: '-',
};

interface CellLabel {
  suite: string;
  name: string;
  attempts: number;
}

function attemptLine(cell: CellLabel, attempt: AttemptResult): string {
  const repeat = cell.attempts > 1 ? ` #${attempt.repeat}` : '';
  const time =
    attempt.status === 'passed' || attempt.status === 'failed'
      ? `  ${attempt.durationMs} ms`
      : ` (${attempt.status})`;
  const lines = [`${MARK[attempt.status]} ${cell.suite} › ${cell.name}${repeat}${time}`];
  for (const step of attempt.steps) {
    for (const check of step.checks) {
      if (!check.passed) lines.push(`    ${describeCheck(check)}`);
    }
  }
  return lines.join('\n');
}

/** Follows the run's events and writes a line per finished attempt. */
export function liveReporter(write: (text: string) => void): (event: SuiteRunEvent) => void {
  const cells = new Map<string, CellLabel>();
  return (event) => {
    if (event.type === 'run-started') {
      for (const suite of event.plan.suites) {
        for (const cell of suite.cells) {
          const name = suite.cases.find((c) => c.key === cell.caseKey)?.name ?? cell.caseKey;
          const target = suite.targets.find((t) => t.key === cell.targetKey);
          cells.set(cell.id, {
            suite: suite.name,
            name: target ? `${name} [${targetLabel({ target })}]` : name,
            attempts: cell.attempts,
          });
        }
      }
      const { totalAttempts: n, suites } = event.plan;
      write(
        `Running ${n} attempt${n === 1 ? '' : 's'} from ${suites.length} suite file${suites.length === 1 ? '' : 's'}`,
      );
    } else if (event.type === 'attempt-finished') {
      const cell = cells.get(event.cellId) ?? { suite: '', name: event.cellId, attempts: 1 };
      write(attemptLine(cell, event.attempt));
    }
  };
}

function repeatLines(result: SuiteRunResult): string[] {
  const lines: string[] = [];
  for (const suite of result.suites) {
    for (const cell of suite.cells) {
      if (cell.attempts.length < 2) continue;
      const { stats } = cell;
      const timing = [
        stats.ttftMs
          ? `first chunk p50 ${Math.round(stats.ttftMs.p50)} ms, p95 ${Math.round(stats.ttftMs.p95)} ms`
          : '',
        stats.totalMs
          ? `total p50 ${Math.round(stats.totalMs.p50)} ms, p95 ${Math.round(stats.totalMs.p95)} ms`
          : '',
      ].filter(Boolean);
      lines.push(
        `  ${suite.name} › ${cell.caseName} [${targetLabel(cell)}]: ${stats.passed}/${stats.runs} passed${stats.flaky ? ' (flaky)' : ''}${timing.length ? `; ${timing.join('; ')}` : ''}`,
      );
    }
  }
  return lines.length > 0 ? ['Repeats:', ...lines] : [];
}

/** The end of a run for people: with a baseline, what changed against it first (regressions first). */
export function summary(result: SuiteRunResult, diff?: RunDiff): string {
  const t = result.totals;
  const parts = [`${t.passed} passed`, `${t.failed} failed`];
  if (t.cancelled) parts.push(`${t.cancelled} cancelled`);
  if (t.skipped) parts.push(`${t.skipped} skipped (--bail)`);
  const broken = result.broken?.length ?? 0;
  const lines = [
    ...(diff ? ['Against the baseline:', diffText(diff), ''] : []),
    ...repeatLines(result),
    ...(broken > 0
      ? [`${broken} suite file${broken === 1 ? '' : 's'} did not load (problems above): the run exits 2.`]
      : []),
    `${parts.join(', ')} — ${t.attempts} attempt${t.attempts === 1 ? '' : 's'} in ${(result.durationMs / 1000).toFixed(1)} s`,
  ];
  if (result.rateLimited > 0) {
    lines.push(
      `The service refused ${result.rateLimited} request${result.rateLimited === 1 ? '' : 's'} with 429 (is another client using this key?); each was sent again when the limiter allowed.`,
    );
  }
  return lines.join('\n');
}

/** What a report is made of: the run (regressions first), and with a baseline its diff. */
export interface ReportInput {
  run: KeptRun;
  diff?: RunDiff;
  /** Where the HTML report will be (a CI artifact's page), for the markdown report's link. */
  reportUrl?: string;
}

export async function report({ run, diff, reportUrl }: ReportInput, reporter: ReporterName): Promise<string> {
  if (reporter === 'junit') return junitReport(run);
  if (reporter === 'json') return JSON.stringify(diff ? { ...run, diff } : run, null, 2);
  if (reporter === 'markdown') {
    const { markdownReport } = await import('../core/suites/markdown-report');
    return markdownReport(run, { diff, reportUrl });
  }
  if (reporter === 'html') {
    const { htmlReport } = await import('../core/suites/html-report');
    return htmlReport(run, { diff });
  }
  return summary(run, diff);
}
