// The Tests screen: a folder of suite files, watched for edits; Run all / a suite / a
// case; the grid of cases × targets filling live with a progress bar; a cell opened with its
// exchange, assertions and stream inspector; the comparison with the previous run of each suite;
// the run history, and what changed between any two kept runs.
import { useEffect, useState } from 'react';
import { ErrorMessage } from '../../components/error-message';
import { useRunHistory } from '../../data/suites';
import { CalibrationPanel } from './calibration-panel';
import { CellDetail } from './cell-detail';
import { FolderBar } from './folder-bar';
import { RunGrid } from './run-grid';
import { RunHistory } from './run-history';
import { SuiteTree } from './suite-tree';
import { startRun, useTests, wireTestsEvents } from './tests-store';
import './tests.css';
import { ScreenHeading } from '../../shell/screen-heading';

export function TestsScreen() {
  const { listing, run, openCellId, saved } = useTests();
  const [error, setError] = useState<unknown>();
  useEffect(() => wireTestsEvents(), []);
  const busy = run !== undefined && !run.finished;
  const open = openCellId && run ? run.cells[openCellId]?.result : undefined;
  // After a restart no run is on screen: the newest kept run's calibration is shown.
  const newest = useRunHistory('').data?.[0]?.runId;
  function onRun(input: { file?: string; caseKey?: string }) {
    setError(undefined);
    startRun(input).catch(setError);
  }
  return (
    <section className="screen tests-screen">
      <div className="screen-head">
        <ScreenHeading>Tests</ScreenHeading>
        {listing ? (
          <button type="button" disabled={busy || listing.suites.length === 0} onClick={() => onRun({})}>
            Run all
          </button>
        ) : null}
      </div>
      <FolderBar />
      {error ? <ErrorMessage error={error} title="The run did not start." /> : null}
      {listing ? (
        <div className="tests-layout">
          <aside className="card tests-side">
            <SuiteTree suites={listing.suites} busy={busy} onRun={onRun} saved={saved} />
          </aside>
          <div className="tests-main">
            {run ? (
              <RunGrid run={run} openCellId={openCellId} />
            ) : (
              <p className="muted">
                Run all, a suite or a case: results fill a grid of cases × targets here.
              </p>
            )}
            {open ? <CellDetail cell={open} runId={run?.finished ? run.runId : undefined} /> : null}
            <CalibrationPanel runId={run?.finished ? run.runId : newest} />
            <RunHistory latest={run?.finished ? run.runId : ''} />
          </div>
        </div>
      ) : (
        <p className="muted">
          Open a folder of suite files (YAML, one suite per file, as <code>agent-console test</code> reads
          them), for example the <code>examples/agent-tests</code> folder of this project.
        </p>
      )}
    </section>
  );
}
