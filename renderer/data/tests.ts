// Agent test suites (tests:*): the open folder of suite files — its listing pushed again after
// every edit on disk —, runs started and cancelled, their progress as events, and "Save as test
// case". The Tests screen keeps the listing and the watched run in its store (tests-store.ts).
import type { BridgeInput, TestsProgress } from '../../shared/bridge';
import type { FolderListing } from '../../shared/suite-folder';
import { bridge } from '../bridge';

/** A typed folder, or (without one) the desktop's folder chooser; null when it was cancelled. */
export const openSuiteFolder = (path?: string): Promise<FolderListing | null> =>
  bridge.tests.open(path === undefined ? {} : { path });

export const listSuites = (): Promise<FolderListing | null> => bridge.tests.list({});

export const runSuites = (input: BridgeInput<'tests:run'>) => bridge.tests.run(input);

export const cancelSuiteRun = (runId: string) => bridge.tests.cancel({ runId });

/** Written into the open folder: its listing comes back as `tests:changed`. */
export const saveCase = (input: BridgeInput<'tests:saveCase'>) => bridge.tests.saveCase(input);

export const onSuitesChanged = (listener: (listing: FolderListing) => void): (() => void) =>
  bridge.on('tests:changed', listener);

export const onSuiteProgress = (listener: (event: TestsProgress) => void): (() => void) =>
  bridge.on('tests:progress', listener);
