// What changes the history: a message appended, what is known of a conversation, a conversation
// removed, a transcript file imported. Each keeps the conversation's row (what its list shows) in
// step with its messages, so a list never reads a message.
import type { DatabaseSync } from 'node:sqlite';
import type {
  KnownFrom,
  Transcript,
  TranscriptInit,
  TranscriptMessage,
  TranscriptRef,
} from '../../../shared/transcript';
import { statement } from './statements';
import { storedOrNull, storedText as t } from './stored-text';

export type HistoryChange =
  | { type: 'append'; ref: TranscriptRef; message: TranscriptMessage; init?: TranscriptInit | undefined }
  | { type: 'knownFrom'; ref: TranscriptRef; knownFrom: KnownFrom }
  | { type: 'remove'; ref: TranscriptRef };

/** How much of a message a list shows, and of a session's first question as its title. */
export const PREVIEW_CHARS = 200;

/** A session is titled by what the user first asked, on one line. */
export function firstAskOf(message: Pick<TranscriptMessage, 'role' | 'content'>): string | null {
  return message.role === 'user' ? message.content.replace(/\s+/g, ' ').trim().slice(0, PREVIEW_CHARS) : null;
}

interface Row {
  rowid: number;
  message_count: number;
  last_activity_ms: number;
}

function rowOf(db: DatabaseSync, ref: TranscriptRef): Row | undefined {
  return statement(
    db,
    'SELECT rowid, message_count, last_activity_ms FROM transcripts WHERE profile_id = ? AND kind = ? AND id = ?',
  ).get(t(ref.profileId), ref.kind, t(ref.id)) as Row | undefined;
}

export function exists(db: DatabaseSync, ref: TranscriptRef): boolean {
  return rowOf(db, ref) !== undefined;
}

export function applyChange(db: DatabaseSync, change: HistoryChange): void {
  if (change.type === 'append') append(db, change.ref, change.message, change.init);
  else if (change.type === 'knownFrom')
    statement(db, 'UPDATE transcripts SET known_from = ? WHERE profile_id = ? AND kind = ? AND id = ?').run(
      change.knownFrom,
      t(change.ref.profileId),
      change.ref.kind,
      t(change.ref.id),
    );
  else
    statement(db, 'DELETE FROM transcripts WHERE profile_id = ? AND kind = ? AND id = ?').run(
      t(change.ref.profileId),
      change.ref.kind,
      t(change.ref.id),
    );
}

function createRow(db: DatabaseSync, head: Omit<Transcript, 'messages'>): Row {
  const ms = Date.parse(head.lastActivityAt);
  const { rowid } = statement(
    db,
    `INSERT INTO transcripts (profile_id, kind, id, agent, title, known_from, created_at, last_activity_at,
       last_activity_ms) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING rowid`,
  ).get(
    t(head.profileId),
    head.kind,
    t(head.id),
    t(head.agent),
    storedOrNull(head.title),
    head.knownFrom,
    head.createdAt,
    head.lastActivityAt,
    ms,
  ) as {
    rowid: number;
  };
  return { rowid, message_count: 0, last_activity_ms: ms };
}

function append(
  db: DatabaseSync,
  ref: TranscriptRef,
  message: TranscriptMessage,
  init: TranscriptInit | undefined,
): void {
  let row = rowOf(db, ref);
  if (!row) {
    if (!init) throw new Error(`No transcript for ${ref.kind} ${JSON.stringify(ref.id)}`);
    row = createRow(db, { ...ref, ...init, createdAt: message.at, lastActivityAt: message.at });
  } else if (init) {
    statement(
      db,
      `UPDATE transcripts SET agent = CASE WHEN ? != '' THEN ? ELSE agent END, title = coalesce(?, title)
       WHERE rowid = ?`,
    ).run(init.agent, t(init.agent), storedOrNull(init.title), row.rowid);
  }
  addMessage(db, row, ref, message);
}

function addMessage(
  db: DatabaseSync,
  row: Row,
  ref: Pick<TranscriptRef, 'kind'>,
  message: TranscriptMessage,
): void {
  const atMs = Date.parse(message.at);
  statement(
    db,
    `INSERT INTO messages (transcript, seq, role, content, at, at_ms, request_id, status, error)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(
    row.rowid,
    row.message_count,
    message.role,
    t(message.content),
    message.at,
    atMs,
    storedOrNull(message.requestId),
    message.status,
    storedOrNull(message.error),
  );
  const newer = atMs > row.last_activity_ms;
  statement(
    db,
    `UPDATE transcripts SET message_count = message_count + 1, last_role = ?, last_status = ?,
       last_preview = ?, first_ask = coalesce(first_ask, ?),
       last_activity_at = CASE WHEN ? THEN ? ELSE last_activity_at END,
       last_activity_ms = CASE WHEN ? THEN ? ELSE last_activity_ms END
     WHERE rowid = ?`,
  ).run(
    message.role,
    message.status,
    t(message.content.slice(0, PREVIEW_CHARS)),
    ref.kind === 'session' ? storedOrNull(firstAskOf(message)) : null,
    newer ? 1 : 0,
    message.at,
    newer ? 1 : 0,
    atMs,
    row.rowid,
  );
  row.message_count++;
  if (newer) row.last_activity_ms = atMs;
}

/** Adds a whole transcript (an imported file) unless the database already holds one by its name. */
export function insertTranscript(db: DatabaseSync, transcript: Transcript): boolean {
  if (rowOf(db, transcript)) return false;
  const { messages, ...head } = transcript;
  const row = createRow(db, head);
  for (const message of messages) addMessage(db, row, transcript, message);
  // The file's own times stand, whatever its messages say.
  statement(db, 'UPDATE transcripts SET last_activity_at = ?, last_activity_ms = ? WHERE rowid = ?').run(
    transcript.lastActivityAt,
    Date.parse(transcript.lastActivityAt),
    row.rowid,
  );
  return true;
}
