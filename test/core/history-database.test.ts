// The history database itself: its schema migrates forward from any earlier version (a v1
// database opened by this version keeps its conversations and becomes searchable), a database
// from a newer version is refused in words and left exactly as it was, and it is private, in WAL
// mode with every commit flushed.
import { mkdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { openHistoryDatabase } from '../../electron/core/history/database';
import { migrate, SCHEMA_VERSION } from '../../electron/core/history/schema';
import { searchHistory } from '../../electron/core/history/search';
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

test('a version 2 database migrates: its totals are kept from then on and search finds what it found, prefixes too', async () => {
  const writer = new TranscriptStore(dataDir);
  for (let i = 0; i < 12; i++)
    await writer.append(
      i % 3 ? session(`s${i}`) : { profileId: 'embedded-mock', kind: 'thread', id: `t${i}` },
      { role: 'user', content: `refund ${4700 + i} for the parcel`, status: 'complete' },
      fresh,
    );
  writer.close();
  // The same history as version 2 kept it: no reviews, no kept counts, the search index without prefixes.
  const old = new (sqlite().DatabaseSync)(dbFile());
  old.exec(`DROP TABLE review_labels; DROP TABLE reviews; DROP TABLE labels;
           DROP TRIGGER transcripts_counted; DROP TRIGGER transcripts_uncounted; DROP TABLE transcript_counts;
           DROP TABLE message_text;
           CREATE VIRTUAL TABLE message_text USING fts5 (
             content, error, content = 'messages', content_rowid = 'rowid', tokenize = 'unicode61');
           INSERT INTO message_text (message_text) VALUES ('rebuild');
           PRAGMA user_version = 2;`);
  old.close();
  const queries = ['4711', 'parc*', 'ref*', 're*', '"for the parcel" 470*', 'nothing*'];
  const v2 = new (sqlite().DatabaseSync)(dbFile());
  const v2Found = queries.map((text) => searchHistory(v2, { text }).hits);
  v2.close();
  const before = new TranscriptStore(dataDir);
  expect(queries.map((text) => before.search({ text }).hits)).toEqual(v2Found);
  expect(before.search({ text: '"for the parcel" 470*' }).hits.map((h) => h.id)).toEqual([
    't9',
    's8',
    's7',
    't6',
    's5',
    's4',
    't3',
    's2',
    's1',
    't0',
  ]);
  expect((await before.list('embedded-mock', 'session', { limit: 1 })).total).toBe(8);
  await before.remove(session('s1'));
  expect((await before.list('embedded-mock', undefined, { limit: 1 })).total).toBe(11);
  before.close();
  const db = new (sqlite().DatabaseSync)(dbFile());
  expect((db.prepare('PRAGMA user_version').get() as { user_version: number }).user_version).toBe(
    SCHEMA_VERSION,
  );
  expect(
    String(
      (db.prepare("SELECT sql FROM sqlite_master WHERE name = 'message_text'").get() as { sql: string }).sql,
    ),
  ).toMatch(/prefix/);
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
