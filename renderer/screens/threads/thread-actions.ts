// Creating a thread and appending to one. Their progress and failures go to the view store, not
// component state, so a reply that arrives after the user left the screen still lands, and a
// failed send (a 404 included) keeps the typed text. The calls, and what they change in the
// cache, are data/threads.ts's.
import { asBridgeError } from '../../components/error-message';
import {
  createThread as create,
  dropThread,
  refreshThreadRecords,
  sendToThread as send,
} from '../../data/threads';
import { useThreadsView, type NewThreadDraft, type ThreadRow } from '../../stores/threads-view';

/**
 * The service's "no such thread" (a 404 on a thread's endpoints). A 404 naming the agent is not
 * that: the thread's agent was stopped, and the thread is still there.
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

export async function createThread(profile: string | undefined, draft: NewThreadDraft): Promise<void> {
  useThreadsView.setState({ createPending: true, createError: undefined });
  try {
    const thread = await create(profile, {
      message: draft.message,
      ...(draft.title.trim() ? { title: draft.title.trim() } : {}),
      ...(draft.agent ? { agent: draft.agent } : {}),
    });
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
    await send(profile, { threadId, message, ...(thread.agent ? { agent: thread.agent } : {}) });
    useThreadsView.setState(({ messages }) => ({ messages: omitKey(messages, threadId) }));
  } catch (error) {
    const goneNow = isThreadGone(error);
    useThreadsView.setState(({ sendErrors, gone, selectedId }) => ({
      sendErrors: { ...sendErrors, [threadId]: error },
      ...(goneNow ? { gone: { ...gone, [threadId]: true as const } } : {}),
      // Still shown when the list drops it below, with the typed text and what is known.
      ...(goneNow && selectedId === threadId ? { selectedRow: thread } : {}),
    }));
    if (goneNow) dropThread(profile, threadId);
  } finally {
    // The core recorded the exchange (or the failure): show it before dropping the pending message.
    await refreshThreadRecords(profile, threadId).catch(() => undefined);
    useThreadsView.setState(({ sending }) => ({ sending: omitKey(sending, threadId) }));
  }
}
