// Profiles (profiles:*): where requests go, which one is active, and whether it answers. The core
// also pushes the list whole after any change (bridge-cache.ts).
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { BridgeInput, ConnectionTest } from '../../shared/bridge';
import { HEALTH_SAMPLE_FRESH_MS } from '../../shared/health';
import { bridge } from '../bridge';
import { useChange } from './change';
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

/** The Profiles screen's "Test connection": a read, shown on the profile's card, cached nowhere. */
export function testProfile(id: string): Promise<ConnectionTest> {
  return bridge.profiles.test({ id }).catch((e: unknown): ConnectionTest => ({
    ok: false,
    durationMs: 0,
    error: { code: 'UNEXPECTED', message: String(e) },
  }));
}

/** A key confirmed for the profile's server has that server from now on: the keys change too. */
export const useAddProfile = () =>
  useChange(
    (input: BridgeInput<'profiles:add'>) => bridge.profiles.add(input),
    [queryKeys.profiles(), queryKeys.keys()],
  );

/** Another profile active (or the active one gone): "Connected" must be asked again. */
export const useRemoveProfile = () =>
  useChange((id: string) => bridge.profiles.remove({ id }), [queryKeys.profiles(), queryKeys.connections()]);

export const useUseProfile = () =>
  useChange((id: string) => bridge.profiles.use({ id }), [queryKeys.profiles(), queryKeys.connections()]);
