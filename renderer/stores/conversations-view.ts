// The Conversations browser's view: filter, page, sort, the open conversation, and the export under
// way. Outside the component so it survives leaving the screen, and so a running export keeps
// reporting while you look elsewhere (the load of every page reports its progress in
// data/conversations.ts).
import { create } from 'zustand';
import type { ReceivedConversation as Conversation } from '../../shared/received';

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
  exportJob: ExportJob | undefined;
}

export const useConversationsView = create<ConversationsView>(() => ({
  agent: undefined,
  limit: 20,
  offset: 0,
  sort: undefined,
  selected: undefined,
  exportJob: undefined,
}));
