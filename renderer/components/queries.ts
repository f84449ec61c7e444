// Server and core data through one query cache (STYLE.md: not copied into stores by hand). Bridge
// events that carry fresh lists write them straight into the cache.
import { QueryClient, useQuery } from '@tanstack/react-query';
import { bridge } from '../bridge';

export const queryClient = new QueryClient({
  defaultOptions: { queries: { retry: false, refetchOnWindowFocus: false, staleTime: 30_000 } },
});

bridge.on('keys:changed', (keys) => queryClient.setQueryData(['keys'], keys));
bridge.on('profiles:changed', (profiles) => {
  queryClient.setQueryData(['profiles'], profiles);
});

export const useAppInfo = () =>
  useQuery({ queryKey: ['app-info'], queryFn: () => bridge.app.info({}), staleTime: Infinity });
export const useKeys = () => useQuery({ queryKey: ['keys'], queryFn: () => bridge.keys.list({}) });
export const useProfiles = () =>
  useQuery({ queryKey: ['profiles'], queryFn: () => bridge.profiles.list({}) });

/** "Connected": a health call through the profile, re-checked when asked or when the profile changes. */
export const useConnection = (profileId: string | undefined) =>
  useQuery({
    queryKey: ['connection', profileId],
    queryFn: () => bridge.profiles.test({ id: profileId as string }),
    enabled: profileId !== undefined,
    staleTime: 60_000,
  });
