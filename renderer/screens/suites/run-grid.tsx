// A run as it fills: the progress bar, then per suite a grid of cases × targets whose cells change
// as their attempts finish; a finished cell opens its exchange. At the end, each suite's comparison
// with its previous run (new failures, fixed, slower).
import type { CellRef, RunComparison } from '../../../shared/suite-folder';
import type { BrokenSuite } from '../../../shared/suite-run';
import { Problems } from './suite-tree';
import { cancelRun, openCell, type CellState, type RunView } from './tests-store';

const LABEL: Record<CellState, string> = {
  pending: 'waiting',
  running: 'running',
  passed: 'passed',
  failed: 'failed',
  cancelled: 'cancelled',
  skipped: 'skipped',
};
const MARK: Record<CellState, string> = {
  pending: '·',
  running: '…',
  passed: '✓',
  failed: '✗',
  cancelled: '–',
  skipped: '–',
};

const baseName = (file: string): string => file.split(/[\\/]/).pop() ?? file;

function Progress({ run }: { run: RunView }) {
  const percent = run.total === 0 ? 100 : Math.round((run.done / run.total) * 100);
  return (
    <div className="tests-progress">
      <progress
        max={run.total}
        value={run.done}
        aria-label="Run progress"
        aria-valuetext={`${run.done} of ${run.total}`}
      />
      <span data-testid="run-progress">
        {run.done} of {run.total} attempts ({percent}%)
        {run.finished ? ` · ${run.status}` : ''}
      </span>
      {run.finished ? null : (
        <button type="button" className="secondary small" onClick={() => void cancelRun()}>
          Cancel
        </button>
      )}
    </div>
  );
}

function Changes({
  title,
  className,
  cells,
}: {
  title: string;
  className: string;
  cells: (CellRef & { note?: string })[];
}) {
  if (cells.length === 0) return null;
  return (
    <div className={className}>
      <strong>
        {title} ({cells.length}):
      </strong>
      <ul aria-label={title}>
        {cells.map((c) => (
          <li key={`${c.caseKey}@${c.target}`}>
            {c.caseName} <span className="muted">[{c.target}]</span>
            {c.note ? ` ${c.note}` : ''}
          </li>
        ))}
      </ul>
    </div>
  );
}

function Comparison({ file, comparison }: { file: string; comparison: RunComparison | null | undefined }) {
  if (comparison === undefined) return null;
  if (comparison === null) {
    return <p className="muted tests-compare">First kept run of {file}: nothing to compare with yet.</p>;
  }
  const when = new Date(comparison.previousAt).toLocaleString();
  const nothing = comparison.newFailures.length + comparison.fixed.length + comparison.slower.length === 0;
  return (
    <div className="tests-compare" aria-label={`Compared with the previous run of ${file}`}>
      <strong>Against the previous run</strong> <span className="muted">({when})</span>
      {nothing ? <span> — no new failures, nothing fixed, nothing slower.</span> : null}
      <Changes title="New failures" className="tests-compare-bad" cells={comparison.newFailures} />
      <Changes title="Fixed" className="tests-compare-ok" cells={comparison.fixed} />
      <Changes
        title={`Slower by more than ${comparison.slowerPercent}%`}
        className="tests-compare-warn"
        cells={comparison.slower.map((c) => ({
          ...c,
          note: `${c.beforeMs} → ${c.afterMs} ms (+${c.percent}%)`,
        }))}
      />
    </div>
  );
}

/** A suite file that did not load: one failing row of the run, its problems by line; the rest ran. */
function BrokenRow({ broken }: { broken: BrokenSuite }) {
  const file = baseName(broken.file);
  return (
    <div className="card tests-grid-card tests-broken" data-testid="broken-suite" data-file={file}>
      <h3>
        <span className="tests-cell-failed tests-broken-mark">
          <span aria-hidden="true">{MARK.failed}</span> failed
        </span>{' '}
        {file} <span className="muted">does not load</span>
      </h3>
      <Problems file={file} problems={broken.problems} />
    </div>
  );
}

export function RunGrid({ run, openCellId }: { run: RunView; openCellId: string | undefined }) {
  return (
    <section className="tests-run" aria-label="Run">
      <Progress run={run} />
      {run.plan.broken?.map((broken) => (
        <BrokenRow key={broken.file} broken={broken} />
      ))}
      {run.plan.suites.map((suite) => (
        <div key={suite.file} className="card tests-grid-card">
          <h2>
            {suite.name} <span className="muted">{baseName(suite.file)}</span>
          </h2>
          <Comparison file={baseName(suite.file)} comparison={run.comparisons?.[baseName(suite.file)]} />
          <table className="tests-grid" aria-label={`Results of ${suite.name}`}>
            <thead>
              <tr>
                <th scope="col">Case</th>
                {suite.targets.map((t) => (
                  <th key={t.key} scope="col">
                    {t.profileName} / {t.agent ?? 'default agent'}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {suite.cases.map((c) => (
                <tr key={c.key}>
                  <th scope="row">
                    {c.name} <span className="muted">line {c.line}</span>
                  </th>
                  {suite.targets.map((t) => {
                    const id = suite.cells.find((x) => x.caseKey === c.key && x.targetKey === t.key)?.id;
                    const cell = id ? run.cells[id] : undefined;
                    const state = cell?.state ?? 'pending';
                    return (
                      <td key={t.key}>
                        {id ? (
                          <button
                            type="button"
                            className={`tests-cell tests-cell-${state}`}
                            data-testid="test-cell"
                            data-state={state}
                            aria-pressed={openCellId === id}
                            disabled={!cell?.result}
                            aria-label={`${c.name} on ${t.agent ?? 'default agent'}: ${LABEL[state]}`}
                            onClick={() => openCell(id)}
                          >
                            <span aria-hidden="true">{MARK[state]}</span> {LABEL[state]}
                            {cell?.result?.stats.totalMs ? (
                              <span className="tests-cell-ms"> {cell.result.stats.totalMs.p50} ms</span>
                            ) : null}
                          </button>
                        ) : null}
                      </td>
                    );
                  })}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ))}
    </section>
  );
}
