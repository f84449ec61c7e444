// The Tests screen's state: the open folder's suites, the typed path, and the run being watched —
// its plan (the grid), each cell's state as `tests:progress` events arrive, the progress count and,
// at the end, the comparison of each suite with its previous run. Outside React, so leaving the
// screen and coming back keeps a run's grid.
import { create } from 'zustand';
import type { SuitesProgress } from '../../../shared/bridge';
import type { FolderListing, RunComparison } from '../../../shared/suite-folder';
import type { AttemptStatus, CellResult, RunPlan } from '../../../shared/suite-run';
import {
  cancelSuiteRun,
  listSuites,
  onSuiteProgress,
  onSuitesChanged,
  openSuiteFolder,
  runSuites,
} from '../../data/suites';

export type CellState = 'pending' | 'running' | AttemptStatus;

export interface RunView {
  runId: string;
  plan: RunPlan;
  done: number;
  total: number;
  finished: boolean;
  status?: 'passed' | 'failed' | 'cancelled';
  cells: Record<string, { state: CellState; result?: CellResult }>;
  comparisons?: Record<string, RunComparison | null>;
}

interface TestsState {
  listing: FolderListing | null;
  path: string;
  run?: RunView | undefined;
  openCellId?: string | undefined;
  /** The case "Save as test case" just wrote from a conversation: marked in the tree, to run and edit. */
  saved?: { file: string; caseName: string } | undefined;
}

const PATH_KEY = 'agent-console.tests.folder';

export const useTests = create<TestsState>(() => ({
  listing: null,
  path: localStorage.getItem(PATH_KEY) ?? '',
}));

export function showSaved(saved: { file: string; caseName: string }): void {
  useTests.setState({ saved });
}

export function setPath(path: string): void {
  useTests.setState({ path });
}

export async function openFolder(path?: string): Promise<void> {
  const listing = await openSuiteFolder(path);
  if (!listing) return;
  localStorage.setItem(PATH_KEY, listing.folder);
  useTests.setState({ listing, path: listing.folder });
}

function apply(run: RunView | undefined, event: SuitesProgress): RunView | undefined {
  if (event.type === 'run-started') {
    const cells: RunView['cells'] = {};
    for (const suite of event.plan.suites) for (const c of suite.cells) cells[c.id] = { state: 'pending' };
    return {
      runId: event.plan.runId,
      plan: event.plan,
      done: 0,
      total: event.plan.totalAttempts,
      finished: false,
      cells,
    };
  }
  if (!run) return run;
  const runId = event.type === 'run-finished' ? event.result.runId : event.runId;
  if (runId !== run.runId) return run;
  switch (event.type) {
    case 'attempt-started': {
      const cell = run.cells[event.cellId];
      if (!cell || cell.state !== 'pending') return run;
      return { ...run, cells: { ...run.cells, [event.cellId]: { state: 'running' } } };
    }
    case 'attempt-finished':
      return { ...run, done: event.done, total: event.total };
    case 'cell-finished':
      return {
        ...run,
        cells: { ...run.cells, [event.cell.id]: { state: event.cell.status, result: event.cell } },
      };
    case 'run-finished':
      return { ...run, finished: true, status: event.result.status, comparisons: event.comparisons };
  }
}

let wired = false;
/** Follows the core's events once: edits on disk and run progress. */
export function wireTestsEvents(): void {
  if (wired) return;
  wired = true;
  onSuitesChanged((listing) => useTests.setState({ listing }));
  onSuiteProgress((event) => useTests.setState((s) => ({ run: apply(s.run, event) })));
  void listSuites().then((listing) => {
    if (listing) useTests.setState({ listing, path: listing.folder });
  });
}

export async function startRun(input: { file?: string; caseKey?: string }): Promise<void> {
  useTests.setState({ openCellId: undefined });
  await runSuites(input);
}

export async function cancelRun(): Promise<void> {
  const run = useTests.getState().run;
  if (run && !run.finished) await cancelSuiteRun(run.runId);
}

export function openCell(id: string | undefined): void {
  useTests.setState({ openCellId: id });
}
