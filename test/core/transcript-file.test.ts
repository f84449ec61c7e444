// Transcript files (electron/core/transcript-file.ts): any id a server or user gives stays inside
// the transcripts folder under a name of its own, and a file that is not a transcript of its name is
// reported by name and left as it is.
import { copyFileSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { TranscriptFileError } from '../../electron/core/transcript-file';
import { TranscriptStore, type TranscriptRef } from '../../electron/core/transcript-store';
import { removeDir } from '../support/mock';
import { filesUnder, fresh, session, thread, transcriptDirs } from './transcript-support';

let parent: string;
let dataDir: string;
beforeEach(() => ({ parent, dataDir } = transcriptDirs()));
afterEach(() => removeDir(parent));

describe('file names', () => {
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

  test('hostile ids stay inside the transcripts folder, never share a file, and round-trip', async () => {
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

    expect(readdirSync(parent)).toEqual(['data']);
    expect(readdirSync(dataDir)).toEqual(['transcripts']);
    const files = filesUnder(join(dataDir, 'transcripts'));
    expect(files).toHaveLength(profiles.length * hostileIds.length);
    for (const file of files) {
      const rel = relative(join(dataDir, 'transcripts'), file);
      expect(rel.split(/[\\/]/)).toHaveLength(2);
      expect(rel).toMatch(/^[a-z0-9._-]+[\\/][a-z0-9._-]+\.json$/);
      expect(Buffer.byteLength(rel.split(/[\\/]/)[1] ?? '')).toBeLessThan(255);
    }

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

describe('an unreadable file', () => {
  async function storeWithFile(ref: TranscriptRef, content: string): Promise<TranscriptStore> {
    const store = new TranscriptStore(dataDir);
    const file = store.fileOf(ref);
    await mkdir(dirname(file), { recursive: true });
    writeFileSync(file, content);
    return store;
  }

  test('is reported by name and never overwritten by an append', async () => {
    const ref = thread('broken');
    const store = await storeWithFile(ref, '{"format":"agent-console-transcript","messages":[{"ro');
    const file = store.fileOf(ref);

    await expect(store.get(ref)).rejects.toThrow(TranscriptFileError);
    await expect(store.get(ref)).rejects.toThrow(file);
    await expect(
      store.append(ref, { role: 'user', content: 'x', status: 'complete' }, fresh),
    ).rejects.toThrow(/is not valid JSON/);
    await store.flush();
    expect(readFileSync(file, 'utf8')).toBe('{"format":"agent-console-transcript","messages":[{"ro');
  });

  test('shows up in list beside the readable ones, and remove clears the way for a fresh start', async () => {
    const ref = thread('broken');
    const store = await storeWithFile(
      ref,
      JSON.stringify({ format: 'agent-console-transcript', version: 99 }),
    );
    await store.append(thread('fine'), { role: 'user', content: 'ok', status: 'complete' }, fresh);
    const listing = await store.list('embedded-mock');
    expect(listing.summaries.map((s) => s.id)).toEqual(['fine']);
    expect(listing.unreadable.map((e) => e.file)).toEqual([store.fileOf(ref)]);
    expect(listing.unreadable[0]?.message).toMatch(/is not a transcript this version can read/);

    expect(await store.remove(ref)).toBe(true);
    await store.append(ref, { role: 'user', content: 'again', status: 'complete' }, fresh);
    await store.flush();
    expect((await new TranscriptStore(dataDir).get(ref))?.messages.map((m) => m.content)).toEqual(['again']);
  });

  test('a file copied under another transcript’s name is not read as that transcript', async () => {
    const store = new TranscriptStore(dataDir);
    await store.append(thread('one'), { role: 'user', content: 'private to one', status: 'complete' }, fresh);
    await store.flush();
    copyFileSync(store.fileOf(thread('one')), store.fileOf(thread('two')));
    const restarted = new TranscriptStore(dataDir);
    await expect(restarted.get(thread('two'))).rejects.toThrow(/belongs elsewhere/);
  });
});
