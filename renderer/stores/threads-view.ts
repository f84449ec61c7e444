// The Threads browser's view: filters, the open thread, the new-thread form and every unsent
// message, by thread. Unsent text lives here so neither leaving the screen nor a failed send
// (a 404 included) loses what was typed.
import { create } from 'zustand';
import type { ReceivedThread as Thread } from '../../shared/received';

/** A thread as listed, or as the create response gives it (without updated_at). */
export type ThreadRow = Omit<Thread, 'updated_at'> & { updated_at?: string };

export interface NewThreadDraft {
  title: string;
  agent: string;
  message: string;
}

interface ThreadsView {
  agent: string | undefined;
  title: string;
  selectedId: string | undefined;
  /** A thread opened by id or just created, shown even before the list knows it. */
  selectedRow: ThreadRow | undefined;
  creating: boolean;
  draft: NewThreadDraft;
  /** Unsent append text, by thread id. */
  messages: Record<string, string>;
  /** Threads the service answered 404 for. */
  gone: Record<string, true>;
  /** The message on its way to each thread, shown until the reply arrives. */
  sending: Record<string, string>;
  /** The last failed send to each thread. */
  sendErrors: Record<string, unknown>;
  createPending: boolean;
  createError: unknown;
}

export const useThreadsView = create<ThreadsView>(() => ({
  agent: undefined,
  title: '',
  selectedId: undefined,
  selectedRow: undefined,
  creating: false,
  draft: { title: '', agent: '', message: '' },
  messages: {},
  gone: {},
  sending: {},
  sendErrors: {},
  createPending: false,
  createError: undefined,
}));

export function setThreadMessage(threadId: string, text: string): void {
  useThreadsView.setState(({ messages }) => ({ messages: { ...messages, [threadId]: text } }));
}
