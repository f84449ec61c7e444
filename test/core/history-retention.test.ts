// Retention: history kept for N days or N bytes loses its oldest conversations first, whatever
// profile they belong to, and the database file shrinks on disk; deleting one agent's history (or a
// profile's) leaves everyone else's, and search no longer finds what went.
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { TranscriptStore, type TranscriptRef } from '../../electron/core/transcript-store';
import { removeDir } from '../support/mock';
import { session, transcriptDirs } from './transcript-support';

let parent: string;
let dataDir: string;
beforeEach(() => ({ parent, dataDir } = transcriptDirs()));
afterEach(() => removeDir(parent));

const NOW = Date.parse('2026-06-30T12:00:00Z');
const DAY = 86_400_000;
/** A bulky message, so what is deleted shows in the file's size. */
const bulky = (word: string, i: number): string =>
  `${word} ${i} ${'lorem ipsum dolor sit amet '.repeat(400)}`;

/** The database and its WAL, as they take room on disk. */
function onDisk(): number {
  const file = join(dataDir, 'history.sqlite');
  return ['', '-wal'].reduce((sum, end) => sum + (existsSync(file + end) ? statSync(file + end).size : 0), 0);
}

/** Conversation i of each profile was last active i days ago; each holds two bulky messages. */
async function seed(
  store: TranscriptStore,
  days: number,
  profiles = ['embedded-mock', 'work'],
): Promise<void> {
  const items: Parameters<TranscriptStore['appendAll']>[0] = [];
  for (const profileId of profiles)
    for (let i = 0; i < days; i++) {
      const ref: TranscriptRef = session(`d${i}`, profileId);
      const at = new Date(NOW - i * DAY).toISOString();
      const init = { agent: i % 2 ? 'billing' : 'helpdesk', knownFrom: 'start' } as const;
      items.push(
        { ref, message: { role: 'user', content: bulky(`ask${i}`, i), status: 'complete', at }, init },
        { ref, message: { role: 'agent', content: bulky(`answer${i}`, i), status: 'complete', at }, init },
      );
    }
  await store.appendAll(items);
}

const ids = async (store: TranscriptStore, profileId = 'embedded-mock'): Promise<string[]> =>
  (await store.list(profileId)).summaries.map((s) => s.id);

test('history kept for 30 days loses the older conversations of every profile, and the file shrinks', async () => {
  const store = new TranscriptStore(dataDir, { clock: { now: () => NOW } });
  await seed(store, 90);
  const before = onDisk();
  // Idle 30 days exactly is within the 30 kept; 31 days is not.
  expect(await store.prune({ days: 30 })).toBe(2 * 59);
  const kept = Array.from({ length: 31 }, (_, i) => `d${i}`);
  expect(await ids(store)).toEqual(kept);
  expect(await ids(store, 'work')).toEqual(kept);
  expect(store.search({ text: 'ask75' }).hits).toEqual([]);
  expect(store.search({ text: 'ask25' }).hits.map((h) => h.id)).toEqual(['d25', 'd25']);
  expect((await store.list('work', undefined, { limit: 1 })).total).toBe(31);
  // Two thirds of the conversations went: the database and its WAL take well under half the room.
  expect(onDisk()).toBeLessThan(before * 0.5);
  // Nothing older is left, so a second pass deletes nothing.
  expect(await store.prune({ days: 30 })).toBe(0);
  store.close();
});

test('history kept to a size loses the oldest conversations first until it fits, and the file shrinks to it', async () => {
  const store = new TranscriptStore(dataDir, { clock: { now: () => NOW } });
  await seed(store, 100);
  const before = onDisk();
  const limit = Math.round(before / 4);
  const removed = await store.prune({ bytes: limit });
  expect(removed).toBeGreaterThan(50);
  const left = await ids(store);
  // Whatever is left is the newest, in both profiles: no conversation kept is older than one deleted.
  expect(left).toEqual(Array.from({ length: left.length }, (_, i) => `d${i}`));
  expect(left.length).toBeGreaterThan(10);
  const work = await ids(store, 'work');
  expect(Math.abs(work.length - left.length)).toBeLessThanOrEqual(1);
  expect(onDisk()).toBeLessThanOrEqual(limit);
  store.close();
});

test("deleting one agent's history leaves the other agents' and the other profile's, and counts what it loses", async () => {
  const store = new TranscriptStore(dataDir, { clock: { now: () => NOW } });
  await seed(store, 10);
  expect(await store.agents('embedded-mock')).toEqual([
    { agent: 'billing', conversations: 5 },
    { agent: 'helpdesk', conversations: 5 },
  ]);
  expect(await store.count({ profileId: 'embedded-mock', agent: 'billing' })).toEqual({
    conversations: 5,
    messages: 10,
  });
  expect(await store.removeAll({ profileId: 'embedded-mock', agent: 'billing' })).toBe(5);
  expect(await ids(store)).toEqual(['d0', 'd2', 'd4', 'd6', 'd8']);
  expect((await ids(store, 'work')).length).toBe(10);
  expect(store.search({ text: 'ask3' }).hits.map((h) => h.profileId)).toEqual(['work']);
  expect(await store.count({ profileId: 'embedded-mock', agent: 'billing' })).toEqual({
    conversations: 0,
    messages: 0,
  });
  // A whole profile's: the other profile keeps all of its own.
  expect(await store.removeAll({ profileId: 'embedded-mock' })).toBe(5);
  expect(await ids(store)).toEqual([]);
  expect((await store.list('embedded-mock', undefined, { limit: 1 })).total).toBe(0);
  expect((await ids(store, 'work')).length).toBe(10);
  store.close();
});
