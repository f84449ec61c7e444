// What the Health screen does with a poll: check now and set its interval (mutations, each
// invalidating what it changed). Apart from health.ts, which the header reads: the first screen's
// bundle carries no mutation code.
import { bridge } from '../bridge';
import { useChange } from './change';
import { which } from './health';
import { queryKeys } from './query-keys';

/** A check adds a sample: the state, the timelines and the incidents change. */
export const useCheckHealth = () =>
  useChange(
    (monitorId: string | undefined) => bridge.health.check(which(monitorId)),
    [queryKeys.health.states(), queryKeys.health.timelines(), queryKeys.health.incidents()],
  );

/** The poll's interval is part of every monitor's state (the next check's time with it). */
export const useConfigureHealth = () =>
  useChange((intervalMs: number) => bridge.health.configure({ intervalMs }), [queryKeys.health.states()]);
