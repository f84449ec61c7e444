// What changed from one kept run to another, cell by cell (case × target), as the core's diff
// says it (suites:diff): regressions first, then fixes, slowdowns and the rest; "Only what
// changed" by default. ↓/↑ (or j/k) move from one change to the next; the open one shows its
// status, pass rate and timings in both runs, and both replies side by side, word by word.
import { diffWords } from 'diff';
import { useRef, useState, type KeyboardEvent } from 'react';
import { cellHeadline, type CellDiff, type TimingDelta } from '../../../shared/run-history';
import { ErrorMessage } from '../../components/error-message';
import { useRunDiff } from '../../data/suites';

const HEADLINES: Record<ReturnType<typeof cellHeadline>, string> = {
  regression: 'Regression',
  'new-failure': 'New failure',
  fixed: 'Fixed',
  'still-failing': 'Still failing',
  added: 'Added',
  removed: 'Removed',
  slower: 'Slower',
  faster: 'Faster',
  unchanged: 'Unchanged',
};

function side(s: CellDiff['before']): string {
  if (!s) return 'not in this run';
  return `${s.status}, ${s.passed}/${s.runs} passed${s.flaky ? ' (flaky)' : ''}`;
}

function Timing({ label, delta }: { label: string; delta: TimingDelta | undefined }) {
  if (!delta) return null;
  const sign = (ms: number) => `${ms > 0 ? '+' : ''}${Math.round(ms)} ms`;
  return (
    <>
      <dt>{label}</dt>
      <dd>
        p50 {Math.round(delta.before.p50)} → {Math.round(delta.after.p50)} ms ({sign(delta.p50DeltaMs)}), p95{' '}
        {Math.round(delta.before.p95)} → {Math.round(delta.after.p95)} ms:{' '}
        <strong>{delta.verdict === 'noise' ? 'noise' : delta.verdict}</strong> — {delta.why}
      </dd>
    </>
  );
}

const NO_REPLY = <span className="muted">(no reply)</span>;

/** Both replies, the words only one of them has marked. */
function Replies({ before, after }: { before: string; after: string }) {
  const parts = diffWords(before, after);
  return (
    <div className="reply-diff">
      <div>
        <h4>Before</h4>
        <p className="reply-text">
          {before === '' ? NO_REPLY : null}
          {parts
            .filter((p) => !p.added)
            .map((p, i) => (p.removed ? <del key={i}>{p.value}</del> : <span key={i}>{p.value}</span>))}
        </p>
      </div>
      <div>
        <h4>After</h4>
        <p className="reply-text">
          {after === '' ? NO_REPLY : null}
          {parts
            .filter((p) => !p.removed)
            .map((p, i) => (p.added ? <ins key={i}>{p.value}</ins> : <span key={i}>{p.value}</span>))}
        </p>
      </div>
    </div>
  );
}

function CellChange({ cell }: { cell: CellDiff }) {
  return (
    <div className="cell-change" aria-label="The change">
      <h3>
        {cell.suite} › {cell.caseName} <span className="muted">[{cell.target}]</span>
      </h3>
      <dl className="facts">
        <dt>Before</dt>
        <dd>{side(cell.before)}</dd>
        <dt>After</dt>
        <dd>{side(cell.after)}</dd>
        <Timing label="First chunk" delta={cell.ttftMs} />
        <Timing label="Total" delta={cell.totalMs} />
        {cell.judge ? (
          <>
            <dt>Judge</dt>
            <dd>
              {cell.judge.before ?? '—'} → {cell.judge.after ?? '—'}
            </dd>
          </>
        ) : null}
      </dl>
      <Replies before={cell.replies.before.join('\n\n')} after={cell.replies.after.join('\n\n')} />
    </div>
  );
}

export function RunDiffView({ base, head }: { base: string; head: string }) {
  const diff = useRunDiff(base, head);
  const [all, setAll] = useState(false);
  const [openIndex, setOpenIndex] = useState(0);
  const buttons = useRef<(HTMLButtonElement | null)[]>([]);
  const cells = diff.data?.cells.filter((c) => all || c.changed) ?? [];
  const open = cells[Math.min(openIndex, cells.length - 1)];
  function move(to: number) {
    const next = Math.max(0, Math.min(cells.length - 1, to));
    setOpenIndex(next);
    buttons.current[next]?.focus();
  }
  function onKeyDown(e: KeyboardEvent) {
    if (e.key === 'ArrowDown' || e.key === 'j') move(openIndex + 1);
    else if (e.key === 'ArrowUp' || e.key === 'k') move(openIndex - 1);
    else return;
    e.preventDefault();
  }
  if (diff.error) return <ErrorMessage error={diff.error} title="The runs could not be compared." />;
  if (!diff.data) return <p className="muted">Comparing…</p>;
  const counts = diff.data.counts;
  return (
    <div className="run-diff">
      <div className="run-diff-head">
        <p role="status">
          {counts.regression} regressions, {counts['new-failure']} new failures, {counts.fixed} fixed,{' '}
          {counts.slower} slower, {counts.faster} faster
        </p>
        <label className="checkbox">
          <input type="checkbox" checked={!all} onChange={(e) => setAll(!e.target.checked)} />
          Only what changed
        </label>
      </div>
      {cells.length === 0 ? (
        <p className="muted">Nothing changed between these runs beyond noise.</p>
      ) : (
        <div className="run-diff-body">
          <ol
            className="run-diff-cells"
            aria-label="Changes (↓ and ↑ move between them)"
            onKeyDown={onKeyDown}
          >
            {cells.map((cell, i) => {
              const headline = cellHeadline(cell);
              return (
                <li key={`${cell.file}/${cell.caseKey}/${cell.target}`}>
                  <button
                    type="button"
                    ref={(el) => {
                      buttons.current[i] = el;
                    }}
                    aria-current={cell === open ? 'true' : undefined}
                    onClick={() => setOpenIndex(i)}
                  >
                    <span className={`diff-badge diff-${headline}`}>{HEADLINES[headline]}</span>
                    {cell.caseName} <span className="muted cell-target">{cell.target}</span>
                  </button>
                </li>
              );
            })}
          </ol>
          {open ? <CellChange cell={open} /> : null}
        </div>
      )}
    </div>
  );
}
