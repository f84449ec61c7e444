// The request log as the core pushes it (log:list, log:added, log:cleared): the live store
// (stores/live.ts) keeps its rows from the first screen on. What the Log screen reads and changes
// besides is in log.ts, loaded with that screen.
import type { RequestLogEntry } from '../../shared/request-log-entry';
import { bridge } from '../bridge';

export const listLog = (): Promise<RequestLogEntry[]> => bridge.log.list({});

export const onLogAdded = (listener: (entry: RequestLogEntry) => void): (() => void) =>
  bridge.on('log:added', listener);

export const onLogCleared = (listener: () => void): (() => void) => bridge.on('log:cleared', listener);
