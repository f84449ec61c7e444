// What this console recorded (transcripts:*): the service keeps no history, so the sessions and
// threads this client sent and received are in the history database, per profile. Not behind the
// limiter: re-read whenever a screen shows them, a page at a time.
import { infiniteQueryOptions, queryOptions, useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import type { BridgeInput } from '../../shared/bridge';
import type { KnownFrom, MessageRange, Transcript, TranscriptKind } from '../../shared/transcript';
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

/** A record whole, for what needs every message (an export, a replay): read when asked for. */
export const readTranscript = (kind: TranscriptKind, id: string): Promise<Transcript | null> =>
  bridge.transcripts.get({ kind, id });

/** Messages a history view reads at a time, and adds each time it is scrolled to either end. */
const MESSAGES_PAGE = 100;
/** How many messages before the one a search found are read with it, so it shows in context. */
const FOUND_CONTEXT = 10;

interface MessagesParam {
  from?: number;
  limit: number;
}

/**
 * A record's messages a page at a time: its latest page first (or the page around `anchor`, a
 * message a search found), older pages before it and newer after it as the view is scrolled.
 */
const messagePagesQuery = (
  profile: string | undefined,
  kind: TranscriptKind,
  id: string,
  anchor: number | undefined,
) =>
  infiniteQueryOptions({
    queryKey: [...queryKeys.transcripts.one(profile, kind, id), 'messages', anchor ?? 'latest'],
    queryFn: ({ pageParam }) => bridge.transcripts.messages({ kind, id, ...pageParam }),
    initialPageParam: (anchor === undefined
      ? { limit: MESSAGES_PAGE }
      : { from: Math.max(0, anchor - FOUND_CONTEXT), limit: MESSAGES_PAGE }) as MessagesParam,
    getPreviousPageParam: (first): MessagesParam | undefined =>
      first && first.from > 0
        ? { from: Math.max(0, first.from - MESSAGES_PAGE), limit: Math.min(MESSAGES_PAGE, first.from) }
        : undefined,
    getNextPageParam: (last): MessagesParam | undefined =>
      last && last.from + last.messages.length < last.total
        ? { from: last.from + last.messages.length, limit: MESSAGES_PAGE }
        : undefined,
    staleTime: 0,
  });

/**
 * The part of a record a history view has read: what the record is, its messages from `from`, and
 * how many it holds in all (null when this client has no record of it).
 */
export function useMessagePages(kind: TranscriptKind, id: string, anchor: number | undefined) {
  const profile = useActiveProfileId();
  const pages = useInfiniteQuery(messagePagesQuery(profile, kind, id, anchor));
  const history = useMemo((): MessageRange | null | undefined => {
    if (!pages.data) return undefined;
    const read = pages.data.pages.filter((page) => page !== null);
    const [first, last] = [read[0], read.at(-1)];
    if (!first || !last) return null;
    return { ...last, from: first.from, messages: read.flatMap((page) => page.messages) };
  }, [pages.data]);
  return { ...pages, history };
}

/** What a record is and how many messages it holds, without reading them. */
export const transcriptHeadQuery = (profile: string | undefined, kind: TranscriptKind, id: string) =>
  queryOptions({
    queryKey: [...queryKeys.transcripts.one(profile, kind, id), 'head'],
    queryFn: () => bridge.transcripts.messages({ kind, id, limit: 1 }),
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

/** How many of a session's latest messages the playground shows when it reopens one. */
const REOPENED_MESSAGES = 200;

/**
 * A session's latest messages as the playground reopens it (null when this console has none); the
 * rest of a long one is in Conversations, read a page at a time.
 */
export const readSession = (id: string): Promise<MessageRange | null> =>
  bridge.transcripts.messages({ kind: 'session', id, limit: REOPENED_MESSAGES });

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
