// What the core pushes: the active key's rate-limit state and the request log. Kept in small
// stores fed by the core's events (data/rate.ts, data/log-feed.ts), so any screen reads them without
// asking again.
import { create } from 'zustand';
import type { RateState } from '../../shared/bridge';
import type { RequestLogEntry, RequestLogRow } from '../../shared/request-log-entry';
import { listLog, onLogAdded, onLogCleared } from '../data/log-feed';
import { onRateUpdate, readRateState } from '../data/rate';

interface RateStore {
  state: RateState | null;
  /** False until the core has said (at start it may still be opening): null then means "no key". */
  known: boolean;
}
export const useRate = create<RateStore>(() => ({ state: null, known: false }));

/**
 * Newest last, as the core keeps it; bounded like the core's ring. Rows without headers and bodies:
 * a streamed reply's raw events are up to 64 KB an entry, and the Log fetches the whole entry for
 * the one it shows (log:get), so a long session's calls do not stay in the page.
 */
interface LogStore {
  entries: RequestLogRow[];
}
export const useLog = create<LogStore>(() => ({ entries: [] }));
const LOG_LIMIT = 1000;

function withoutBodies(entry: RequestLogEntry): RequestLogRow {
  const {
    requestBody: _requestBody,
    responseBody: _responseBody,
    requestHeaders: _requestHeaders,
    responseHeaders: _responseHeaders,
    ...row
  } = entry;
  return row;
}

/**
 * Asks the core for the key's state now: the limiter tells of its changes, but not of a request
 * leaving the window, which only a fresh count shows.
 */
export function refreshRate(): void {
  void readRateState().then((state) => useRate.setState({ state, known: true }));
}

let started = false;

/** Loads the current state once and follows the core's events from then on. */
export function startLiveStores(): void {
  if (started) return;
  started = true;
  onRateUpdate((state) => useRate.setState({ state, known: true }));
  onLogAdded((added) => {
    const entry = withoutBodies(added);
    useLog.setState(({ entries }) => ({
      entries: entries.length >= LOG_LIMIT ? [...entries.slice(1 - LOG_LIMIT), entry] : [...entries, entry],
    }));
  });
  onLogCleared(() => useLog.setState({ entries: [] }));
  refreshRate();
  void listLog().then((listed) =>
    useLog.setState(({ entries }) => {
      // Events may have arrived while the list was on its way: keep both, once each.
      const seen = new Set(listed.map((e) => e.id));
      return { entries: [...listed.map(withoutBodies), ...entries.filter((e) => !seen.has(e.id))] };
    }),
  );
}
