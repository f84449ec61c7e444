// Monitors (monitors:*): every environment watched, as the Overview shows them — kept fresh by
// `monitors:changed` (bridge-cache.ts) —, whether notifications are muted, a test notification, and
// the notifications themselves. What the Overview does with monitors is in monitors-actions.ts.
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { MonitorNotification } from '../../shared/monitor';
import { bridge } from '../bridge';
import { queryClient } from './query-client';
import { queryKeys } from './query-keys';

/** The saved monitors' incidents, newest first: one monitor's, or all. */
export const useIncidents = (monitorId?: string) =>
  useQuery({
    queryKey: queryKeys.incidents.of(monitorId),
    queryFn: () => bridge.monitors.incidents(monitorId !== undefined ? { monitorId } : {}),
  });

export const useMonitors = () =>
  useQuery({ queryKey: queryKeys.monitors(), queryFn: () => bridge.monitors.list({}), staleTime: Infinity });

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

/**
 * Mutes or unmutes; the core answers with the setting as it now is. A plain function, not a
 * mutation hook: the header's button is on the first screen, whose bundle carries no mutation
 * machinery.
 */
export async function muteNotifications(muted: boolean): Promise<void> {
  queryClient.setQueryData(notificationsMutedQuery.queryKey, await bridge.monitors.mute({ muted }));
}
