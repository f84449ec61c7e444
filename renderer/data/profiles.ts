// Profiles (profiles:*): where requests go, which one is active, and whether it answers. The core
// also pushes the list whole after any change (bridge-cache.ts). What the Profiles screen does
// with them is in profiles-actions.ts.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { HEALTH_SAMPLE_FRESH_MS } from '../../shared/health';
import { bridge } from '../bridge';
import { queryClient } from './query-client';
import { queryKeys } from './query-keys';

export const profilesQuery = queryOptions({
  queryKey: queryKeys.profiles(),
  queryFn: () => bridge.profiles.list({}),
});

export const useProfiles = () => useQuery(profilesQuery);

/** The active profile's id: part of every key of a service's data, so a switch never shows another's. */
export function useActiveProfileId(): string | undefined {
  return useProfiles().data?.find((p) => p.active)?.id;
}

/**
 * "Connected": a health call through the profile, re-checked when asked or when the profile
 * changes; `needed` false when a fresh enough answer is already known (the health monitor's).
 */
export const useConnection = (profileId: string | undefined, needed = true) =>
  useQuery({
    queryKey: queryKeys.connection(profileId),
    queryFn: () => bridge.profiles.test({ id: profileId as string }),
    enabled: profileId !== undefined && needed,
    staleTime: HEALTH_SAMPLE_FRESH_MS,
  });

/**
 * Makes a profile the active one: the list says so, and "Connected" is asked again. A plain
 * function, not a mutation hook: the header's switcher is on the first screen, whose bundle
 * carries no mutation machinery.
 */
export async function switchProfile(id: string): Promise<void> {
  await bridge.profiles.use({ id });
  void queryClient.invalidateQueries({ queryKey: queryKeys.profiles() });
  void queryClient.invalidateQueries({ queryKey: queryKeys.connections() });
}
