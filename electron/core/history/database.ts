// Opening the history database: one SQLite file beside the transcript files it replaced, private to
// the user like every file of the data folder, in WAL mode with every commit flushed to disk
// (`synchronous = FULL`: what is shown as saved survives a crash or a power cut), and waiting its turn
// when the app and the CLI write at once (docs/architecture.md, "The history database").
import { closeSync } from 'node:fs';
import { dirname } from 'node:path';
import type { DatabaseSync } from 'node:sqlite';
import { ensurePrivateDirSync, openPrivateAppendSync } from '../private-files';
import { HistoryError, migrate, refuseNewer } from './schema';
import { sqlite } from './sqlite';

/** How long a write waits for another process's (the app's or the CLI's) before it fails. */
const BUSY_TIMEOUT_MS = 10_000;

export type OpenDatabase = (file: string) => DatabaseSync;

/** The plain opening; tests wrap it to hold the connection (to fill the "disk", for one). */
export const openSqliteFile: OpenDatabase = (file) => new (sqlite().DatabaseSync)(file);

/**
 * Opens (making it if need be) the history database at `file`, migrated to this version's schema.
 * Throws HistoryError when it cannot be used as it stands (a newer version's, not a database).
 */
export function openHistoryDatabase(file: string, open: OpenDatabase = openSqliteFile): DatabaseSync {
  const folder = dirname(file);
  ensurePrivateDirSync(folder, dirname(folder));
  // Made 0600 here, never through a link; SQLite gives its -wal and -shm files the same mode.
  closeSync(openPrivateAppendSync(file));
  const db = open(file);
  try {
    db.exec(`PRAGMA busy_timeout = ${BUSY_TIMEOUT_MS}`);
    // Before anything that writes: a newer version's database is left exactly as it was.
    refuseNewer(db, file);
    db.exec('PRAGMA journal_mode = WAL');
    db.exec('PRAGMA synchronous = FULL');
    db.exec('PRAGMA foreign_keys = ON');
    migrate(db, file);
  } catch (error) {
    db.close();
    if (error instanceof HistoryError) throw error;
    throw new HistoryError(
      file,
      `The history database ${file} could not be opened (${(error as Error).message}). It was left as it is.`,
      { cause: error },
    );
  }
  return db;
}
