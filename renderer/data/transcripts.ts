// What this console recorded (transcripts:*): the service keeps no history, so the sessions and
// threads this client sent and received are in the history database, per profile. Not behind the
// limiter: re-read whenever a screen shows them, a page at a time.
import { infiniteQueryOptions, queryOptions, useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import type { BridgeInput } from '../../shared/bridge';
import type { KnownFrom, Transcript, TranscriptKind } from '../../shared/transcript';
import { bridge } from '../bridge';
import { useActiveProfileId } from './profiles';
import { queryClient } from './query-client';
import { queryKeys } from './query-keys';

/** Sessions the playground's sidebar shows at first, and adds each time it is asked for more. */
const SESSIONS_PAGE = 50;

/** How many sessions or threads the profile has recorded. */
export const transcriptCountQuery = (profile: string | undefined, kind: TranscriptKind) =>
  queryOptions({
    queryKey: [...queryKeys.transcripts.list(profile, kind), 'count'],
    queryFn: async () => (await bridge.transcripts.list({ kind, limit: 1 })).total,
    staleTime: 0,
  });

const sessionPagesQuery = (profile: string | undefined) =>
  infiniteQueryOptions({
    queryKey: queryKeys.transcripts.list(profile, 'session'),
    queryFn: ({ pageParam }) =>
      bridge.transcripts.list({
        kind: 'session',
        limit: SESSIONS_PAGE,
        ...(pageParam ? { cursor: pageParam } : {}),
      }),
    initialPageParam: '',
    getNextPageParam: (last) => last.next,
    staleTime: 0,
  });

export const transcriptQuery = (profile: string | undefined, kind: TranscriptKind, id: string) =>
  queryOptions({
    queryKey: queryKeys.transcripts.one(profile, kind, id),
    queryFn: () => bridge.transcripts.get({ kind, id }),
    staleTime: 0,
  });

/** The history search box's question; the active profile's records are searched. */
export type HistorySearchInput = BridgeInput<'transcripts:search'>;

/** Every recorded message, reply and error matching the search, newest first. */
export const historySearchQuery = (profile: string | undefined, search: HistorySearchInput) =>
  queryOptions({
    queryKey: [...queryKeys.transcripts.of(profile), 'search', search],
    queryFn: () => bridge.transcripts.search(search),
    staleTime: 0,
    enabled: search.text.trim() !== '',
  });

/** Whether this client holds a record of `id` (a session or thread the service may no longer list). */
export async function isKnownTranscript(kind: TranscriptKind, id: string): Promise<boolean> {
  return (await bridge.transcripts.known({ kind, ids: [id] }))[id] !== undefined;
}

/** Which of `ids` (the rows a screen shows) this client holds a record of, and from where. */
export function useKnownTranscripts(kind: TranscriptKind, ids: string[]): Map<string, KnownFrom> {
  const profile = useActiveProfileId();
  const sortedIds = useMemo(() => [...new Set(ids)].sort(), [ids]);
  const known = useQuery({
    queryKey: [...queryKeys.transcripts.list(profile, kind), 'known', sortedIds],
    queryFn: () => bridge.transcripts.known({ kind, ids: sortedIds }),
    staleTime: 0,
    enabled: sortedIds.length > 0,
  }).data;
  // A new Map only when the answer changes, so memoised rows do not re-render for nothing.
  return useMemo(() => new Map(Object.entries(known ?? {})), [known]);
}

/** The playground's sidebar: the sessions recorded for the active profile, a page at a time. */
export function useSessions() {
  const profileId = useActiveProfileId();
  const pages = useInfiniteQuery({ ...sessionPagesQuery(profileId), enabled: profileId !== undefined });
  const summaries = useMemo(() => pages.data?.pages.flatMap((page) => page.summaries), [pages.data]);
  return { ...pages, summaries, first: pages.data?.pages[0] };
}

/** A session's record as the playground reopens it (null when this console has none). */
export const readSession = (id: string): Promise<Transcript | null> =>
  bridge.transcripts.get({ kind: 'session', id });

/**
 * Forgets a session's record on this computer; every profile's lists are read again. A plain
 * function, not a mutation hook: the playground is the first screen, whose bundle carries no
 * mutation code.
 */
export async function forgetSession(id: string): Promise<void> {
  await bridge.transcripts.remove({ kind: 'session', id });
  refreshSessions();
}

/** A reply was recorded (or its failure): every profile's session lists, as a reply may land after a switch. */
export function refreshSessions(): void {
  void queryClient.invalidateQueries({ queryKey: queryKeys.transcripts.root() });
}
