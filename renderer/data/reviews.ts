// Reviews (reviews:*): the team's labels, a record's reviews, the review queue and the export, of
// the active profile's recorded history. The changes are in reviews-actions.ts: the search box,
// part of the first screen, reads the labels and carries no mutation code.
import { infiniteQueryOptions, queryOptions, useQuery } from '@tanstack/react-query';
import type { BridgeInput } from '../../shared/bridge';
import type { TranscriptKind } from '../../shared/transcript';
import { bridge } from '../bridge';
import { useActiveProfileId } from './profiles';
import { queryKeys } from './query-keys';

const labelsQuery = () =>
  queryOptions({ queryKey: queryKeys.reviews.labels(), queryFn: () => bridge.reviews.labels({}) });

export const useLabels = () => useQuery(labelsQuery());

/** A conversation's or thread's reviews: its own, and its messages' by index. */
export function useRecordReviews(kind: TranscriptKind, id: string) {
  const profile = useActiveProfileId();
  return useQuery({
    queryKey: queryKeys.reviews.of(profile, kind, id),
    queryFn: () => bridge.reviews.of({ kind, id }),
    staleTime: 0,
  });
}

export type QueueQuery = Omit<BridgeInput<'reviews:queue'>, 'cursor' | 'limit'>;

/** The review queue, a page at a time, with its progress. */
export const reviewQueueQuery = (profile: string | undefined, query: QueueQuery) =>
  infiniteQueryOptions({
    queryKey: queryKeys.reviews.queue(profile, query),
    queryFn: ({ pageParam }) =>
      bridge.reviews.queue({ ...query, limit: 100, ...(pageParam ? { cursor: pageParam } : {}) }),
    initialPageParam: '',
    getNextPageParam: (last) => last.next,
    staleTime: 0,
  });

/** The active profile's reviews as a file's text; it changes nothing kept. */
export const exportReviews = (input: BridgeInput<'reviews:export'>) => bridge.reviews.export(input);
