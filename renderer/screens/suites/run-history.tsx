// The run history on the Tests screen: every kept run (the CLI's too) with when, where, what and
// its totals; two of them picked — the base and the one to compare — and what changed between
// them (run-diff-view.tsx). By default the newest run is compared with the one before it.
import { useState } from 'react';
import type { RunListItem } from '../../../shared/run-history';
import { ErrorMessage } from '../../components/error-message';
import { useRunHistory } from '../../data/suites';
import { RunDiffView } from './run-diff-view';

const when = (run: RunListItem): string =>
  new Date(run.startedAt).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'medium' });

function where(run: RunListItem): string {
  return run.where.profiles.map((p) => `${p.name} (${p.host})`).join(', ') || '—';
}

function what(run: RunListItem): string {
  const names = run.what.files.map((f) => f.name).join(', ');
  const commit = run.what.files.find((f) => f.commit)?.commit;
  return commit ? `${names} @ ${commit.slice(0, 7)}` : names;
}

function totals(run: RunListItem): string {
  const { passed, failed } = run.totals;
  return `${passed} passed, ${failed} failed`;
}

export function RunHistory({ latest }: { latest: string }) {
  const history = useRunHistory(latest);
  const runs = history.data ?? [];
  const [picked, setPicked] = useState<{ base?: string; head?: string }>({});
  const kept = (id: string | undefined) => (id && runs.some((r) => r.runId === id) ? id : undefined);
  const head = kept(picked.head) ?? runs[0]?.runId;
  const base = kept(picked.base) ?? runs.find((r) => r.runId !== head)?.runId;
  return (
    <section className="card run-history" aria-labelledby="run-history-title">
      <h2 id="run-history-title">Run history</h2>
      {history.error ? (
        <ErrorMessage error={history.error} title="The run history could not be read." />
      ) : null}
      {runs.length === 0 && !history.isPending ? (
        <p className="muted">
          Every run is kept here, the command line’s too: run twice to see what changed between them.
        </p>
      ) : null}
      {runs.length > 0 ? (
        <ul className="kept-runs" aria-label="Kept runs">
          {runs.map((run) => (
            <li key={run.runId} className={run.status === 'passed' ? 'kept-run' : 'kept-run run-failed'}>
              <span className="kept-run-picks">
                <label>
                  <input
                    type="radio"
                    name="run-base"
                    aria-label={`Base: the run of ${when(run)}`}
                    checked={run.runId === base}
                    onChange={() => setPicked({ head, base: run.runId })}
                  />
                  Base
                </label>
                <label>
                  <input
                    type="radio"
                    name="run-head"
                    aria-label={`Compare: the run of ${when(run)}`}
                    checked={run.runId === head}
                    onChange={() => setPicked({ base, head: run.runId })}
                  />
                  Compare
                </label>
              </span>
              <strong>{when(run)}</strong>
              <span>{what(run)}</span>
              <span className="muted">{where(run)}</span>
              <span className="kept-run-result">
                {totals(run)} in {(run.durationMs / 1000).toFixed(1)} s
              </span>
            </li>
          ))}
        </ul>
      ) : null}
      {base && head && base !== head ? <RunDiffView base={base} head={head} /> : null}
      {base && head && base === head ? <p className="muted">Pick two different runs to compare.</p> : null}
    </section>
  );
}
