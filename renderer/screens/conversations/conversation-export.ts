// The conversations export: the spec's fields (§2) as CSV (RFC 4180) or JSON. Pure, so the
// escaping is unit-tested without a browser.
import type { ReceivedConversation as Conversation } from '../../../shared/received';
import { csvText } from '../../components/csv';
import type { HistorySubject } from '../../components/history-export';

const CONVERSATION_COLUMNS = [
  'id',
  'session_id',
  'agent',
  'message_count',
  'started_at',
  'last_message_at',
  'status',
] as const satisfies readonly (keyof Conversation)[];

/** The spec's columns, a row per conversation (components/csv.ts quotes and neutralises). */
export function conversationsCsv(rows: readonly Conversation[]): string {
  return csvText(
    CONVERSATION_COLUMNS,
    rows.map((row) => CONVERSATION_COLUMNS.map((c) => row[c])),
  );
}

export interface ExportContext {
  /** The agent filter, or undefined for every agent. */
  agent: string | undefined;
  exportedAt: string;
  baseUrl?: string;
}

/** JSON keeps the filter and time beside the rows, so a file attached to a ticket explains itself. */
export function conversationsJson(rows: readonly Conversation[], context: ExportContext): string {
  return `${JSON.stringify(
    {
      exported_at: context.exportedAt,
      filter: { agent: context.agent ?? null },
      ...(context.baseUrl ? { service: context.baseUrl } : {}),
      total: rows.length,
      conversations: rows.map((r) => Object.fromEntries(CONVERSATION_COLUMNS.map((c) => [c, r[c]]))),
    },
    null,
    2,
  )}\n`;
}

/** `conversations-helpdesk-2026-01-15T10-32-05.csv`: sortable, and safe on every file system. */
export function exportFileName(agent: string | undefined, exportedAt: string, ext: 'csv' | 'json'): string {
  const stamp = exportedAt.slice(0, 19).replaceAll(':', '-');
  const who = (agent ?? 'all-agents').replace(/[^A-Za-z0-9_-]+/g, '-');
  return `conversations-${who}-${stamp}.${ext}`;
}

/** What one conversation's history export says about the conversation (history-export.ts writes it). */
export function conversationSubject(sessionId: string, row: Conversation | undefined): HistorySubject {
  return {
    kind: 'conversation',
    id: sessionId,
    title: `Conversation ${sessionId}`,
    facts: row
      ? [
          { label: 'Session', value: row.session_id, code: true },
          { label: 'Conversation', value: row.id, code: true },
          { label: 'Agent', value: row.agent, code: true },
          { label: 'Messages on the service', value: String(row.message_count) },
          { label: 'Started', value: row.started_at },
          { label: 'Last message', value: row.last_message_at },
          { label: 'Status', value: row.status },
        ]
      : [
          { label: 'Session', value: sessionId, code: true },
          { label: 'Service', value: 'Not in the service’s list; only what this console recorded follows' },
        ],
    listed: row ?? { session_id: sessionId },
  };
}
