// A run diff for a terminal: a line per changed cell (what became of it, its pass rate, its times
// with sample counts and whether a change is noise) and, where the replies differ, a word diff of
// them in git's `--word-diff` notation ([-gone-]{+new+}), made with jsdiff as the Tests screen's
// side-by-side view is.
import { diffWordsWithSpace } from 'diff';
import { cellHeadline, type CellDiff, type RunDiff, type TimingDelta } from '../../shared/run-history';

const WORD: Record<ReturnType<typeof cellHeadline>, string> = {
  slower: 'SLOWER',
  faster: 'faster',
  regression: 'REGRESSION',
  'new-failure': 'NEW, FAILING',
  'still-failing': 'still failing',
  fixed: 'fixed',
  added: 'new',
  removed: 'removed',
  unchanged: 'unchanged',
};

/** A word diff longer than this is cut: a terminal is no place for megabytes of replies. */
const WORD_DIFF_CLIP = 4_000;

const rate = (side: CellDiff['before']): string => (side ? `${side.passed}/${side.runs}` : '–');

function timing(label: string, delta: TimingDelta | undefined): string | undefined {
  if (!delta) return undefined;
  const sign = (ms: number): string => `${ms >= 0 ? '+' : ''}${ms} ms`;
  const { before, after } = delta;
  const verdict =
    delta.verdict === 'noise' ? `noise (${delta.why})` : `${delta.verdict.toUpperCase()} (${delta.why})`;
  return (
    `${label} p50 ${Math.round(before.p50)} → ${Math.round(after.p50)} ms (${sign(delta.p50DeltaMs)}), ` +
    `p95 ${Math.round(before.p95)} → ${Math.round(after.p95)} ms (${sign(delta.p95DeltaMs)}), ` +
    `samples ${before.samples}/${after.samples}: ${verdict}`
  );
}

/** git's word-diff notation; undefined when the replies are the same. */
function wordDiff(before: string, after: string): string | undefined {
  if (before === after) return undefined;
  const text = diffWordsWithSpace(before, after)
    .map((part) => (part.added ? `{+${part.value}+}` : part.removed ? `[-${part.value}-]` : part.value))
    .join('');
  return text.length > WORD_DIFF_CLIP ? `${text.slice(0, WORD_DIFF_CLIP)}… (cut)` : text;
}

function cellLines(cell: CellDiff): string[] {
  const word = WORD[cellHeadline(cell)];
  const lines = [
    `${word}: ${cell.suite} › ${cell.caseName} [${cell.target}]  passed ${rate(cell.before)} → ${rate(cell.after)}${cell.after?.flaky ? ' (flaky: repeats disagree)' : ''}`,
  ];
  for (const line of [timing('first chunk', cell.ttftMs), timing('total', cell.totalMs)]) {
    if (line) lines.push(`    ${line}`);
  }
  if (cell.judge) lines.push(`    judge ${cell.judge.before ?? '–'} → ${cell.judge.after ?? '–'}`);
  // A cell in one run only has nothing to compare its replies with.
  const turns =
    cell.before && cell.after ? Math.max(cell.replies.before.length, cell.replies.after.length) : 0;
  for (let turn = 0; turn < turns; turn++) {
    const diff = wordDiff(cell.replies.before[turn] ?? '', cell.replies.after[turn] ?? '');
    if (diff !== undefined) lines.push(`    reply${turns > 1 ? ` ${turn + 1}` : ''}: ${diff}`);
  }
  return lines;
}

function countsLine(diff: RunDiff): string {
  const { counts } = diff;
  const parts = [
    `${counts.regression} regression${counts.regression === 1 ? '' : 's'}`,
    `${counts['new-failure']} new failing`,
    `${counts.fixed} fixed`,
    `${counts['still-failing']} still failing`,
    `${counts.slower} slower`,
    `${counts.faster} faster`,
  ];
  if (counts.added) parts.push(`${counts.added} new`);
  if (counts.removed) parts.push(`${counts.removed} removed`);
  parts.push(`${counts.unchanged} unchanged`);
  return parts.join(', ');
}

/** The whole diff: what changed (everything with `all`), then the counts. */
export function diffText(diff: RunDiff, options: { all?: boolean } = {}): string {
  const shown = diff.cells.filter((c) => options.all || c.changed);
  const when = (ms: number): string => new Date(ms).toISOString().replace(/\.\d+Z$/, 'Z');
  const lines = [
    `${diff.base.runId} (${when(diff.base.startedAt)}) → ${diff.head.runId} (${when(diff.head.startedAt)})`,
    ...shown.flatMap(cellLines),
  ];
  if (shown.length === 0)
    lines.push('Nothing changed (timing changes within the spread of the repeats are noise).');
  lines.push(countsLine(diff));
  return lines.join('\n');
}
