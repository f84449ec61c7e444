// The history's upkeep for Settings (transcripts:storage, :count, :removeAll, :setRetention): what
// the data folder holds, how much history is kept, and deleting a profile's or one agent's history.
// A change re-reads every recorded list, as conversations may have gone from any of them.
import { queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import type { BridgeInput } from '../../shared/bridge';
import { bridge } from '../bridge';
import { useActiveProfileId } from './profiles';
import { queryClient } from './query-client';
import { queryKeys } from './query-keys';

const historyStorageQuery = (profile: string | undefined) =>
  queryOptions({
    queryKey: [...queryKeys.transcripts.of(profile), 'storage'],
    queryFn: () => bridge.transcripts.storage({}),
    staleTime: 0,
  });

export function useHistoryStorage() {
  return useQuery(historyStorageQuery(useActiveProfileId()));
}

/** What deleting the active profile's history (or one agent's of it) would lose. */
export const countHistory = (agent: string | undefined) =>
  bridge.transcripts.count(agent === undefined ? {} : { agent });

const changed = () => queryClient.invalidateQueries({ queryKey: queryKeys.transcripts.root() });

export function useRemoveHistory() {
  return useMutation({
    mutationFn: (agent: string | undefined) =>
      bridge.transcripts.removeAll(agent === undefined ? {} : { agent }),
    onSettled: changed,
  });
}

export function useSetRetention() {
  return useMutation({
    mutationFn: (retention: BridgeInput<'transcripts:setRetention'>) =>
      bridge.transcripts.setRetention(retention),
    onSettled: changed,
  });
}
