// A run as a Markdown summary sized for a pull request comment or `$GITHUB_STEP_SUMMARY`: what the
// gate names first (regressions, new failures), then what got slower, a table of totals, a link to
// the HTML report. GitHub refuses a comment or step summary past 65,536 characters, so it is cut
// under MAX_MARKDOWN_CHARS with a line that says so. Every text of the run is escaped: a reply is
// data, never markup.
import type { CellDiff, KeptRun, RunDiff } from '../../../shared/run-history';
import type { CellResult, CheckResult } from '../../../shared/suite-run';
import { describeCheck, targetLabel } from './junit-report';
import { gateRegressions } from './run-diff';

export const MAX_MARKDOWN_CHARS = 60_000;
/** One line of a list or table cell: longer text is cut. */
const LINE_CLIP = 300;

/** Text that reads as itself in GitHub's Markdown: no markup, no HTML, one line. */
export function markdownText(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  const clipped = line.length > LINE_CLIP ? `${line.slice(0, LINE_CLIP)}…` : line;
  return clipped
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/([\\`*_{}[\]()#+\-.!|~])/g, '\\$1');
}

function firstFailure(cell: CellResult | undefined): CheckResult | undefined {
  return cell?.attempts.flatMap((a) => a.steps.flatMap((s) => s.checks)).find((c) => !c.passed);
}

function cellsByKey(run: KeptRun): Map<string, CellResult> {
  const name = (file: string): string => file.split(/[\\/]/).pop() ?? file;
  return new Map(
    run.suites.flatMap((s) =>
      s.cells.map((c) => [JSON.stringify([name(s.file), c.caseKey, targetLabel(c)]), c] as const),
    ),
  );
}

function diffItem(d: CellDiff, cell: CellResult | undefined): string {
  const rate = (side: CellDiff['before']): string => (side ? `${side.passed}/${side.runs}` : 'new');
  const failure = firstFailure(cell);
  return (
    `- **${markdownText(d.suite)} › ${markdownText(d.caseName)}** \\[${markdownText(d.target)}\\] — passed ${rate(d.before)} → ${rate(d.after)}` +
    (failure ? `: ${markdownText(describeCheck(failure))}` : '')
  );
}

function slowItem(d: CellDiff): string {
  const times = [d.ttftMs && ['first chunk', d.ttftMs], d.totalMs && ['total', d.totalMs]]
    .filter((t): t is [string, NonNullable<CellDiff['ttftMs']>] => Boolean(t) && t !== undefined)
    .filter(([, t]) => t.verdict === 'slower')
    .map(
      ([label, t]) =>
        `${label} p50 ${Math.round(t.before.p50)} → ${Math.round(t.after.p50)} ms (${t.before.samples}/${t.after.samples} samples)`,
    );
  return `- ${markdownText(d.suite)} › ${markdownText(d.caseName)} \\[${markdownText(d.target)}\\]: ${times.join(', ')}`;
}

export function markdownReport(run: KeptRun, options: { diff?: RunDiff; reportUrl?: string } = {}): string {
  const { diff } = options;
  const cells = cellsByKey(run);
  const key = (d: CellDiff): string => JSON.stringify([d.file, d.caseKey, d.target]);
  const regressions = diff ? gateRegressions(diff) : [];
  const failing = run.suites.flatMap((s) =>
    s.cells.filter((c) => c.status === 'failed').map((c) => ({ s, c })),
  );
  const t = run.totals;
  const title = diff
    ? regressions.length > 0
      ? `❌ Agent tests: ${regressions.length} regression${regressions.length === 1 ? '' : 's'}`
      : `✅ Agent tests: no regressions`
    : t.failed > 0 || run.broken?.length
      ? `❌ Agent tests: ${t.failed} failed`
      : `✅ Agent tests: all passed`;
  const sections: string[][] = [[`## ${title}`, '']];
  if (diff) {
    if (regressions.length > 0) {
      sections.push(['### Regressions', '', ...regressions.map((d) => diffItem(d, cells.get(key(d)))), '']);
    }
    const slower = diff.cells.filter(
      (d) => d.ttftMs?.verdict === 'slower' || d.totalMs?.verdict === 'slower',
    );
    if (slower.length > 0) sections.push(['### Slower', '', ...slower.map(slowItem), '']);
    const fixed = diff.cells.filter((d) => d.change === 'fixed');
    if (fixed.length > 0)
      sections.push(['### Fixed', '', ...fixed.map((d) => diffItem(d, cells.get(key(d)))), '']);
  } else if (failing.length > 0) {
    sections.push([
      '### Failures',
      '',
      ...failing.map(({ s, c }) => {
        const failure = firstFailure(c);
        return `- **${markdownText(s.name)} › ${markdownText(c.caseName)}** \\[${markdownText(targetLabel(c))}\\]${failure ? `: ${markdownText(describeCheck(failure))}` : ''}`;
      }),
      '',
    ]);
  }
  const totals = [
    '| | attempts | passed | failed | cancelled | skipped |',
    '|---|---:|---:|---:|---:|---:|',
    `| this run | ${t.attempts} | ${t.passed} | ${t.failed} | ${t.cancelled} | ${t.skipped} |`,
  ];
  if (diff) {
    const c = diff.counts;
    totals.push(
      '',
      `Against ${markdownText(diff.base.runId)}: ${c.regression} regressed, ${c['new-failure']} new failing, ${c.fixed} fixed, ${c['still-failing']} still failing, ${c.slower} slower; timing changes within the spread of the repeats are noise.`,
    );
  }
  if (run.broken?.length) totals.push('', `${run.broken.length} suite file(s) did not load.`);
  if (options.reportUrl)
    totals.push(
      '',
      `[The full HTML report](${encodeURI(options.reportUrl.slice(0, 2000)).replace(/[()]/g, encodeURIComponent)})`,
    );
  return capped(sections, ['### Totals', '', ...totals, '']);
}

/** The sections in order, line by line, until the next line would leave no room for the totals. */
function capped(sections: string[][], tail: string[]): string {
  const lines = sections.flat();
  const end = tail.join('\n');
  const room = MAX_MARKDOWN_CHARS - end.length - 300;
  const out: string[] = [];
  let size = 0;
  for (const [index, line] of lines.entries()) {
    if (size + line.length + 1 > room) {
      out.push(
        `_Cut here: ${lines.length - index} more lines did not fit a summary; the HTML and JSON reports have them all._`,
        '',
      );
      break;
    }
    out.push(line);
    size += line.length + 1;
  }
  return `${out.join('\n')}\n${end}\n`;
}
