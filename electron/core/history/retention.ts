// What leaves the history (docs/architecture.md, "The history database"): conversations older than
// the days kept, the oldest beyond the size kept, or every one of a profile's (or of one agent's)
// when the user asks. Whole conversations go, oldest activity first, their messages and search
// entries with them (the schema's cascade and triggers). Compacting afterwards gives the space
// back to the disk: the search index merged, VACUUM, and the WAL checkpointed and truncated.
import type { DatabaseSync } from 'node:sqlite';
import { inTransaction, statement } from './statements';
import { storedText as stored } from './stored-text';

/** Whose conversations: a profile's, or only those with one agent. */
export interface HistoryScope {
  profileId: string;
  agent?: string | undefined;
}

/** How many conversations, and messages, `scope` holds. */
export function countScope(
  db: DatabaseSync,
  scope: HistoryScope,
): { conversations: number; messages: number } {
  const row = (
    scope.agent === undefined
      ? statement(
          db,
          'SELECT count(*) AS conversations, coalesce(sum(message_count), 0) AS messages FROM transcripts WHERE profile_id = ?',
        ).get(stored(scope.profileId))
      : statement(
          db,
          'SELECT count(*) AS conversations, coalesce(sum(message_count), 0) AS messages FROM transcripts WHERE profile_id = ? AND agent = ?',
        ).get(stored(scope.profileId), stored(scope.agent))
  ) as { conversations: number; messages: number };
  return { conversations: row.conversations, messages: row.messages };
}

/** The agents a profile's history holds, with how many conversations each, most first. */
export function agentsOf(db: DatabaseSync, profileId: string): { agent: string; conversations: number }[] {
  return (
    statement(
      db,
      'SELECT agent, count(*) AS conversations FROM transcripts WHERE profile_id = ? GROUP BY agent ORDER BY conversations DESC, agent',
    ).all(stored(profileId)) as { agent: string; conversations: number }[]
  ).map((row) => ({ ...row }));
}

/** Deletes every conversation of `scope`, then gives the space back; returns how many went. */
export function deleteScope(db: DatabaseSync, scope: HistoryScope): number {
  const removed = inTransaction(db, () =>
    scope.agent === undefined
      ? Number(
          statement(db, 'DELETE FROM transcripts WHERE profile_id = ?').run(stored(scope.profileId)).changes,
        )
      : Number(
          statement(db, 'DELETE FROM transcripts WHERE profile_id = ? AND agent = ?').run(
            stored(scope.profileId),
            stored(scope.agent),
          ).changes,
        ),
  );
  compact(db);
  return removed;
}

/** How much history is kept: conversations idle at most `days`, and at most `bytes` of them. */
export interface HistoryKeep {
  days?: number | undefined;
  bytes?: number | undefined;
}

/**
 * Keeps the history within `keep`: conversations idle longer than `days`, then the oldest beyond
 * `bytes`, are deleted, and the space given back. Returns how many went.
 */
export function pruneHistory(db: DatabaseSync, keep: HistoryKeep, nowMs: number): number {
  let removed = 0;
  if (keep.days !== undefined) removed += deleteOlderThan(db, nowMs - keep.days * 86_400_000);
  if (keep.bytes !== undefined) removed += deleteBeyondSize(db, keep.bytes);
  if (removed > 0) compact(db);
  return removed;
}

/** Every profile's conversations whose last activity is before `cutoffMs`. */
function deleteOlderThan(db: DatabaseSync, cutoffMs: number): number {
  return inTransaction(db, () =>
    Number(statement(db, 'DELETE FROM transcripts WHERE last_activity_ms < ?').run(cutoffMs).changes),
  );
}

function pragma(db: DatabaseSync, name: string): number {
  return Object.values(db.prepare(`PRAGMA ${name}`).get() ?? {})[0] as number;
}

/** The bytes the database's content takes, free pages not counted. */
function usedBytes(db: DatabaseSync): number {
  return (pragma(db, 'page_count') - pragma(db, 'freelist_count')) * pragma(db, 'page_size');
}

/** Merges the search index, so what deleted conversations took in it is freed. */
function mergeSearchIndex(db: DatabaseSync): void {
  db.exec("INSERT INTO message_text (message_text) VALUES ('optimize')");
}

/**
 * Deletes the oldest conversations, a share at a time, until the content takes at most `maxBytes`;
 * returns how many went.
 */
function deleteBeyondSize(db: DatabaseSync, maxBytes: number): number {
  let deleted = 0;
  for (let round = 0; round < 20; round++) {
    const used = usedBytes(db);
    if (used <= maxBytes) break;
    const { n } = statement(db, 'SELECT count(*) AS n FROM transcripts').get() as { n: number };
    if (n === 0) break;
    // As many as the excess is of the whole, on average, and a few more: each round reads the size again.
    const share = Math.min(n, Math.ceil((n * (used - maxBytes)) / used) + Math.ceil(n / 100));
    deleted += inTransaction(db, () =>
      Number(
        statement(
          db,
          `DELETE FROM transcripts WHERE rowid IN
             (SELECT rowid FROM transcripts ORDER BY last_activity_ms, rowid LIMIT ?)`,
        ).run(share).changes,
      ),
    );
    mergeSearchIndex(db);
  }
  return deleted;
}

/** Gives the freed space back to the disk: the database file and its WAL shrink. */
function compact(db: DatabaseSync): void {
  mergeSearchIndex(db);
  db.exec('VACUUM');
  db.exec('PRAGMA wal_checkpoint(TRUNCATE)');
}
