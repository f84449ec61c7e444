// The Conversations browser's view: filter, page, sort, the open conversation, and the progress of
// a load of every page (the "All" page size and the exports share it). Outside the component so it
// survives leaving the screen, and so a running export keeps reporting while you look elsewhere.
import { create } from 'zustand';
import type { ReceivedConversation as Conversation } from '../../shared/received';
import type { PageProgress } from '../components/fetch-all-pages';

export const CONVERSATION_PAGE_SIZES = [20, 50, 100, 'all'] as const;
type ConversationPageSize = (typeof CONVERSATION_PAGE_SIZES)[number];
export type ConversationSortKey = keyof Conversation;

export interface ConversationSelection {
  sessionId: string;
  /** The service's row; absent for a session this client knows that the service does not list. */
  row?: Conversation;
}

interface ExportJob {
  format: 'csv' | 'json';
  agent: string | undefined;
  state: 'running' | 'done' | 'failed' | 'cancelled';
  rows?: number;
  error?: unknown;
  fileName?: string;
}

interface ConversationsView {
  agent: string | undefined;
  limit: ConversationPageSize;
  offset: number;
  sort: { key: ConversationSortKey; dir: 'ascending' | 'descending' } | undefined;
  selected: ConversationSelection | undefined;
  /** Progress of the current load of every page, by agent filter ('' for all agents). */
  progress: (PageProgress & { agent: string }) | undefined;
  exportJob: ExportJob | undefined;
}

export const useConversationsView = create<ConversationsView>(() => ({
  agent: undefined,
  limit: 20,
  offset: 0,
  sort: undefined,
  selected: undefined,
  progress: undefined,
  exportJob: undefined,
}));
