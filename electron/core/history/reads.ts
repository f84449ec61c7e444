// What the history shows: one conversation whole, a page of a profile's conversations (newest
// activity first, from a cursor), a range of one conversation's messages.
import { dirname } from 'node:path';
import type { DatabaseSync } from 'node:sqlite';
import type {
  KnownFrom,
  MessageRange,
  MessageStatus,
  Transcript,
  TranscriptKind,
  TranscriptMessage,
  TranscriptRef,
  TranscriptSummary,
} from '../../../shared/transcript';
import { statement } from './statements';
import { shownText as shown, storedText as stored } from './stored-text';

interface TranscriptRow {
  rowid: number;
  profile_id: string;
  kind: TranscriptKind;
  id: string;
  agent: string;
  title: string | null;
  known_from: KnownFrom;
  created_at: string;
  last_activity_at: string;
  last_activity_ms: number;
  message_count: number;
  first_ask: string | null;
  last_role: TranscriptMessage['role'] | null;
  last_status: MessageStatus | null;
  last_preview: string | null;
}

interface MessageRow {
  role: TranscriptMessage['role'];
  content: string;
  at: string;
  request_id: string | null;
  status: MessageStatus;
  error: string | null;
}

const ROW = 'SELECT * FROM transcripts WHERE profile_id = ? AND kind = ? AND id = ?';

function messageOf(row: MessageRow): TranscriptMessage {
  return {
    role: row.role,
    content: shown(row.content),
    at: row.at,
    ...(row.request_id === null ? {} : { requestId: shown(row.request_id) }),
    status: row.status,
    ...(row.error === null ? {} : { error: shown(row.error) }),
  };
}

/** What a record is, without its messages. */
function headOf(row: TranscriptRow): Omit<Transcript, 'messages'> {
  return {
    profileId: shown(row.profile_id),
    kind: row.kind,
    id: shown(row.id),
    agent: shown(row.agent),
    ...(row.title === null ? {} : { title: shown(row.title) }),
    knownFrom: row.known_from,
    createdAt: row.created_at,
    lastActivityAt: row.last_activity_at,
  };
}

export function readTranscript(db: DatabaseSync, ref: TranscriptRef): Transcript | undefined {
  const row = statement(db, ROW).get(stored(ref.profileId), ref.kind, stored(ref.id)) as
    TranscriptRow | undefined;
  if (!row) return undefined;
  const messages = statement(
    db,
    'SELECT role, content, at, request_id, status, error FROM messages WHERE transcript = ? ORDER BY seq',
  ).all(row.rowid) as unknown as MessageRow[];
  return { ...headOf(row), messages: messages.map(messageOf) };
}

/** Where a range starts: `from` when given, else where the last `limit` messages begin. */
export function rangeStart(from: number | undefined, limit: number, total: number): number {
  return from ?? Math.max(0, total - limit);
}

export function readMessages(
  db: DatabaseSync,
  ref: TranscriptRef,
  from: number | undefined,
  limit: number,
): MessageRange | undefined {
  const row = statement(db, ROW).get(stored(ref.profileId), ref.kind, stored(ref.id)) as
    TranscriptRow | undefined;
  if (!row) return undefined;
  const start = rangeStart(from, limit, row.message_count);
  const messages = statement(
    db,
    `SELECT role, content, at, request_id, status, error FROM messages
     WHERE transcript = ? AND seq >= ? ORDER BY seq LIMIT ?`,
  ).all(row.rowid, start, limit) as unknown as MessageRow[];
  return { ...headOf(row), from: start, messages: messages.map(messageOf), total: row.message_count };
}

/** Which record a row is, and how it is titled: a session by its first question, a thread by its own. */
export function recordOf(
  row: Pick<TranscriptRow, 'profile_id' | 'kind' | 'id' | 'agent' | 'title' | 'first_ask'>,
): Pick<TranscriptSummary, 'profileId' | 'kind' | 'id' | 'agent' | 'title'> {
  const title = row.title ?? (row.kind === 'session' ? row.first_ask : null);
  return {
    profileId: shown(row.profile_id),
    kind: row.kind,
    id: shown(row.id),
    agent: shown(row.agent),
    ...(title ? { title: shown(title) } : {}),
  };
}

