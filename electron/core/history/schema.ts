// The history database's schema, as numbered migrations (docs/architecture.md, "The history
// database"). The database's user_version is the number of migrations applied; each runs once, in
// its own transaction, so a crash mid-way leaves the version before it. A database from a newer
// version of the console is refused, unread and untouched: its schema may mean something this
// version would get wrong.
import type { DatabaseSync } from 'node:sqlite';
import { CoreError } from '../core-error';

/** A history database this version cannot use as it stands; the words say which file and why. */
export class HistoryError extends CoreError {
  override readonly name = 'HistoryError';
  constructor(
    readonly file: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super('HISTORY', message, options);
  }
}

const MIGRATIONS: readonly string[] = [
  // 1: sessions and threads with what their lists show kept beside them, and their messages.
  `CREATE TABLE transcripts (
     rowid INTEGER PRIMARY KEY,
     profile_id TEXT NOT NULL,
     kind TEXT NOT NULL CHECK (kind IN ('session', 'thread')),
     id TEXT NOT NULL,
     agent TEXT NOT NULL,
     title TEXT,
     known_from TEXT NOT NULL,
     created_at TEXT NOT NULL,
     last_activity_at TEXT NOT NULL,
     last_activity_ms INTEGER NOT NULL,
     message_count INTEGER NOT NULL DEFAULT 0,
     first_ask TEXT,
     last_role TEXT,
     last_status TEXT,
     last_preview TEXT,
     UNIQUE (profile_id, kind, id)
   );
   CREATE INDEX transcripts_recent ON transcripts (profile_id, kind, last_activity_ms DESC, id);
   CREATE INDEX transcripts_recent_any ON transcripts (profile_id, last_activity_ms DESC, id);
   CREATE TABLE messages (
     rowid INTEGER PRIMARY KEY,
     transcript INTEGER NOT NULL REFERENCES transcripts (rowid) ON DELETE CASCADE,
     seq INTEGER NOT NULL,
     role TEXT NOT NULL,
     content TEXT NOT NULL,
     at TEXT NOT NULL,
     at_ms INTEGER NOT NULL,
     request_id TEXT,
     status TEXT NOT NULL,
     error TEXT,
     UNIQUE (transcript, seq)
   );
   CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
   CREATE TABLE import_problems (file TEXT PRIMARY KEY, problem TEXT NOT NULL);`,
  // 2: full-text search over every message's text and error, kept in step by triggers.
  `CREATE VIRTUAL TABLE message_text USING fts5 (
     content, error, content = 'messages', content_rowid = 'rowid', tokenize = 'unicode61'
   );
   CREATE TRIGGER messages_indexed AFTER INSERT ON messages BEGIN
     INSERT INTO message_text (rowid, content, error) VALUES (new.rowid, new.content, new.error);
   END;
   CREATE TRIGGER messages_unindexed AFTER DELETE ON messages BEGIN
     INSERT INTO message_text (message_text, rowid, content, error)
       VALUES ('delete', old.rowid, old.content, old.error);
   END;
   CREATE TRIGGER messages_reindexed AFTER UPDATE ON messages BEGIN
     INSERT INTO message_text (message_text, rowid, content, error)
       VALUES ('delete', old.rowid, old.content, old.error);
     INSERT INTO message_text (rowid, content, error) VALUES (new.rowid, new.content, new.error);
   END;
   INSERT INTO message_text (message_text) VALUES ('rebuild');`,
  // 3: reviews (docs/architecture.md, "Reviews"): the team's labels, and a review per record or per
  // message (-1 for the whole record), gone with its record.
  `CREATE TABLE labels (
     rowid INTEGER PRIMARY KEY,
     name TEXT NOT NULL UNIQUE COLLATE NOCASE,
     colour TEXT NOT NULL
   );
   CREATE TABLE reviews (
     rowid INTEGER PRIMARY KEY,
     transcript INTEGER NOT NULL REFERENCES transcripts (rowid) ON DELETE CASCADE,
     message INTEGER NOT NULL,
     verdict TEXT CHECK (verdict IN ('good', 'needs-work', 'wrong')),
     note TEXT NOT NULL,
     reviewed_at TEXT NOT NULL,
     reviewed_ms INTEGER NOT NULL,
     UNIQUE (transcript, message)
   );
   CREATE INDEX reviews_recent ON reviews (reviewed_ms);
   CREATE TABLE review_labels (
     review INTEGER NOT NULL REFERENCES reviews (rowid) ON DELETE CASCADE,
     label INTEGER NOT NULL REFERENCES labels (rowid) ON DELETE CASCADE,
     PRIMARY KEY (review, label)
   ) WITHOUT ROWID;
   CREATE INDEX review_labels_by_label ON review_labels (label);`,
  // 4: how many sessions and threads each profile has, kept by triggers, so a list's total is one row
  // read rather than a count over every conversation; and the search index made again with indexes of
  // each word's first 2, 3 and 4 characters, so a word* query reads its prefix's own entries, newest
  // first, instead of gathering every word it could be (docs/performance.md).
  `CREATE TABLE transcript_counts (
     profile_id TEXT NOT NULL,
     kind TEXT NOT NULL,
     n INTEGER NOT NULL,
     PRIMARY KEY (profile_id, kind)
   ) WITHOUT ROWID;
   INSERT INTO transcript_counts (profile_id, kind, n)
     SELECT profile_id, kind, count(*) FROM transcripts GROUP BY profile_id, kind;
   CREATE TRIGGER transcripts_counted AFTER INSERT ON transcripts BEGIN
     INSERT INTO transcript_counts (profile_id, kind, n) VALUES (new.profile_id, new.kind, 1)
       ON CONFLICT (profile_id, kind) DO UPDATE SET n = n + 1;
   END;
   CREATE TRIGGER transcripts_uncounted AFTER DELETE ON transcripts BEGIN
     UPDATE transcript_counts SET n = n - 1 WHERE profile_id = old.profile_id AND kind = old.kind;
   END;
   DROP TABLE message_text;
   CREATE VIRTUAL TABLE message_text USING fts5 (
     content, error, content = 'messages', content_rowid = 'rowid', tokenize = 'unicode61',
     prefix = '2 3 4'
   );
   INSERT INTO message_text (message_text) VALUES ('rebuild');`,
];

