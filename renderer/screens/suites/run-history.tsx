// The run history on the Tests screen: every kept run (the CLI's too) with when, where, what and
// its totals; two of them picked — the base and the one to compare — and what changed between
// them (run-diff-view.tsx). By default the newest run is compared with the one before it.
import { useState } from 'react';
import type { RunListItem } from '../../../shared/run-history';
import { ErrorMessage } from '../../components/error-message';
import { useRunHistory } from '../../data/suites';
import { RunDiffView } from './run-diff-view';

const when = (run: RunListItem): string => new Date(run.startedAt).toLocaleString();

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
        <div className="run-history-table">
          <table aria-label="Kept runs">
            <thead>
              <tr>
                <th scope="col">Base</th>
                <th scope="col">Compare</th>
                <th scope="col">When</th>
                <th scope="col">Where</th>
                <th scope="col">Suites</th>
                <th scope="col">Result</th>
                <th scope="col">Duration</th>
              </tr>
            </thead>
            <tbody>
              {runs.map((run) => (
                <tr key={run.runId} className={run.status === 'passed' ? '' : 'run-failed'}>
                  <td>
                    <input
                      type="radio"
                      name="run-base"
                      aria-label={`Base: the run of ${when(run)}`}
                      checked={run.runId === base}
                      onChange={() => setPicked({ head, base: run.runId })}
                    />
                  </td>
                  <td>
                    <input
                      type="radio"
                      name="run-head"
                      aria-label={`Compare: the run of ${when(run)}`}
                      checked={run.runId === head}
                      onChange={() => setPicked({ base, head: run.runId })}
                    />
                  </td>
                  <td>{when(run)}</td>
                  <td>{where(run)}</td>
                  <td>{what(run)}</td>
                  <td>{totals(run)}</td>
                  <td>{(run.durationMs / 1000).toFixed(1)} s</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      {base && head && base !== head ? <RunDiffView base={base} head={head} /> : null}
      {base && head && base === head ? <p className="muted">Pick two different runs to compare.</p> : null}
    </section>
  );
}
