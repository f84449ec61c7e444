// Any id a server or user gives is kept as it is, apart from every other, and names no file: the
// history database holds them all. (Transcript files of earlier versions: history-import.test.ts.)
import { readdirSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { TranscriptStore, type TranscriptRef } from '../../electron/core/transcript-store';
import { removeDir } from '../support/mock';
import { fresh, session, thread, transcriptDirs } from './transcript-support';

let parent: string;
let dataDir: string;
beforeEach(() => ({ parent, dataDir } = transcriptDirs()));
afterEach(() => removeDir(parent));

describe('ids', () => {
  const hostileIds = [
    '../../etc/passwd',
    '..',
    '.',
    'a/b/c',
    'a\\b\\..\\..\\c',
    '/absolute/path',
    'C:\\Windows\\system32',
    'nul\0byte',
    'CON',
    'aux.txt',
    'ümlaut-日本語-🙂',
    'e\u0301', // é decomposed, which macOS would merge with the composed form below
    '\u00e9',
    'abc',
    'ABC', // differs only in case from the one above: must not share a file on macOS or Windows
    '\ud800', // a lone surrogate, which UTF-8 would turn into U+FFFD, the next id
    '\ufffd',
    'x'.repeat(5000),
    `${'x'.repeat(4999)}y`,
    ' trailing dot and space. ',
  ];

  test('hostile ids write nothing outside the database, never share a record, and round-trip', async () => {
    const store = new TranscriptStore(dataDir);
    const profiles = ['embedded-mock', '../../outside', 'p/with/slashes'];
    for (const profileId of profiles) {
      for (const id of hostileIds) {
        await store.append(
          thread(id, profileId),
          { role: 'user', content: `for ${JSON.stringify(id)}`, status: 'complete' },
          fresh,
        );
      }
    }
    await store.flush();

    store.close();
    expect(readdirSync(parent)).toEqual(['data']);
    expect(readdirSync(dataDir)).toEqual(['history.sqlite']);

    const restarted = new TranscriptStore(dataDir);
    for (const profileId of profiles) {
      for (const id of hostileIds) {
        const transcript = await restarted.get(thread(id, profileId));
        expect(transcript?.id).toBe(id);
        expect(transcript?.messages[0]?.content).toBe(`for ${JSON.stringify(id)}`);
      }
      const { summaries, unreadable } = await restarted.list(profileId);
      expect(unreadable).toEqual([]);
      expect(new Set(summaries.map((s) => s.id))).toEqual(new Set(hostileIds));
    }
  });

  test('an empty id or profile, or an unknown kind, is refused', async () => {
    const store = new TranscriptStore(dataDir);
    const message = { role: 'user', content: 'x', status: 'complete' } as const;
    await expect(store.append(session(''), message, fresh)).rejects.toThrow(/profile id and an id/);
    await expect(store.append(session('s', ''), message, fresh)).rejects.toThrow(/profile id/);
    const bogus = { profileId: 'p', kind: '../x', id: 's' } as unknown as TranscriptRef;
    await expect(store.append(bogus, message, fresh)).rejects.toThrow();
    expect(() => readdirSync(dataDir)).toThrow();
  });
});
