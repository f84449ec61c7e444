// Reviews as a file to hand on (docs/architecture.md, "Reviews"): CSV for a spreadsheet (the one CSV
// writer, shared/csv.ts, which keeps a cell from running as a formula) or JSON, one row per review,
// newest first, each with the ids of what it is about and the in-app link back to it. The app's
// Export and `agent-console reviews export` both make their file here.
import type { DatabaseSync } from 'node:sqlite';
import { csvText } from '../../../shared/csv';
import { historyLink, type Review } from '../../../shared/review';
import type { TranscriptMessage } from '../../../shared/transcript';
import { RECORD_TEXT_SQL, REVIEW_COLUMNS, reviewOf } from './reviews';
import { statement } from './statements';
import { shownText as shown, storedText as stored } from './stored-text';

export interface ReviewExportQuery {
  /** Every profile's reviews when absent. */
  profileId?: string | undefined;
  label?: string | undefined;
  /** ISO time: reviews made at or after it. */
  since?: string | undefined;
}

/** One exported review; the field names are the file's, the same in CSV and JSON. */
export interface ExportedReview {
  reviewed_at: string;
  profile_id: string;
  kind: Review['kind'];
  id: string;
  /** The message's index in its record (0 is the first); null for the whole record. */
  message_index: number | null;
  role: TranscriptMessage['role'] | null;
  agent: string;
  verdict: string;
  labels: string[];
  note: string;
  /** The reviewed message's text, or the record's first question. */
  text: string;
  link: string;
}

const COLUMNS = [
  'reviewed_at',
  'profile_id',
  'kind',
  'id',
  'message_index',
  'role',
  'agent',
  'verdict',
  'labels',
  'note',
  'text',
  'link',
] as const satisfies readonly (keyof ExportedReview)[];

type Row = Parameters<typeof reviewOf>[0] & {
  profile_id: string;
  agent: string;
  role: TranscriptMessage['role'] | null;
  text: string | null;
};

export function exportedReviews(db: DatabaseSync, query: ReviewExportQuery): ExportedReview[] {
  const where: string[] = ['1'];
  const params: (string | number)[] = [];
  if (query.profileId !== undefined) {
    where.push('t.profile_id = ?');
    params.push(stored(query.profileId));
  }
  if (query.since !== undefined) {
    where.push('r.reviewed_ms >= ?');
    params.push(Date.parse(query.since));
  }
  if (query.label !== undefined) {
    where.push(
      'EXISTS (SELECT 1 FROM review_labels rl JOIN labels l ON l.rowid = rl.label WHERE rl.review = r.rowid AND l.name = ?)',
    );
    params.push(stored(query.label));
  }
  const rows = statement(
    db,
    `SELECT ${REVIEW_COLUMNS}, t.profile_id, t.agent, m.role,
       CASE WHEN r.message = -1 THEN ${RECORD_TEXT_SQL('t')} ELSE m.content END AS text
     FROM reviews r JOIN transcripts t ON t.rowid = r.transcript
       LEFT JOIN messages m ON m.transcript = r.transcript AND m.seq = r.message
     WHERE ${where.join(' AND ')} ORDER BY r.reviewed_ms DESC, r.rowid DESC`,
  ).all(...params) as unknown as Row[];
  return rows.map((row) => {
    const review = reviewOf(row);
    return {
      reviewed_at: review.reviewedAt,
      profile_id: shown(row.profile_id),
      kind: review.kind,
      id: review.id,
      message_index: review.message ?? null,
      role: review.message === undefined ? null : row.role,
      agent: shown(row.agent),
      verdict: review.verdict ?? '',
      labels: review.labels,
      note: review.note,
      text: row.text === null ? '' : shown(row.text),
      link: historyLink(review),
    };
  });
}

export function reviewsCsv(rows: readonly ExportedReview[]): string {
  return csvText(
    COLUMNS,
    rows.map((row) => COLUMNS.map((c) => (c === 'labels' ? row.labels.join('; ') : row[c]))),
  );
}

export function reviewsJson(rows: readonly ExportedReview[], exportedAt: string): string {
  return `${JSON.stringify({ exported_at: exportedAt, reviews: rows }, null, 2)}\n`;
}
