// Searching the history: words, "phrases" and prefix* queries over every message, reply and error,
// with filters; whatever the user types is never an SQL or FTS5 syntax error; a key typed into a
// chat is masked before it is indexed, so searching for it finds nothing, and the database file
// holds no piece of it.
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { ftsQuery } from '../../electron/core/history/search';
import {
  TranscriptStore,
  type TranscriptInit,
  type TranscriptRef,
} from '../../electron/core/transcript-store';
import { removeDir } from '../support/mock';
import { filesUnder, fresh, session, thread, transcriptDirs } from './transcript-support';

let parent: string;
let dataDir: string;
let store: TranscriptStore;
beforeEach(async () => {
  ({ parent, dataDir } = transcriptDirs());
  store = new TranscriptStore(dataDir);
  const at = (day: number): string => new Date(Date.UTC(2026, 0, day, 12)).toISOString();
  const say = (ref: TranscriptRef, content: string, day: number, init: TranscriptInit = fresh) =>
    store.append(ref, { role: 'user', content, status: 'complete', at: at(day) }, init);
  await say(session('a'), 'Where is my refund for order 4711?', 1);
  await store.append(session('a'), {
    role: 'agent',
    content: 'Refund 4711 was sent on Monday.',
    status: 'complete',
    at: at(1),
  });
  await say(session('b'), 'order 4712 never arrived', 2, { agent: 'billing', knownFrom: 'start' });
  await store.append(session('b'), {
    role: 'agent',
    content: '',
    status: 'failed',
    error: 'AGENT_ERROR: refund service unavailable',
    at: at(2),
  });
  await say(thread('t', 'staging'), 'refunding 4711 in staging', 3);
});
afterEach(() => {
  store.close();
  removeDir(parent);
});

const found = (text: string, filters = {}) =>
  store.search({ text, ...filters }).hits.map((h) => `${h.profileId}/${h.id}#${h.index}`);

describe('queries', () => {
  test('words match anywhere, newest first; a phrase keeps its order; a star asks for a prefix', () => {
    expect(found('refund 4711')).toEqual(['embedded-mock/a#1', 'embedded-mock/a#0']);
    expect(found('"refund 4711"')).toEqual(['embedded-mock/a#1']);
    expect(found('refund*')).toEqual([
      'staging/t#0',
      'embedded-mock/b#1',
      'embedded-mock/a#1',
      'embedded-mock/a#0',
    ]);
    expect(found('REFUND')).toHaveLength(3);
  });

  test('filters: profile, agent, since/until, has an error', () => {
    expect(found('refund*', { profileId: 'staging' })).toEqual(['staging/t#0']);
    expect(found('4711 OR 4712', { agent: 'billing' })).toEqual([]);
    expect(found('4712', { agent: 'billing' })).toEqual(['embedded-mock/b#0']);
    expect(found('refund*', { since: '2026-01-02T00:00:00Z', until: '2026-01-02T23:59:59Z' })).toEqual([
      'embedded-mock/b#1',
    ]);
    expect(found('refund', { hasError: true })).toEqual(['embedded-mock/b#1']);
  });

  test('snippets mark the match as parts, never as markup', () => {
    const [hit] = store.search({ text: '"refund 4711"' }).hits;
    expect(hit?.snippet).toEqual([
      { text: 'Refund 4711', match: true },
      { text: ' was sent on Monday.', match: false },
    ]);
    expect(hit).toMatchObject({
      kind: 'session',
      id: 'a',
      agent: 'echo',
      title: 'Where is my refund for order 4711?',
    });
  });

  test('whatever the user types is searched for as text, never an SQL or FTS5 syntax error', () => {
    const hostile = [
      '"',
      '""',
      '"refund',
      'refund"',
      '*',
      '**',
      '4711*"',
      'NEAR(refund 4711)',
      'NEAR(',
      'refund AND',
      'OR',
      'NOT 4711',
      '(',
      ')',
      'content:refund',
      '^refund',
      "'; DROP TABLE messages; --",
      '-4711',
      '+',
      '{content error}: x',
      '\u0000',
      '\ud800',
      'x'.repeat(10_000),
    ];
    for (const text of hostile) expect(() => store.search({ text }), text).not.toThrow();
    // Searched for as words: no message says "near".
    expect(found('NEAR(refund 4711)')).toEqual([]);
    expect(found('(refund) 4711"')).toEqual(['embedded-mock/a#1', 'embedded-mock/a#0']);
    expect(found("'; DROP TABLE messages; --")).toEqual([]);
    expect(found('refund 4711')).toHaveLength(2);
  });

  test('the query language: quoted strings only', () => {
    expect(ftsQuery('refund 4711')).toBe('"refund" "4711"');
    expect(ftsQuery('"refund 4711" ord*')).toBe('"refund 4711" "ord"*');
    expect(ftsQuery('order-4711')).toBe('"order" "4711"');
    expect(ftsQuery('NEAR(a b')).toBe('"NEAR" "a" "b"');
    expect(ftsQuery('"')).toBeUndefined();
    expect(ftsQuery('  * ( ) ')).toBeUndefined();
  });
});

test('a key typed into a chat is masked before it is indexed: searching for it finds nothing', async () => {
  const alnum = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
  const key = `ams_${[...randomBytes(32)].map((b) => alnum[b % 62]).join('')}`;
  await store.append(
    session('leak'),
    { role: 'user', content: `my key is ${key} refund`, status: 'failed', error: `rejected ${key}` },
    { ...fresh, title: `about ${key}` },
  );
  expect(found('refund', { agent: 'echo' })).toContain('embedded-mock/leak#0');
  for (const text of [key, key.slice(4), key.slice(4, 24), `${key.slice(4, 12)}*`, `"${key}"`])
    expect(found(text), text).toEqual([]);
  store.close();
  for (const file of filesUnder(dataDir)) {
    const bytes = readFileSync(file, 'latin1');
    expect(bytes).not.toContain(key.slice(4, 24));
    expect(bytes).not.toContain(key.slice(-24, -4));
  }
});
