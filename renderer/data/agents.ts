// Agents (agents:list), cached per profile and page — another profile is another service — and
// every agent of a profile, page after page: the pickers, lookups by id and replay targets.
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { ReceivedAgent as Agent } from '../../shared/received';
import { bridge } from '../bridge';
import { fetchAllPages } from './fetch-all-pages';
import { useActiveProfileId } from './profiles';
import { BROWSE_STALE_MS, queryClient } from './query-client';
import { queryKeys } from './query-keys';

export const agentsPageQuery = (profile: string | undefined, limit: number, offset: number) =>
  queryOptions({
    queryKey: queryKeys.agents.page(profile, limit, offset),
    queryFn: () => bridge.agents.list({ limit, offset }),
    staleTime: BROWSE_STALE_MS,
    placeholderData: keepPreviousData,
  });

/** Every agent: usually one request. */
export const allAgentsQuery = (profile: string | undefined) =>
  queryOptions({
    queryKey: queryKeys.agents.all(profile),
    queryFn: (): Promise<Agent[]> =>
      fetchAllPages({
        fetchPage: (offset, limit) =>
          bridge.agents.list({ limit, offset }).then((r) => ({ items: r.agents, total: r.total })),
        idOf: (a) => a.agent_id,
      }),
    staleTime: BROWSE_STALE_MS,
  });

export function useAllAgents() {
  return useQuery(allAgentsQuery(useActiveProfileId()));
}

/** The playground's picker: the same cached list, re-read now and then. */
export function usePlaygroundAgents() {
  const profileId = useActiveProfileId();
  // So a chosen agent stopped or removed meanwhile is said (agent-picker.tsx).
  return useQuery({
    ...allAgentsQuery(profileId),
    enabled: profileId !== undefined,
    refetchInterval: 60_000,
    refetchOnWindowFocus: true,
  });
}

/** The Agents screen's Refresh: every cached shape of the profile's agents, the pickers' included. */
export function refreshAgents(profile: string | undefined): void {
  void queryClient.invalidateQueries({ queryKey: queryKeys.agents.of(profile) });
}
