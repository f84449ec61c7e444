// Monitors (monitors:*): every environment watched, as the Overview shows them — kept fresh by
// `monitors:changed` (bridge-cache.ts) —, adding, editing and removing one, checking one now, and
// whether notifications are muted. A saved monitor watching the active profile answers for it, so
// a change to the monitors changes "the active profile's" health too.
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { BridgeInput } from '../../shared/bridge';
import type { MonitorNotification, MonitorView, TestNotificationResult } from '../../shared/monitor';
import { bridge } from '../bridge';
import { useChange } from './change';
import { queryKeys } from './query-keys';

export const useMonitors = () =>
  useQuery({ queryKey: queryKeys.monitors(), queryFn: () => bridge.monitors.list({}), staleTime: Infinity });

const monitorsChanged = [queryKeys.monitors(), queryKeys.health.states()];

export const useAddMonitor = () =>
  useChange((input: BridgeInput<'monitors:add'>) => bridge.monitors.add(input), monitorsChanged);

export const useUpdateMonitor = () =>
  useChange((input: BridgeInput<'monitors:update'>) => bridge.monitors.update(input), monitorsChanged);

export const useRemoveMonitor = () =>
  useChange((id: string) => bridge.monitors.remove({ id }), monitorsChanged);

/** Checks now: the row takes the answer at once; the check's sample changes its health history. */
export function useCheckMonitor() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => bridge.monitors.check({ id }),
    onSuccess: (view) => {
      client.setQueryData<MonitorView[]>(queryKeys.monitors(), (old) =>
        old?.map((v) => (v.id === view.id ? view : v)),
      );
      for (const queryKey of [
        queryKeys.health.states(),
        queryKeys.health.timelines(),
        queryKeys.health.incidents(),
      ])
        void client.invalidateQueries({ queryKey });
    },
  });
}

/** Sends a test notification through the monitor's channels; it changes nothing kept. */
export const testNotification = (id: string): Promise<TestNotificationResult> =>
  bridge.monitors.testNotify({ id });

/** A monitor's confirmed change, for the page to show as a browser notification. */
export const onMonitorNotification = (listener: (notification: MonitorNotification) => void): (() => void) =>
  bridge.on('monitors:notify', listener);

export const notificationsMutedQuery = queryOptions({
  queryKey: queryKeys.notificationsMuted(),
  queryFn: () => bridge.monitors.muted({}),
  staleTime: Infinity,
});

/** Whether notifications are muted in the app (the header's button; the Health screen says so too). */
export const useNotificationsMuted = () => useQuery(notificationsMutedQuery);

/** The core answers with the setting as it now is. */
export function useMuteNotifications() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (muted: boolean) => bridge.monitors.mute({ muted }),
    onSuccess: (next) => client.setQueryData(notificationsMutedQuery.queryKey, next),
  });
}
