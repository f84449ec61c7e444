// What the core pushes: the active key's rate-limit state and the request log. Kept in small
// stores fed by bridge events, so any screen reads them without asking again.
import { create } from 'zustand';
import type { RateState } from '../../shared/bridge';
import type { RequestLogEntry } from '../../shared/request-log-entry';
import { bridge } from '../bridge';

interface RateStore {
  state: RateState | null;
}
export const useRate = create<RateStore>(() => ({ state: null }));

/** Newest last, as the core keeps it; bounded like the core's ring. */
interface LogStore {
  entries: RequestLogEntry[];
}
export const useLog = create<LogStore>(() => ({ entries: [] }));
const LOG_LIMIT = 1000;

let started = false;

/** Loads the current state once and follows the core's events from then on. */
export function startLiveStores(): void {
  if (started) return;
  started = true;
  bridge.on('rate:update', (state) => useRate.setState({ state }));
  bridge.on('log:added', (entry) =>
    useLog.setState(({ entries }) => ({
      entries: entries.length >= LOG_LIMIT ? [...entries.slice(1 - LOG_LIMIT), entry] : [...entries, entry],
    })),
  );
  bridge.on('log:cleared', () => useLog.setState({ entries: [] }));
  void bridge.rate.state({}).then((state) => useRate.setState({ state }));
  void bridge.log.list({}).then((listed) =>
    useLog.setState(({ entries }) => {
      // Events may have arrived while the list was on its way: keep both, once each.
      const seen = new Set(listed.map((e) => e.id));
      return { entries: [...listed, ...entries.filter((e) => !seen.has(e.id))] };
    }),
  );
}
