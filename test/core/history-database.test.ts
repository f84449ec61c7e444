// The history database itself: its schema migrates forward from any earlier version (a v1
// database opened by this version keeps its conversations and becomes searchable), a database
// from a newer version is refused in words and left exactly as it was, and it is private, in WAL
// mode with every commit flushed.
import { mkdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { openHistoryDatabase } from '../../electron/core/history/database';
import { migrate, SCHEMA_VERSION } from '../../electron/core/history/schema';
import { sqlite } from '../../electron/core/history/sqlite';
import { HistoryError, TranscriptStore } from '../../electron/core/transcript-store';
import { removeDir } from '../support/mock';
import { fresh, session, transcriptDirs } from './transcript-support';

let parent: string;
let dataDir: string;
beforeEach(() => ({ parent, dataDir } = transcriptDirs()));
afterEach(() => removeDir(parent));

const dbFile = (): string => join(dataDir, 'history.sqlite');

test('a version 1 database opened by this version migrates, keeping its conversations, and becomes searchable', async () => {
  // Written by hand as version 1 wrote it: tables, no search index.
  mkdirSync(dataDir, { recursive: true });
  const v1 = new (sqlite().DatabaseSync)(dbFile());
  migrate(v1, dbFile(), 1);
  v1.exec(`INSERT INTO transcripts (profile_id, kind, id, agent, known_from, created_at, last_activity_at,
             last_activity_ms, message_count, first_ask, last_role, last_status, last_preview)
           VALUES ('embedded-mock', 'session', 'old', 'helpdesk', 'start', '2026-01-15T12:00:00.000Z',
             '2026-01-15T12:00:00.000Z', ${Date.parse('2026-01-15T12:00:00.000Z')}, 1,
             'refund 4711 please', 'user', 'complete', 'refund 4711 please');
           INSERT INTO messages (transcript, seq, role, content, at, at_ms, status)
           VALUES (1, 0, 'user', 'refund 4711 please', '2026-01-15T12:00:00.000Z', 0, 'complete');
           INSERT INTO meta (key, value) VALUES ('transcript-files-imported', '{}');`);
  expect((v1.prepare('PRAGMA user_version').get() as { user_version: number }).user_version).toBe(1);
  v1.close();

  const store = new TranscriptStore(dataDir);
  expect((await store.get(session('old')))?.messages.map((m) => m.content)).toEqual(['refund 4711 please']);
  expect(store.search({ text: '4711' }).hits.map((h) => h.id)).toEqual(['old']);
  await store.append(session('old'), { role: 'agent', content: 'Refunded.', status: 'complete' });
  expect(store.search({ text: 'refunded' }).hits.map((h) => [h.id, h.index])).toEqual([['old', 1]]);
  store.close();
  const db = new (sqlite().DatabaseSync)(dbFile());
  expect((db.prepare('PRAGMA user_version').get() as { user_version: number }).user_version).toBe(
    SCHEMA_VERSION,
  );
  db.close();
});

test('a database from a newer version is refused in words and not touched', async () => {
  mkdirSync(dataDir, { recursive: true });
  const newer = new (sqlite().DatabaseSync)(dbFile());
  newer.exec(`CREATE TABLE future (x); PRAGMA user_version = ${SCHEMA_VERSION + 7}`);
  newer.close();
  const before = readFileSync(dbFile());
  const mtime = statSync(dbFile()).mtimeMs;

  expect(() => openHistoryDatabase(dbFile())).toThrow(HistoryError);
  expect(() => openHistoryDatabase(dbFile())).toThrow(
    new RegExp(`${dbFile()} was written by a newer version of Agent Console.*left as it is`),
  );
  const store = new TranscriptStore(dataDir);
  await expect(store.list('embedded-mock')).rejects.toThrow(/newer version/);
  // An exchange is still shown; its record waits in memory, and the user is told once.
  const told: string[] = [];
  const writer = new TranscriptStore(dataDir, { onWriteError: (e) => told.push(e.message) });
  await writer.append(session('s'), { role: 'user', content: 'hi', status: 'complete' }, fresh);
  expect(told).toEqual([expect.stringMatching(/newer version/)]);

  expect(readFileSync(dbFile()).equals(before)).toBe(true);
  expect(statSync(dbFile()).mtimeMs).toBe(mtime);
});

test('the database is private to the user, in WAL mode, every commit flushed, and waits for another writer', () => {
  const db = openHistoryDatabase(dbFile());
  const pragma = (name: string): unknown => Object.values(db.prepare(`PRAGMA ${name}`).get() ?? {})[0];
  expect(pragma('journal_mode')).toBe('wal');
  expect(pragma('synchronous')).toBe(2); // FULL
  expect(pragma('busy_timeout')).toBeGreaterThanOrEqual(5000);
  db.close();
  if (process.platform !== 'win32') {
    expect(statSync(dbFile()).mode & 0o777).toBe(0o600);
    expect(statSync(dataDir).mode & 0o777).toBe(0o700);
  }
});
