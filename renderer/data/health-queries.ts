// A monitor's health poll through the query cache — the one named (drill-down from the Overview),
// else the active profile's. The core pushes a `health:update` after every check (bridge-cache.ts
// writes the state and marks the timelines stale), so whatever is on screen refetches once per
// check, not on a timer.
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { HealthRange } from '../../shared/health';
import { bridge } from '../bridge';
import { queryKeys } from './query-keys';

const which = (monitorId: string | undefined) => (monitorId ? { monitorId } : {});

export const healthStateQuery = (monitorId?: string) =>
  queryOptions({
    queryKey: queryKeys.health.state(monitorId),
    queryFn: () => bridge.health.status(which(monitorId)),
    staleTime: Infinity,
  });

export const useHealthState = (monitorId?: string) => useQuery(healthStateQuery(monitorId));

export const useHealthTimeline = (range: HealthRange, monitorId?: string) =>
  useQuery({
    queryKey: queryKeys.health.timeline(range, monitorId),
    queryFn: () => bridge.health.timeline({ range, ...which(monitorId) }),
    placeholderData: keepPreviousData,
    staleTime: Infinity,
  });

/** Every monitor as the Overview shows it; kept fresh by `monitors:changed`. */
export const useMonitors = () =>
  useQuery({ queryKey: queryKeys.monitors(), queryFn: () => bridge.monitors.list({}), staleTime: Infinity });
