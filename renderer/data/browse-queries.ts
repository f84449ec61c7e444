// The browsers' server data, cached per endpoint and parameters (and per profile: another profile is
// another service). Lists stay fresh for five minutes and every screen has a Refresh button, so
// switching screens is instant and costs no request against the rate limit. Local transcripts are
// re-read whenever a screen shows them: they are on disk, not behind the limiter.
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import type { ReceivedAgent as Agent, ReceivedConversation as Conversation } from '../../shared/received';
import type { TranscriptKind } from '../../shared/transcript';
import { bridge } from '../bridge';
import { fetchAllPages, type PageProgress } from '../components/fetch-all-pages';
import { useConversationsView } from '../stores/conversations-view';
import { useActiveProfileId } from './queries';
import { queryKeys } from './query-keys';

const BROWSE_STALE_MS = 5 * 60_000;

export const agentsPageQuery = (profile: string | undefined, limit: number, offset: number) =>
  queryOptions({
    queryKey: queryKeys.agents.page(profile, limit, offset),
    queryFn: () => bridge.agents.list({ limit, offset }),
    staleTime: BROWSE_STALE_MS,
    placeholderData: keepPreviousData,
  });

/** Every agent: for the agent pickers, lookups by id and replay targets. Usually one request. */
export const allAgentsQuery = (profile: string | undefined) =>
  queryOptions({
    queryKey: queryKeys.agents.all(profile),
    queryFn: (): Promise<Agent[]> =>
      fetchAllPages({
        fetchPage: (offset, limit) =>
          bridge.agents.list({ limit, offset }).then((r) => ({ items: r.agents, total: r.total })),
        idOf: (a) => a.agent_id,
      }),
    staleTime: BROWSE_STALE_MS,
  });

export const conversationsPageQuery = (
  profile: string | undefined,
  agent: string | undefined,
  limit: number,
  offset: number,
) =>
  queryOptions({
    queryKey: queryKeys.conversations.page(profile, agent, limit, offset),
    queryFn: () => bridge.conversations.list({ ...(agent ? { agent } : {}), limit, offset }),
    staleTime: BROWSE_STALE_MS,
    placeholderData: keepPreviousData,
  });

/** Aborts the running loads of every page (the exports' Cancel). */
const running = new Set<AbortController>();
export function cancelAllConversations(): void {
  for (const controller of running) controller.abort();
}

/**
 * Every conversation for a filter, page after page through the core's limiter, reporting progress
 * to the view store. Not tied to TanStack's signal: leaving the screen must not stop an export.
 */
export const allConversationsQuery = (profile: string | undefined, agent: string | undefined) =>
  queryOptions({
    queryKey: queryKeys.conversations.all(profile, agent),
    queryFn: async (): Promise<Conversation[]> => {
      const controller = new AbortController();
      running.add(controller);
      const report = (p: PageProgress | undefined) =>
        useConversationsView.setState({ progress: p && { ...p, agent: agent ?? '' } });
      report({ fetched: 0, total: 0, pagesDone: 0, pageCount: 0 });
      try {
        return await fetchAllPages({
          fetchPage: (offset, limit) =>
            bridge.conversations
              .list({ ...(agent ? { agent } : {}), limit, offset })
              .then((r) => ({ items: r.conversations, total: r.total })),
          idOf: (c) => c.id,
          signal: controller.signal,
          onProgress: report,
        });
      } finally {
        running.delete(controller);
        report(undefined);
      }
    },
    // Dozens of requests: refetched only when asked (Refresh), never behind the user's back.
    staleTime: Infinity,
  });

export const threadsQuery = (profile: string | undefined) =>
  queryOptions({
    queryKey: queryKeys.threads.of(profile),
    queryFn: () => bridge.threads.list({}).then((r) => r.threads),
    staleTime: BROWSE_STALE_MS,
  });

export const transcriptsQuery = (profile: string | undefined, kind: TranscriptKind) =>
  queryOptions({
    queryKey: queryKeys.transcripts.list(profile, kind),
    queryFn: () => bridge.transcripts.list({ kind }),
    staleTime: 0,
  });

export const transcriptQuery = (profile: string | undefined, kind: TranscriptKind, id: string) =>
  queryOptions({
    queryKey: queryKeys.transcripts.one(profile, kind, id),
    queryFn: () => bridge.transcripts.get({ kind, id }),
    staleTime: 0,
  });

export function useAllAgents() {
  return useQuery(allAgentsQuery(useActiveProfileId()));
}

/** Ids this client holds a transcript for, and whether each is known from its start. */
export function useKnownTranscripts(kind: TranscriptKind): Map<string, 'start' | 'partial'> {
  const summaries = useQuery(transcriptsQuery(useActiveProfileId(), kind)).data?.summaries;
  // A new Map only when the listing changes, so memoised rows do not re-render for nothing.
  return useMemo(() => new Map((summaries ?? []).map((s) => [s.id, s.knownFrom])), [summaries]);
}
