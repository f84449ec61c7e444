// Reviews in the history database (docs/architecture.md, "Reviews"): the team's labels, and one
// review per record (a conversation or thread) or per message — a verdict, labels and a note. Every
// text is masked of keys before it is kept (redact.ts), as messages are, and each change is one
// committed transaction: saved means on disk.
import type { DatabaseSync } from 'node:sqlite';
import {
  LABEL_COLOUR,
  LABEL_NAME_MAX,
  LABEL_NAME_REFUSED,
  NOTE_MAX,
  Verdict,
  type RecordReviews,
  type Review,
  type ReviewInput,
  type ReviewLabel,
  type ReviewTarget,
} from '../../../shared/review';
import type { TranscriptKind, TranscriptRef } from '../../../shared/transcript';
import { CoreError } from '../core-error';
import { redactSecrets } from '../redact';
import { inTransaction, statement } from './statements';
import { shownText as shown, storedText as stored } from './stored-text';

/** A review or label the user can fix: the words say what was refused and why. */
class ReviewError extends CoreError {
  override readonly name = 'ReviewError';
}

/** The `message` column's value for a review of the whole record. */
const WHOLE = -1;

/**
 * The one rule for "reviewed" and "labelled" as search and the queue ask it: SQL over a message `m`
 * (its transcript and seq) — reviewed itself, or as part of its record.
 */
export const REVIEWED_SQL = (m: string) =>
  `EXISTS (SELECT 1 FROM reviews r WHERE r.transcript = ${m}.transcript AND r.message IN (-1, ${m}.seq))`;
export const LABELLED_SQL = (m: string) =>
  `EXISTS (SELECT 1 FROM reviews r JOIN review_labels rl ON rl.review = r.rowid JOIN labels l ON l.rowid = rl.label
     WHERE r.transcript = ${m}.transcript AND r.message IN (-1, ${m}.seq) AND l.name = ?)`;

/** What stands for a whole record in the queue and the export: its first message, or its title. */
export const RECORD_TEXT_SQL = (t: string) =>
  `coalesce(${t}.first_ask, (SELECT f.content FROM messages f WHERE f.transcript = ${t}.rowid AND f.seq = 0), ${t}.title)`;

interface LabelRow {
  rowid: number;
  name: string;
  colour: string;
  uses: number;
}

export function readLabels(db: DatabaseSync): ReviewLabel[] {
  const rows = statement(
    db,
    `SELECT l.rowid, l.name, l.colour, (SELECT count(*) FROM review_labels WHERE label = l.rowid) AS uses
     FROM labels l ORDER BY l.name COLLATE NOCASE`,
  ).all() as unknown as LabelRow[];
  return rows.map((r) => ({ id: r.rowid, name: shown(r.name), colour: r.colour, uses: r.uses }));
}

function checkedLabel(name: string, colour: string): { name: string; colour: string } {
  const trimmed = redactSecrets(name.trim());
  if (!trimmed) throw new ReviewError('LABEL_INVALID', 'A label needs a name.');
  if (trimmed.length > LABEL_NAME_MAX)
    throw new ReviewError('LABEL_INVALID', `A label's name holds at most ${LABEL_NAME_MAX} characters.`);
  if (LABEL_NAME_REFUSED.test(trimmed))
    throw new ReviewError('LABEL_INVALID', 'A label’s name cannot hold control characters or line breaks.');
  if (!LABEL_COLOUR.test(colour))
    throw new ReviewError('LABEL_INVALID', 'A label’s colour is written #rrggbb (a colour picker’s value).');
  return { name: trimmed, colour: colour.toLowerCase() };
}

/** Adds a label, or renames and recolours one (`id`): its reviews keep it. */
export function saveLabel(
  db: DatabaseSync,
  input: { id?: number | undefined; name: string; colour: string },
) {
  const { name, colour } = checkedLabel(input.name, input.colour);
  inTransaction(db, () => {
    const same = statement(db, 'SELECT rowid FROM labels WHERE name = ?').get(stored(name)) as
      { rowid: number } | undefined;
    if (same && same.rowid !== input.id)
      throw new ReviewError('LABEL_EXISTS', `There is already a label named “${name}”.`);
    if (input.id === undefined) {
      statement(db, 'INSERT INTO labels (name, colour) VALUES (?, ?)').run(stored(name), colour);
    } else {
      const changed = statement(db, 'UPDATE labels SET name = ?, colour = ? WHERE rowid = ?').run(
        stored(name),
        colour,
        input.id,
      );
      if (changed.changes === 0) throw new ReviewError('LABEL_NOT_FOUND', 'That label no longer exists.');
    }
  });
  return readLabels(db);
}

/** Deletes a label from the list and from every review that carries it; says how many did. */
export function removeLabel(db: DatabaseSync, id: number): { removed: boolean; reviews: number } {
  return inTransaction(db, () => {
    const { uses } = statement(db, 'SELECT count(*) AS uses FROM review_labels WHERE label = ?').get(id) as {
      uses: number;
    };
    const gone = statement(db, 'DELETE FROM labels WHERE rowid = ?').run(id).changes > 0;
    return { removed: gone, reviews: gone ? uses : 0 };
  });
}

interface ReviewRow {
  rowid: number;
  kind: TranscriptKind;
  id: string;
  message: number;
  verdict: Verdict | null;
  note: string;
  reviewed_at: string;
  labels: string | null;
}

