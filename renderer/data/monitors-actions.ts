// What the Overview does with monitors: add, edit, remove and check one (mutations, each
// invalidating what it changed), and send a test notification. Apart from monitors.ts, which the
// shell reads: the first screen's bundle carries no mutation code. A saved monitor watching the
// active profile answers for it, so a change to the monitors changes "the active profile's" health
// too.
import type { BridgeInput } from '../../shared/bridge';
import type { TestNotificationResult } from '../../shared/monitor';
import { bridge } from '../bridge';
import { useChange } from './change';
import { queryKeys } from './query-keys';

const monitorsChanged = [queryKeys.monitors(), queryKeys.health.states()];

export const useAddMonitor = () =>
  useChange((input: BridgeInput<'monitors:add'>) => bridge.monitors.add(input), monitorsChanged);

export const useUpdateMonitor = () =>
  useChange((input: BridgeInput<'monitors:update'>) => bridge.monitors.update(input), monitorsChanged);

export const useRemoveMonitor = () =>
  useChange((id: string) => bridge.monitors.remove({ id }), monitorsChanged);

/**
 * Checks now: the check's sample changes the monitor's health history. Its row is not read again
 * here: the core pushes every row after a change, at most one batch per 250 ms so that a burst of
 * checks is one repaint, and a read per check would undo that.
 */
export const useCheckMonitor = () =>
  useChange(
    (id: string) => bridge.monitors.check({ id }),
    [queryKeys.health.states(), queryKeys.health.timelines(), queryKeys.health.incidents()],
  );

/** Sends a test notification through the monitor's channels; it changes nothing kept. */
export const testNotification = (id: string): Promise<TestNotificationResult> =>
  bridge.monitors.testNotify({ id });

const incidentChanged = [queryKeys.monitors(), queryKeys.incidents.root()];

export const useAcknowledgeIncident = () =>
  useChange((id: string) => bridge.monitors.acknowledge({ id }), incidentChanged);

export const useAddIncidentUpdate = () =>
  useChange((input: BridgeInput<'monitors:addUpdate'>) => bridge.monitors.addUpdate(input), incidentChanged);

export const useResolveIncident = () =>
  useChange((id: string) => bridge.monitors.resolve({ id }), incidentChanged);

/** "Publish status page…": into a typed folder (the web host), or the one chosen in the desktop's dialog. */
export const publishStatusPage = (path?: string) =>
  bridge.monitors.publishStatusPage(path !== undefined ? { path } : {});
