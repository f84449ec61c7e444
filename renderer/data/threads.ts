// Threads (threads:*): the profile's list, cached and filtered here (the service takes no
// parameters); creating one and appending to one, each written into the cached list at once and
// followed by a fresh read of what this console recorded of it.
import { queryOptions } from '@tanstack/react-query';
import type { BridgeInput } from '../../shared/bridge';
import type { ReceivedThread as Thread, ReceivedThreadCreated } from '../../shared/received';
import { bridge } from '../bridge';
import { BROWSE_STALE_MS, queryClient } from './query-client';
import { queryKeys } from './query-keys';

export const threadsQuery = (profile: string | undefined) =>
  queryOptions({
    queryKey: queryKeys.threads.of(profile),
    queryFn: () => bridge.threads.list({}).then((r) => r.threads),
    staleTime: BROWSE_STALE_MS,
  });

/** The Threads screen's Refresh: the service's list and what this console recorded. */
export function refreshThreads(profile: string | undefined): void {
  void queryClient.invalidateQueries({ queryKey: queryKeys.threads.of(profile) });
  void queryClient.invalidateQueries({ queryKey: queryKeys.transcripts.of(profile) });
}

const updateList = (profile: string | undefined, update: (old: Thread[]) => Thread[]) =>
  queryClient.setQueryData<Thread[]>(queryKeys.threads.of(profile), (old) => old && update(old));

/** The thread's record and the list of recorded threads, read again. */
export async function refreshThreadRecords(profile: string | undefined, threadId: string): Promise<void> {
  await Promise.all([
    queryClient.invalidateQueries({ queryKey: queryKeys.transcripts.one(profile, 'thread', threadId) }),
    queryClient.invalidateQueries({ queryKey: queryKeys.transcripts.list(profile, 'thread') }),
  ]);
}

/** Creates a thread; the list learns of it at once (updated_at is absent from the create response). */
export async function createThread(
  profile: string | undefined,
  input: BridgeInput<'threads:create'>,
): Promise<ReceivedThreadCreated['thread']> {
  const { thread } = await bridge.threads.create(input);
  updateList(profile, (old) => [
    { ...thread, updated_at: thread.created_at },
    ...old.filter((t) => t.id !== thread.id),
  ]);
  await refreshThreadRecords(profile, thread.id);
  return thread;
}

/**
 * Appends a message. One exchange adds two messages (the service counts both); the next Refresh
 * brings the service's exact figures.
 */
export async function sendToThread(
  profile: string | undefined,
  input: BridgeInput<'threads:send'>,
): Promise<void> {
  await bridge.threads.send(input);
  const now = new Date().toISOString();
  updateList(profile, (old) =>
    old.map((t) =>
      t.id === input.threadId ? { ...t, message_count: t.message_count + 2, updated_at: now } : t,
    ),
  );
}

/** The service no longer has the thread: out of the cached list (its record stays). */
export function dropThread(profile: string | undefined, threadId: string): void {
  updateList(profile, (old) => old.filter((t) => t.id !== threadId));
}
