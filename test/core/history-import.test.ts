// The first start of a version with the history database: a folder of today's transcript files is
// imported once, each file named in the app log; one that cannot be read is named too, left where it
// is and listed as unreadable; a file copied under another conversation's name is not read as it.
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { transcriptFile, transcriptText } from '../../electron/core/transcript-file';
import { TranscriptStore, type Transcript, type TranscriptRef } from '../../electron/core/transcript-store';
import { removeDir } from '../support/mock';
import { session, thread, transcriptDirs } from './transcript-support';

let parent: string;
let dataDir: string;
beforeEach(() => ({ parent, dataDir } = transcriptDirs()));
afterEach(() => removeDir(parent));

const root = (): string => new TranscriptStore(dataDir).root;

function today(ref: TranscriptRef, contents: string[], minute: number): Transcript {
  const at = (i: number): string => new Date(Date.UTC(2026, 0, 15, 12, minute, i)).toISOString();
  return {
    ...ref,
    agent: 'helpdesk',
    knownFrom: 'start',
    createdAt: at(0),
    lastActivityAt: at(contents.length - 1),
    messages: contents.map((content, i) => ({
      role: i % 2 === 0 ? 'user' : 'agent',
      content,
      at: at(i),
      status: 'complete',
      ...(i % 2 === 1 ? { requestId: `req_${minute}_${i}` } : {}),
    })),
  };
}

/** Writes a file as the version before the database did; returns its path. */
function plant(ref: TranscriptRef, text: string): string {
  const file = transcriptFile(root(), ref);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, text);
  return file;
}

function logged() {
  const lines: string[] = [];
  return {
    lines,
    log: { info: (l: string) => lines.push(`info ${l}`), warn: (l: string) => lines.push(`warn ${l}`) },
  };
}

test('a folder of today’s files is imported once, each named; the unreadable one is reported and kept', async () => {
  const refund = today(session('s-refund'), ['Where is refund 4711?', 'It left on Monday.'], 1);
  const other = today(thread('t-other', 'staging'), ['hello', 'hi', 'bye'], 2);
  const plain = plant(session('s-refund'), transcriptText(refund));
  plant(thread('t-other', 'staging'), transcriptText(other));
  const corrupt = '{"format":"agent-console-transcript","messages":[{"ro';
  const broken = plant(session('s-broken'), corrupt);

  const { lines, log } = logged();
  const store = new TranscriptStore(dataDir, { log });
  const listing = await store.list('embedded-mock');
  expect(listing.summaries.map((s) => [s.id, s.title, s.messageCount])).toEqual([
    ['s-refund', 'Where is refund 4711?', 2],
  ]);
  expect(await store.get(session('s-refund'))).toEqual(refund);
  expect(await store.get(thread('t-other', 'staging'))).toEqual(other);
  expect(listing.unreadable.map((e) => e.file)).toEqual([broken]);
  expect(listing.unreadable[0]?.message).toMatch(/is not valid JSON/);
  expect((await store.list('staging')).unreadable).toEqual([]);
  expect(lines.filter((l) => l.startsWith('info')).join('\n')).toContain(plain);
  expect(lines.filter((l) => l.startsWith('warn'))).toEqual([expect.stringContaining(broken)]);
  // Searchable like anything recorded since.
  expect(store.search({ text: 'refund 4711' }).hits.map((h) => h.id)).toEqual(['s-refund']);
  // Kept in place, the broken one untouched.
  expect(readFileSync(plain, 'utf8')).toBe(transcriptText(refund));
  expect(readFileSync(broken, 'utf8')).toBe(corrupt);
  store.close();

  // Once: a file added or changed afterwards is not imported again, and nothing is logged.
  plant(session('s-late'), transcriptText(today(session('s-late'), ['late'], 3)));
  const again = logged();
  const restarted = new TranscriptStore(dataDir, { log: again.log });
  expect((await restarted.list('embedded-mock')).summaries.map((s) => s.id)).toEqual(['s-refund']);
  expect(again.lines).toEqual([]);
  // Removing the conversation a file stood for is the way past it: no longer listed, still on disk.
  expect(await restarted.remove(session('s-broken'))).toBe(true);
  expect((await restarted.list('embedded-mock')).unreadable).toEqual([]);
  expect(readFileSync(broken, 'utf8')).toBe(corrupt);
});

test('a file of a newer format, or copied under another transcript’s name, is reported, not read', async () => {
  const one = today(thread('one'), ['private to one'], 1);
  const file = plant(thread('one'), transcriptText(one));
  mkdirSync(dirname(transcriptFile(root(), thread('two'))), { recursive: true });
  const copied = transcriptFile(root(), thread('two'));
  copyFileSync(file, copied);
  const newer = plant(thread('newer'), JSON.stringify({ format: 'agent-console-transcript', version: 99 }));

  const store = new TranscriptStore(dataDir, { log: logged().log });
  const listing = await store.list('embedded-mock');
  expect(listing.summaries.map((s) => s.id)).toEqual(['one']);
  expect(await store.get(thread('two'))).toBeUndefined();
  const problems = Object.fromEntries(listing.unreadable.map((e) => [e.file, e.message]));
  expect(problems[copied]).toMatch(/belongs elsewhere/);
  expect(problems[newer]).toMatch(/is not a transcript this version can read/);
});
