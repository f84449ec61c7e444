// Agent test suites (suites:*): the open folder of suite files — its listing pushed again after
// every edit on disk —, runs started and cancelled, their progress as events, and "Save as test
// case". The Tests screen keeps the listing and the watched run in its store (tests-store.ts).
import type { BridgeInput, SuitesProgress } from '../../shared/bridge';
import type { FolderListing } from '../../shared/suite-folder';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { bridge } from '../bridge';
import { queryKeys } from './query-keys';
import { readHarFile } from './har-file';
import { useChange } from './change';

/** A typed folder, or (without one) the desktop's folder chooser; null when it was cancelled. */
export const openSuiteFolder = (path?: string): Promise<FolderListing | null> =>
  bridge.suites.open(path === undefined ? {} : { path });

export const listSuites = (): Promise<FolderListing | null> => bridge.suites.list({});

export const runSuites = (input: BridgeInput<'suites:run'>) => bridge.suites.run(input);

export const cancelSuiteRun = (runId: string) => bridge.suites.cancel({ runId });

/**
 * The run history, newest first: every kept run, the CLI's too. `latest` is the newest run this
 * window saw finish, so the list is read again when one does.
 */
export const useRunHistory = (latest: string) =>
  useQuery({
    queryKey: queryKeys.runHistory(latest),
    queryFn: () => bridge.suites.history({}),
    placeholderData: keepPreviousData,
  });

/** What changed between two kept runs, cell by cell, with both runs' replies for a text diff. */
export const useRunDiff = (base: string | undefined, head: string | undefined) =>
  useQuery({
    queryKey: queryKeys.runDiff(base ?? '', head ?? ''),
    queryFn: () => bridge.suites.diff({ base: base ?? '', head: head ?? '' }),
    enabled: base !== undefined && head !== undefined && base !== head,
  });

/** A kept run's human labels and each labelled judge's agreement with them (null: no such run). */
export const useRunCalibration = (runId: string | undefined) =>
  useQuery({
    queryKey: queryKeys.runCalibration(runId ?? ''),
    queryFn: () => bridge.suites.calibration({ runId: runId ?? '' }),
    enabled: runId !== undefined && runId !== '',
  });

/** A person's pass/fail on a judged attempt, kept with the run: its calibration is read again. */
export const useLabelAttempt = () =>
  useChange((input: BridgeInput<'suites:label'>) => bridge.suites.label(input), [['run-calibration']]);

/** Written into the open folder: its listing comes back as `suites:changed`. */
export const saveCase = (input: BridgeInput<'suites:saveCase'>) => bridge.suites.saveCase(input);
export const saveConversationCase = (input: BridgeInput<'suites:saveConversationCase'>) =>
  bridge.suites.saveConversationCase(input);

/** A HAR file's chats as new suite files in the open folder: the listing comes back as `suites:changed`. */
export const importHarCases = async (file: File) => bridge.suites.importHar(await readHarFile(file));

export const onSuitesChanged = (listener: (listing: FolderListing) => void): (() => void) =>
  bridge.on('suites:changed', listener);

export const onSuiteProgress = (listener: (event: SuitesProgress) => void): (() => void) =>
  bridge.on('suites:progress', listener);
