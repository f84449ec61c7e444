// The console's own facts (app:info): its version, the transport, and where keys can be kept.
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { UpdateStatus } from '../../shared/bridge';
import { bridge } from '../bridge';
import { queryClient } from './query-client';
import { queryKeys } from './query-keys';

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

export const useAppInfo = () => useQuery(appInfoQuery);

/** The desktop app's updates (app:updates), kept current by app:updateStatus. */
export const updatesQuery = queryOptions({
  queryKey: queryKeys.updates(),
  queryFn: () => bridge.app.updates({}),
  staleTime: Infinity,
});

export const useUpdates = () => useQuery(updatesQuery);

/** Each change the core makes is the status as it now is. Plain functions, as the header's. */
const keep = (status: UpdateStatus): void => {
  queryClient.setQueryData(updatesQuery.queryKey, status);
};

export async function checkForUpdates(): Promise<void> {
  keep(await bridge.app.checkForUpdates({}));
}

export async function setUpdates(change: { enabled?: boolean; channel?: 'stable' | 'beta' }): Promise<void> {
  keep(await bridge.app.setUpdates(change));
}

export async function installUpdate(): Promise<void> {
  await bridge.app.installUpdate({});
}
