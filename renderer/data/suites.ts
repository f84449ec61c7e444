// Agent test suites (suites:*): the open folder of suite files — its listing pushed again after
// every edit on disk —, runs started and cancelled, their progress as events, and "Save as test
// case". The Tests screen keeps the listing and the watched run in its store (tests-store.ts).
import type { BridgeInput, SuitesProgress } from '../../shared/bridge';
import type { FolderListing } from '../../shared/suite-folder';
import { bridge } from '../bridge';
import { readHarFile } from './har-file';

/** A typed folder, or (without one) the desktop's folder chooser; null when it was cancelled. */
export const openSuiteFolder = (path?: string): Promise<FolderListing | null> =>
  bridge.suites.open(path === undefined ? {} : { path });

export const listSuites = (): Promise<FolderListing | null> => bridge.suites.list({});

export const runSuites = (input: BridgeInput<'suites:run'>) => bridge.suites.run(input);

export const cancelSuiteRun = (runId: string) => bridge.suites.cancel({ runId });

// The run history's calls. The Tests screen's history and diff views are to be built on them;
// until then nothing in the renderer calls them, hence `@public` (tested through the bridge).

/** The run history, newest first: every kept run, the CLI's too. @public */
export const listRunHistory = () => bridge.suites.history({});

/** A whole kept run by its id. @public */
export const getKeptRun = (runId: string) => bridge.suites.historyRun({ runId });

/** What changed between two kept runs, cell by cell, with both runs' replies for a text diff. @public */
export const diffRuns = (base: string, head: string) => bridge.suites.diff({ base, head });

/** Written into the open folder: its listing comes back as `suites:changed`. */
export const saveCase = (input: BridgeInput<'suites:saveCase'>) => bridge.suites.saveCase(input);

/** A HAR file's chats as new suite files in the open folder: the listing comes back as `suites:changed`. */
export const importHarCases = async (file: File) => bridge.suites.importHar(await readHarFile(file));

export const onSuitesChanged = (listener: (listing: FolderListing) => void): (() => void) =>
  bridge.on('suites:changed', listener);

export const onSuiteProgress = (listener: (event: SuitesProgress) => void): (() => void) =>
  bridge.on('suites:progress', listener);
