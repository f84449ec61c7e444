// Prepared statements kept per connection: a statement is compiled once, not on every message.
import type { DatabaseSync, StatementSync } from 'node:sqlite';

const cache = new WeakMap<DatabaseSync, Map<string, StatementSync>>();

export function statement(db: DatabaseSync, sql: string): StatementSync {
  let mine = cache.get(db);
  if (!mine) cache.set(db, (mine = new Map()));
  let prepared = mine.get(sql);
  if (!prepared) mine.set(sql, (prepared = db.prepare(sql)));
  return prepared;
}

/** Runs `work` in one write transaction (taken at once, so two processes queue rather than deadlock). */
export function inTransaction<T>(db: DatabaseSync, work: () => T): T {
  db.exec('BEGIN IMMEDIATE');
  try {
    const result = work();
    db.exec('COMMIT');
    return result;
  } catch (error) {
    if (db.isTransaction) db.exec('ROLLBACK');
    throw error;
  }
}
