// Creating a thread and appending to one. Their progress and failures go to the view store, not
// component state, so a reply that arrives after the user left the screen still lands, and a
// failed send (a 404 included) keeps the typed text.
import type { QueryClient } from '@tanstack/react-query';
import type { ReceivedThread as Thread } from '../../../shared/received';
import { bridge } from '../../bridge';
import { asBridgeError } from '../../components/error-message';
import { queryKeys } from '../../data/query-keys';
import { useThreadsView, type NewThreadDraft, type ThreadRow } from '../../stores/threads-view';

/**
 * The service's "no such thread" (spec §7: 404 on thread-specific endpoints). A 404 naming the
 * agent is not that: the thread's agent was stopped (spec §3), and the thread is still there.
 */
function isThreadGone(error: unknown): boolean {
  const e = asBridgeError(error);
  const code = e.code.toUpperCase();
  return code === 'THREAD_NOT_FOUND' || (e.status === 404 && code !== 'AGENT_NOT_FOUND');
}

function omitKey<T>(record: Record<string, T>, key: string): Record<string, T> {
  const { [key]: _gone, ...rest } = record;
  return rest;
}

async function refreshTranscripts(
  client: QueryClient,
  profile: string | undefined,
  threadId: string,
): Promise<void> {
  await Promise.all([
    client.invalidateQueries({ queryKey: queryKeys.transcripts.one(profile, 'thread', threadId) }),
    client.invalidateQueries({ queryKey: queryKeys.transcripts.list(profile, 'thread') }),
  ]);
}

export async function createThread(
  client: QueryClient,
  profile: string | undefined,
  draft: NewThreadDraft,
): Promise<void> {
  useThreadsView.setState({ createPending: true, createError: undefined });
  try {
    const created = await bridge.threads.create({
      message: draft.message,
      ...(draft.title.trim() ? { title: draft.title.trim() } : {}),
      ...(draft.agent ? { agent: draft.agent } : {}),
    });
    const thread = created.thread;
    // The list learns of it at once; updated_at is absent from the create response (spec §2).
    client.setQueryData<Thread[]>(queryKeys.threads.of(profile), (old) =>
      old ? [{ ...thread, updated_at: thread.created_at }, ...old.filter((t) => t.id !== thread.id)] : old,
    );
    await refreshTranscripts(client, profile, thread.id);
    useThreadsView.setState({
      creating: false,
      draft: { title: '', agent: draft.agent, message: '' },
      selectedId: thread.id,
      selectedRow: thread,
    });
  } catch (error) {
    useThreadsView.setState({ createError: error });
  } finally {
    useThreadsView.setState({ createPending: false });
  }
}

export async function sendToThread(
  client: QueryClient,
  profile: string | undefined,
  thread: ThreadRow,
  message: string,
): Promise<void> {
  const threadId = thread.id;
  useThreadsView.setState(({ sending, sendErrors }) => ({
    sending: { ...sending, [threadId]: message },
    sendErrors: omitKey(sendErrors, threadId),
  }));
  try {
    // The thread's agent as listed, so the record names it even once the service forgets the thread.
    await bridge.threads.send({ threadId, message, ...(thread.agent ? { agent: thread.agent } : {}) });
    useThreadsView.setState(({ messages }) => ({ messages: omitKey(messages, threadId) }));
    // One exchange adds two messages (spec §2); the next Refresh brings the service's exact figures.
    const now = new Date().toISOString();
    client.setQueryData<Thread[]>(queryKeys.threads.of(profile), (old) =>
      old?.map((t) =>
        t.id === threadId ? { ...t, message_count: t.message_count + 2, updated_at: now } : t,
      ),
    );
  } catch (error) {
    const goneNow = isThreadGone(error);
    useThreadsView.setState(({ sendErrors, gone, selectedId }) => ({
      sendErrors: { ...sendErrors, [threadId]: error },
      ...(goneNow ? { gone: { ...gone, [threadId]: true as const } } : {}),
      // Still shown when the list drops it below, with the typed text and what is known.
      ...(goneNow && selectedId === threadId ? { selectedRow: thread } : {}),
    }));
    if (goneNow) {
      client.setQueryData<Thread[]>(queryKeys.threads.of(profile), (old) =>
        old?.filter((t) => t.id !== threadId),
      );
    }
  } finally {
    // The core recorded the exchange (or the failure): show it before dropping the pending message.
    await refreshTranscripts(client, profile, threadId).catch(() => undefined);
    useThreadsView.setState(({ sending }) => ({ sending: omitKey(sending, threadId) }));
  }
}