/** Labels come joined by a character no label name holds (LABEL_NAME_REFUSED). */
const LABEL_JOIN = '\u001f';
export const REVIEW_COLUMNS = `r.rowid, t.kind, t.id, r.message, r.verdict, r.note, r.reviewed_at,
  (SELECT group_concat(name, char(31)) FROM (SELECT l.name FROM review_labels rl JOIN labels l ON l.rowid = rl.label
     WHERE rl.review = r.rowid ORDER BY l.name COLLATE NOCASE)) AS labels`;

export function reviewOf(row: ReviewRow): Review {
  return {
    kind: row.kind,
    id: shown(row.id),
    ...(row.message === WHOLE ? {} : { message: row.message }),
    ...(row.verdict === null ? {} : { verdict: row.verdict }),
    labels: row.labels ? row.labels.split(LABEL_JOIN).map(shown) : [],
    note: shown(row.note),
    reviewedAt: row.reviewed_at,
  };
}

function transcriptRow(db: DatabaseSync, ref: TranscriptRef): number | undefined {
  const row = statement(db, 'SELECT rowid FROM transcripts WHERE profile_id = ? AND kind = ? AND id = ?').get(
    stored(ref.profileId),
    ref.kind,
    stored(ref.id),
  ) as { rowid: number } | undefined;
  return row?.rowid;
}

/** The reviews of one record: its own, and its messages' keyed by their index. */
export function readRecordReviews(db: DatabaseSync, ref: TranscriptRef): RecordReviews {
  const rowid = transcriptRow(db, ref);
  const found: RecordReviews = { messages: {} };
  if (rowid === undefined) return found;
  const rows = statement(
    db,
    `SELECT ${REVIEW_COLUMNS} FROM reviews r JOIN transcripts t ON t.rowid = r.transcript
     WHERE r.transcript = ? ORDER BY r.message`,
  ).all(rowid) as unknown as ReviewRow[];
  for (const row of rows) {
    const review = reviewOf(row);
    if (review.message === undefined) found.record = review;
    else found.messages[review.message] = review;
  }
  return found;
}

function checkedNote(note: string): string {
  if (note.length > NOTE_MAX)
    throw new ReviewError(
      'NOTE_TOO_LONG',
      `A note holds at most ${NOTE_MAX.toLocaleString('en')} characters; this one has ${note.length.toLocaleString('en')}. Shorten it, or link to where the rest is.`,
    );
  return redactSecrets(note);
}

/**
 * Saves the review of a record or of one of its messages, replacing what was there; one with no
 * verdict, no label and no note is no review, and is removed. Returns what is now kept.
 */
export function saveReview(
  db: DatabaseSync,
  profileId: string,
  input: ReviewInput,
  now: Date,
): Review | undefined {
  const verdict = input.verdict === undefined ? null : Verdict.parse(input.verdict);
  const note = checkedNote(input.note);
  const names = [...new Set(input.labels)];
  return inTransaction(db, () => {
    const rowid = transcriptRow(db, { profileId, kind: input.kind, id: input.id });
    if (rowid === undefined)
      throw new ReviewError(
        'REVIEW_TARGET',
        `This console has no record of the ${input.kind === 'session' ? 'conversation' : 'thread'} ${JSON.stringify(input.id)}: only recorded history can be reviewed.`,
      );
    const message = input.message ?? WHOLE;
    if (input.message !== undefined) {
      const there = statement(db, 'SELECT 1 FROM messages WHERE transcript = ? AND seq = ?').get(
        rowid,
        message,
      );
      if (!there)
        throw new ReviewError(
          'REVIEW_TARGET',
          `The record has no message ${message + 1}: it cannot be reviewed.`,
        );
    }
    const labelIds = names.map((name) => {
      const row = statement(db, 'SELECT rowid FROM labels WHERE name = ?').get(stored(name)) as
        { rowid: number } | undefined;
      if (!row) throw new ReviewError('LABEL_NOT_FOUND', `There is no label named “${name}”: add it first.`);
      return row.rowid;
    });
    statement(db, 'DELETE FROM reviews WHERE transcript = ? AND message = ?').run(rowid, message);
    if (verdict === null && labelIds.length === 0 && note.trim() === '') return undefined;
    const { rowid: review } = statement(
      db,
      `INSERT INTO reviews (transcript, message, verdict, note, reviewed_at, reviewed_ms)
       VALUES (?, ?, ?, ?, ?, ?) RETURNING rowid`,
    ).get(rowid, message, verdict, stored(note), now.toISOString(), now.getTime()) as { rowid: number };
    for (const label of labelIds)
      statement(db, 'INSERT INTO review_labels (review, label) VALUES (?, ?)').run(review, label);
    const row = statement(
      db,
      `SELECT ${REVIEW_COLUMNS} FROM reviews r JOIN transcripts t ON t.rowid = r.transcript WHERE r.rowid = ?`,
    ).get(review) as unknown as ReviewRow;
    return reviewOf(row);
  });
}

/** Removes the review of a record or message; resolves whether there was one. */
export function removeReview(db: DatabaseSync, profileId: string, target: ReviewTarget): boolean {
  const rowid = transcriptRow(db, { profileId, kind: target.kind, id: target.id });
  if (rowid === undefined) return false;
  return inTransaction(
    db,
    () =>
      statement(db, 'DELETE FROM reviews WHERE transcript = ? AND message = ?').run(
        rowid,
        target.message ?? WHOLE,
      ).changes > 0,
  );
}