export const SCHEMA_VERSION = MIGRATIONS.length;

function versionOf(db: DatabaseSync): number {
  return (db.prepare('PRAGMA user_version').get() as { user_version: number }).user_version;
}

/**
 * Brings the database up to `upTo` migrations (all of them unless a test asks for fewer). Throws
 * HistoryError, changing nothing, when the database is newer than this version.
 */
export function migrate(db: DatabaseSync, file: string, upTo = SCHEMA_VERSION): void {
  refuseNewer(db, file);
  for (let version = versionOf(db); version < upTo; version++) {
    db.exec('BEGIN IMMEDIATE');
    try {
      // Read again inside the lock: another process may have migrated meanwhile.
      if (versionOf(db) === version) {
        db.exec(MIGRATIONS[version] as string);
        db.exec(`PRAGMA user_version = ${version + 1}`);
      }
      db.exec('COMMIT');
    } catch (error) {
      db.exec('ROLLBACK');
      throw error;
    }
  }
}

/** Throws HistoryError when the database is newer than this version; reads, never writes. */
export function refuseNewer(db: DatabaseSync, file: string): void {
  const found = versionOf(db);
  if (found > SCHEMA_VERSION) {
    throw new HistoryError(
      file,
      `The history database ${file} was written by a newer version of Agent Console (schema ${found}; ` +
        `this version reads up to ${SCHEMA_VERSION}). It was left as it is: update Agent Console to open it.`,
    );
  }
}