function summaryOf(row: TranscriptRow): TranscriptSummary {
  return {
    ...recordOf(row),
    knownFrom: row.known_from,
    messageCount: row.message_count,
    createdAt: row.created_at,
    lastActivityAt: row.last_activity_at,
    ...(row.last_role && row.last_status
      ? {
          lastMessage: {
            role: row.last_role,
            status: row.last_status,
            preview: shown(row.last_preview ?? ''),
          },
        }
      : {}),
  };
}

/** Where a page of a list ends: the last conversation's activity and id, opaque to callers. */
export function cursorOf(summary: Pick<TranscriptSummary, 'lastActivityAt' | 'id'>): string {
  return `${Date.parse(summary.lastActivityAt)}|${summary.id}`;
}

function parseCursor(cursor: string): { ms: number; id: string } | undefined {
  const bar = cursor.indexOf('|');
  const ms = Number(cursor.slice(0, bar));
  return bar > 0 && Number.isSafeInteger(ms) ? { ms, id: cursor.slice(bar + 1) } : undefined;
}

/** A page of a profile's conversations, newest activity first (ties by id), after `cursor`. */
export function readSummaries(
  db: DatabaseSync,
  profileId: string,
  kind: TranscriptKind | undefined,
  limit: number,
  cursor?: string,
): TranscriptSummary[] {
  const after = cursor === undefined ? undefined : parseCursor(cursor);
  const kindClause = kind ? 'AND kind = ?' : '';
  const afterClause = after ? 'AND (last_activity_ms < ? OR (last_activity_ms = ? AND id > ?))' : '';
  const params = [
    stored(profileId),
    ...(kind ? [kind] : []),
    ...(after ? [after.ms, after.ms, stored(after.id)] : []),
    limit,
  ];
  const rows = statement(
    db,
    `SELECT * FROM transcripts WHERE profile_id = ? ${kindClause} ${afterClause}
     ORDER BY last_activity_ms DESC, id LIMIT ?`,
  ).all(...params) as unknown as TranscriptRow[];
  return rows.map(summaryOf);
}

/** Transcript files in `folder` that the import could not read, with why. */
export function readImportProblems(db: DatabaseSync, folder: string): { file: string; problem: string }[] {
  const rows = statement(db, 'SELECT file, problem FROM import_problems ORDER BY file').all() as unknown as {
    file: string;
    problem: string;
  }[];
  return rows.filter((row) => dirname(row.file) === folder);
}

/** How many sessions or threads (or both) a profile has: kept counts (schema.ts), so no table scan. */
export function countTranscripts(
  db: DatabaseSync,
  profileId: string,
  kind: TranscriptKind | undefined,
): number {
  const row = kind
    ? statement(
        db,
        'SELECT coalesce(sum(n), 0) AS n FROM transcript_counts WHERE profile_id = ? AND kind = ?',
      ).get(stored(profileId), kind)
    : statement(db, 'SELECT coalesce(sum(n), 0) AS n FROM transcript_counts WHERE profile_id = ?').get(
        stored(profileId),
      );
  return (row as { n: number }).n;
}

/** Which of `ids` the profile has a record of, and from where each is known. */
export function readKnown(
  db: DatabaseSync,
  profileId: string,
  kind: TranscriptKind,
  ids: string[],
): Record<string, KnownFrom> {
  const rows = statement(
    db,
    `SELECT id, known_from FROM transcripts
     WHERE profile_id = ? AND kind = ? AND id IN (SELECT value FROM json_each(?))`,
  ).all(stored(profileId), kind, JSON.stringify(ids.map(stored))) as { id: string; known_from: KnownFrom }[];
  return Object.fromEntries(rows.map((row) => [shown(row.id), row.known_from]));
}
