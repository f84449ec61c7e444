// The review queue (docs/architecture.md, "Reviews"): a profile's agent replies, or its whole
// conversations and threads, newest first, a page at a time, narrowed to those not reviewed yet,
// reviewed, labelled X or given a verdict; with the progress over the whole scope ("14 of 60
// reviewed"). A reply or record counts as reviewed by its own review here.
import type { DatabaseSync } from 'node:sqlite';
import type { QueueItem, QueuePage, QueueState, QueueTarget, Verdict } from '../../../shared/review';
import type { TranscriptKind, TranscriptMessage } from '../../../shared/transcript';
import { RECORD_TEXT_SQL, REVIEW_COLUMNS, reviewOf } from './reviews';
import { statement } from './statements';
import { shownText as shown, storedText as stored } from './stored-text';

export interface QueueQuery {
  profileId: string;
  target: QueueTarget;
  state: QueueState;
  label?: string | undefined;
  verdict?: Verdict | undefined;
  agent?: string | undefined;
  /** ISO time: items at or after it. */
  since?: string | undefined;
  limit?: number | undefined;
  /** `next` of the page before. */
  cursor?: string | undefined;
}

const DEFAULT_LIMIT = 100;

interface ItemRow {
  kind: TranscriptKind;
  id: string;
  agent: string;
  title: string | null;
  seq: number | null;
  role: TranscriptMessage['role'] | null;
  at: string;
  at_ms: number;
  place: number;
  text: string | null;
  asked: string | null;
  review: number | null;
}

/** The item's own review, by the shape of the query: a reply's (its seq) or a record's (-1). */
const SHAPES = {
  replies: {
    from: `messages m JOIN transcripts t ON t.rowid = m.transcript
      LEFT JOIN reviews r ON r.transcript = m.transcript AND r.message = m.seq`,
    scope: "m.role = 'agent'",
    at: 'm.at_ms',
    place: 'm.rowid',
    columns: `m.seq, m.role, m.at, m.at_ms, m.rowid AS place, m.content AS text,
      (SELECT u.content FROM messages u WHERE u.transcript = m.transcript AND u.seq = m.seq - 1 AND u.role = 'user') AS asked`,
  },
  records: {
    from: `transcripts t LEFT JOIN reviews r ON r.transcript = t.rowid AND r.message = -1`,
    scope: '1',
    at: 't.last_activity_ms',
    place: 't.rowid',
    columns: `NULL AS seq, NULL AS role, t.last_activity_at AS at, t.last_activity_ms AS at_ms,
      t.rowid AS place, ${RECORD_TEXT_SQL('t')} AS text, NULL AS asked`,
  },
} as const;

export function reviewQueue(db: DatabaseSync, query: QueueQuery): QueuePage {
  const shape = SHAPES[query.target];
  const scope: string[] = ['t.profile_id = ?', shape.scope];
  const scopeParams: (string | number)[] = [stored(query.profileId)];
  if (query.agent !== undefined) {
    scope.push('t.agent = ?');
    scopeParams.push(stored(query.agent));
  }
  if (query.since !== undefined) {
    scope.push(`${shape.at} >= ?`);
    scopeParams.push(Date.parse(query.since));
  }
  const filter: string[] = [];
  const filterParams: (string | number)[] = [];
  if (query.state === 'unreviewed') filter.push('r.rowid IS NULL');
  if (query.state === 'reviewed') filter.push('r.rowid IS NOT NULL');
  if (query.verdict !== undefined) {
    filter.push('r.verdict = ?');
    filterParams.push(query.verdict);
  }
  if (query.label !== undefined) {
    filter.push(
      'EXISTS (SELECT 1 FROM review_labels rl JOIN labels l ON l.rowid = rl.label WHERE rl.review = r.rowid AND l.name = ?)',
    );
    filterParams.push(stored(query.label));
  }
  const where = [...scope, ...filter].join(' AND ');
  const params = [...scopeParams, ...filterParams];
  const progress = statement(
    db,
    `SELECT count(*) AS inScope, count(r.rowid) AS reviewed FROM ${shape.from} WHERE ${scope.join(' AND ')}`,
  ).get(...scopeParams) as { inScope: number; reviewed: number };
  const { matching } = statement(db, `SELECT count(*) AS matching FROM ${shape.from} WHERE ${where}`).get(
    ...params,
  ) as { matching: number };
  const limit = query.limit ?? DEFAULT_LIMIT;
  const after = cursorAfter(query.cursor);
  const rows = statement(
    db,
    `SELECT t.kind, t.id, t.agent, t.title, ${shape.columns}, r.rowid AS review
     FROM ${shape.from}
     WHERE ${where}${after ? ` AND (${shape.at} < ? OR (${shape.at} = ? AND ${shape.place} < ?))` : ''}
     ORDER BY ${shape.at} DESC, ${shape.place} DESC LIMIT ?`,
  ).all(...params, ...(after ? [after.at, after.at, after.place] : []), limit + 1) as unknown as ItemRow[];
  const page = rows.slice(0, limit);
  const reviews = reviewsByRowid(
    db,
    page.flatMap((row) => (row.review === null ? [] : [row.review])),
  );
  const items = page.map((row): QueueItem => {
    const review = row.review === null ? undefined : reviews.get(row.review);
    return {
      kind: row.kind,
      id: shown(row.id),
      agent: shown(row.agent),
      ...(row.title === null ? {} : { title: shown(row.title) }),
      ...(row.seq === null ? {} : { message: row.seq }),
      ...(row.role === null ? {} : { role: row.role }),
      at: row.at,
      text: row.text === null ? '' : shown(row.text),
      ...(row.asked === null ? {} : { asked: shown(row.asked) }),
      ...(review ? { review } : {}),
    };
  });
  const last = page.at(-1);
  return {
    items,
    ...(last && rows.length > limit ? { next: `${last.at_ms}:${last.place}` } : {}),
    matching,
    reviewed: progress.reviewed,
    inScope: progress.inScope,
  };
}

function cursorAfter(cursor: string | undefined): { at: number; place: number } | undefined {
  const found = cursor === undefined ? undefined : /^(-?\d{1,16}):(\d{1,16})$/.exec(cursor);
  return found ? { at: Number(found[1]), place: Number(found[2]) } : undefined;
}

function reviewsByRowid(db: DatabaseSync, rowids: number[]) {
  const found = new Map<number, ReturnType<typeof reviewOf>>();
  if (rowids.length === 0) return found;
  const rows = db
    .prepare(
      `SELECT ${REVIEW_COLUMNS} FROM reviews r JOIN transcripts t ON t.rowid = r.transcript
       WHERE r.rowid IN (${rowids.map(() => '?').join(',')})`,
    )
    .all(...rowids) as unknown as Parameters<typeof reviewOf>[0][];
  for (const row of rows) found.set(row.rowid, reviewOf(row));
  return found;
}
