// A monitor's health poll (health:*) — the one named (drill-down from the Overview), else the
// active profile's. The core pushes a `health:update` after every check (bridge-cache.ts writes the
// state and marks the timelines and incidents stale), so whatever is on screen refetches once per
// check, not on a timer. What the Health screen does with a poll is in health-actions.ts.
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { HealthRange } from '../../shared/health';
import { bridge } from '../bridge';
import { queryKeys } from './query-keys';

/** A saved monitor's poll, or (none named) the active profile's. */
export const which = (monitorId: string | undefined) => (monitorId ? { monitorId } : {});

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

/** The incidents the active profile's monitor saw over a period (it remembers 7 days). */
export const useHealthIncidents = (
  profileId: string | undefined,
  period: { start: string; end: string; days: number },
) =>
  useQuery({
    queryKey: queryKeys.health.incidentsIn(profileId, period.start, period.days),
    queryFn: () => bridge.health.incidents({ from: Date.parse(period.start), to: Date.parse(period.end) }),
  });
