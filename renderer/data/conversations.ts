// Conversations (conversations:list), cached per profile, agent filter and page; and every
// conversation of a filter, page after page through the core's limiter, with its progress.
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { create } from 'zustand';
import type { ReceivedConversation as Conversation } from '../../shared/received';
import { bridge } from '../bridge';
import { fetchAllPages, type PageProgress } from './fetch-all-pages';
import { BROWSE_STALE_MS, queryClient } from './query-client';
import { queryKeys } from './query-keys';

const listInput = (agent: string | undefined, limit: number, offset: number) => ({
  ...(agent ? { agent } : {}),
  limit,
  offset,
});

export const conversationsPageQuery = (
  profile: string | undefined,
  agent: string | undefined,
  limit: number,
  offset: number,
) =>
  queryOptions({
    queryKey: queryKeys.conversations.page(profile, agent, limit, offset),
    queryFn: () => bridge.conversations.list(listInput(agent, limit, offset)),
    staleTime: BROWSE_STALE_MS,
    placeholderData: keepPreviousData,
  });

/**
 * The load of every page under way, by agent filter ('' for all agents): the "All" page size and
 * the exports share it. TanStack Query has no progress of its own, and an export keeps reporting
 * while the user looks at another screen.
 */
export const useEveryPageProgress = create<{ progress: (PageProgress & { agent: string }) | undefined }>(
  () => ({ progress: undefined }),
);

/** The running loads of every page, for the exports' Cancel. */
const running = new Set<AbortController>();

export function cancelAllConversations(): void {
  for (const controller of running) controller.abort();
}

/** Not tied to TanStack's signal: leaving the screen must not stop an export. */
export const allConversationsQuery = (profile: string | undefined, agent: string | undefined) =>
  queryOptions({
    queryKey: queryKeys.conversations.all(profile, agent),
    queryFn: async (): Promise<Conversation[]> => {
      const controller = new AbortController();
      running.add(controller);
      const report = (p: PageProgress | undefined) =>
        useEveryPageProgress.setState({ progress: p && { ...p, agent: agent ?? '' } });
      report({ fetched: 0, total: 0, pagesDone: 0, pageCount: 0 });
      try {
        return await fetchAllPages({
          fetchPage: (offset, limit) =>
            bridge.conversations
              .list(listInput(agent, limit, offset))
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

/** Every conversation of a filter for an export: a load newer than `reuseMs` is reused, no page twice. */
export const readAllConversations = (
  profile: string | undefined,
  agent: string | undefined,
  reuseMs: number,
) => queryClient.fetchQuery({ ...allConversationsQuery(profile, agent), staleTime: reuseMs });

/** One page for a lookup, outside the cache (the cached pages are looked through first). */
export const conversationsPage = (limit: number, offset: number) =>
  bridge.conversations.list({ limit, offset });

/** The Conversations screen's Refresh: the service's lists and what this console recorded. */
export function refreshConversations(profile: string | undefined): void {
  void queryClient.invalidateQueries({ queryKey: queryKeys.conversations.of(profile) });
  void queryClient.invalidateQueries({ queryKey: queryKeys.transcripts.of(profile) });
}
