// The console's own data (not a service's): its version and keychain, keys, profiles, and
// whether the active profile's service answers.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { bridge } from '../bridge';
import { queryKeys } from './query-keys';
import { HEALTH_SAMPLE_FRESH_MS } from '../../shared/health';

/** The app's info is asked again after 1 s while the keychain is being checked, then 2, 4, … 30 s. */
const KEYCHAIN_POLL_FIRST_MS = 1_000;
const KEYCHAIN_POLL_MAX_MS = 30_000;

export const appInfoQuery = queryOptions({
  queryKey: queryKeys.appInfo(),
  queryFn: () => bridge.app.info({}),
  staleTime: Infinity,
  // The keychain's probe ending is announced (keys:changed), but an event sent before the page
  // listened is gone: the web host's event stream can connect after the probe is over, and Keys
  // then said "still being checked" for good (1 start in 10 on a busy machine). Asked again until
  // it is known: the app's probe is over about a second after the start, so the first asks find
  // it; a core that opens the keychain only when a secret is needed is asked ever more rarely.
  refetchInterval: (query) =>
    query.state.data?.keychain.checking
      ? Math.min(KEYCHAIN_POLL_FIRST_MS * 2 ** (query.state.dataUpdateCount - 1), KEYCHAIN_POLL_MAX_MS)
      : false,
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
