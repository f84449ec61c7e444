// The console's own data (not a service's): its version and keychain, keys, profiles, and
// whether the active profile's service answers.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { bridge } from '../bridge';
import { queryKeys } from './query-keys';
import { HEALTH_SAMPLE_FRESH_MS } from '../../shared/health';

export const appInfoQuery = queryOptions({
  queryKey: queryKeys.appInfo(),
  queryFn: () => bridge.app.info({}),
  staleTime: Infinity,
});
export const profilesQuery = queryOptions({
  queryKey: queryKeys.profiles(),
  queryFn: () => bridge.profiles.list({}),
});

export const useAppInfo = () => useQuery(appInfoQuery);
export const useKeys = () => useQuery({ queryKey: queryKeys.keys(), queryFn: () => bridge.keys.list({}) });
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
