// The transcript store: what this client sent and received, per session and thread, kept across
// restarts in the history database, on disk when each append resolves, kept in memory and retried
// when a write fails (a full disk), redacted before anything is kept.
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { DatabaseSync } from 'node:sqlite';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { openSqliteFile } from '../../electron/core/history/database';
import {
  HistoryError,
  TranscriptStore,
  type TranscriptStoreOptions,
} from '../../electron/core/transcript-store';
import { removeDir } from '../support/mock';
import { filesUnder, fresh, session, thread, transcriptDirs } from './transcript-support';

const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const plantKey = (): string => `ams_${[...randomBytes(32)].map((b) => ALNUM[b % 62]).join('')}`;

/** A message too big for a disk with no room left. */
const bulky = (words: string): string => `${words} ${'.'.repeat(64 * 1024)}`;

/**
 * A store whose disk can be filled and emptied: SQLite's own page limit, so the failure is the one a
 * full disk gives (SQLITE_FULL), from a real write.
 */
function fillableStore(options: TranscriptStoreOptions = {}) {
  let db: DatabaseSync | undefined;
  const store = new TranscriptStore(dataDir, {
    ...options,
    openDatabase: (file) => (db = openSqliteFile(file)),
  });
  const held = (): DatabaseSync => {
    if (!db) throw new Error('the store has not opened its database');
    return db;
  };
  return {
    store,
    fill: () => {
      void store.list('embedded-mock');
      const { page_count } = held().prepare('PRAGMA page_count').get() as { page_count: number };
      held().exec(`PRAGMA max_page_count = ${page_count}`);
    },
    empty: () => held().exec('PRAGMA max_page_count = 1073741823'),
  };
}

let parent: string;
let dataDir: string;
beforeEach(() => ({ parent, dataDir } = transcriptDirs()));
afterEach(() => removeDir(parent));

describe('persistence', () => {
  test('a conversation survives a restart on the same data dir', async () => {
    const store = new TranscriptStore(dataDir);
    await store.append(
      session('abc123'),
      { role: 'user', content: 'hello', status: 'complete', at: '2026-01-15T12:00:00.000Z' },
      fresh,
    );
    await store.append(session('abc123'), {
      role: 'agent',
      content: 'hello back',
      status: 'complete',
      requestId: 'req_1',
      at: '2026-01-15T12:00:01.000Z',
    });
    await store.flush();

    const restarted = new TranscriptStore(dataDir);
    expect(await restarted.get(session('abc123'))).toEqual({
      profileId: 'embedded-mock',
      kind: 'session',
      id: 'abc123',
      agent: 'echo',
      knownFrom: 'start',
      createdAt: '2026-01-15T12:00:00.000Z',
      lastActivityAt: '2026-01-15T12:00:01.000Z',
      messages: [
        { role: 'user', content: 'hello', status: 'complete', at: '2026-01-15T12:00:00.000Z' },
        {
          role: 'agent',
          content: 'hello back',
          status: 'complete',
          requestId: 'req_1',
          at: '2026-01-15T12:00:01.000Z',
        },
      ],
    });
  });

  test('an append is on disk when it resolves, without flush', async () => {
    const store = new TranscriptStore(dataDir);
    await store.append(thread('thr_1'), { role: 'user', content: 'hi', status: 'complete' }, fresh);
    // Read by a second store, as a restart after kill -9 would.
    expect((await new TranscriptStore(dataDir).get(thread('thr_1')))?.messages).toHaveLength(1);
  });

  test('flush also writes appends still under way when it was called', async () => {
    const store = new TranscriptStore(dataDir);
    const appended = store.append(
      session('late'),
      { role: 'user', content: 'in flight', status: 'complete' },
      fresh,
    );
    await store.flush();
    await appended;
    const onDisk = await new TranscriptStore(dataDir).get(session('late'));
    expect(onDisk?.messages[0]?.content).toBe('in flight');
  });

  test('remove deletes the transcript for good', async () => {
    const store = new TranscriptStore(dataDir);
    await store.append(thread('t1'), { role: 'user', content: 'x', status: 'complete' }, fresh);
    await store.flush();
    expect(await store.remove(thread('t1'))).toBe(true);
    expect(await store.remove(thread('t1'))).toBe(false);
    expect(await new TranscriptStore(dataDir).get(thread('t1'))).toBeUndefined();
  });

  test('a failed write keeps the data and is retried by the next flush', async () => {
    const disk = fillableStore();
    const store = disk.store;
    disk.fill();
    await store.append(session('s1'), { role: 'user', content: bulky('keep me'), status: 'complete' }, fresh);
    const error = await store.flush().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HistoryError);
    expect((error as HistoryError).message).toContain(store.file);
    disk.empty();
    await store.flush();
    expect((await new TranscriptStore(dataDir).get(session('s1')))?.messages[0]?.content).toBe(
      bulky('keep me'),
    );
  });
});

describe('durability', () => {
  test('sync resolves once the transcript is on disk', async () => {
    const store = new TranscriptStore(dataDir);
    await store.append(session('s1'), { role: 'user', content: 'hello', status: 'complete' }, fresh);
    await store.append(session('s1'), { role: 'agent', content: 'hi', status: 'complete' });
    await store.sync(session('s1'));
    // Read by a second store, as a restart after kill -9 would.
    const onDisk = await new TranscriptStore(dataDir).get(session('s1'));
    expect(onDisk?.messages.map((m) => m.content)).toEqual(['hello', 'hi']);
    await store.flush();
  });

  test('a full disk is told once, the data kept in memory and retried by itself until it lands', async () => {
    const errors: string[] = [];
    let recovered = 0;
    const disk = fillableStore({
      onWriteError: (e) => errors.push(e.message),
      onWriteRecovered: () => recovered++,
    });
    const store = disk.store;
    disk.fill();
    await store.append(session('s1'), { role: 'user', content: bulky('keep me'), status: 'complete' }, fresh);
    await expect(store.sync(session('s1'))).rejects.toThrow(/the disk is full.*kept in memory/);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toContain(store.file);
    // Still in memory, and shown as such: whole, and in the list.
    expect((await store.get(session('s1')))?.messages[0]?.content).toBe(bulky('keep me'));
    expect((await store.list('embedded-mock')).summaries.map((s) => s.id)).toEqual(['s1']);
    expect(await new TranscriptStore(dataDir).get(session('s1'))).toBeUndefined();
    disk.empty();
    await expect
      .poll(async () => (await new TranscriptStore(dataDir).get(session('s1')))?.messages[0]?.content, {
        timeout: 5000,
      })
      .toBe(bulky('keep me'));
    await expect.poll(() => recovered).toBe(1);
    expect(errors).toHaveLength(1);
  });
});

describe('what the store knows', () => {
  test('a conversation seen from elsewhere is reported as partly known, and that survives a restart', async () => {
    const store = new TranscriptStore(dataDir);
    await store.append(
      session('PastedFromElsewhere42'),
      { role: 'user', content: 'continuing', status: 'complete' },
      { agent: 'helpdesk', knownFrom: 'partial' },
    );
    await store.append(session('mine'), { role: 'user', content: 'new', status: 'complete' }, fresh);
    await store.flush();

    const { summaries } = await new TranscriptStore(dataDir).list('embedded-mock');
    const byId = Object.fromEntries(summaries.map((s) => [s.id, s.knownFrom]));
    expect(byId).toEqual({ PastedFromElsewhere42: 'partial', mine: 'start' });
  });

  test('markKnownFrom records what was learned later; it is false for an unknown transcript', async () => {
    const store = new TranscriptStore(dataDir);
    expect(await store.markKnownFrom(thread('seeded'), 'partial')).toBe(false);
    await store.append(thread('seeded'), { role: 'user', content: 'x', status: 'complete' }, fresh);
    expect(await store.markKnownFrom(thread('seeded'), 'partial')).toBe(true);
    await store.flush();
    expect((await new TranscriptStore(dataDir).get(thread('seeded')))?.knownFrom).toBe('partial');
  });

  test('the first append must say what is known, so nothing claims a full history by default', async () => {
    const store = new TranscriptStore(dataDir);
    await expect(
      store.append(session('s'), { role: 'user', content: 'x', status: 'complete' }),
    ).rejects.toThrow(/first append must give the agent and knownFrom/);
    expect(await store.get(session('s'))).toBeUndefined();
  });

  test('failed and stopped messages keep their status and error', async () => {
    const store = new TranscriptStore(dataDir);
    await store.append(session('s'), { role: 'user', content: 'q', status: 'complete' }, fresh);
    await store.append(session('s'), { role: 'agent', content: 'half a rep', status: 'stopped' });
    await store.append(session('s'), { role: 'agent', content: '', status: 'failed', error: 'AGENT_ERROR' });
    await store.flush();
    const messages = (await new TranscriptStore(dataDir).get(session('s')))?.messages;
    expect(messages?.map((m) => [m.status, m.error])).toEqual([
      ['complete', undefined],
      ['stopped', undefined],
      ['failed', 'AGENT_ERROR'],
    ]);
  });
});

describe('list', () => {
  test('summaries per profile, newest activity first, optionally one kind', async () => {
    const store = new TranscriptStore(dataDir);
    const at = (minute: number): string => new Date(Date.UTC(2026, 0, 15, 12, minute)).toISOString();
    await store.append(thread('old'), { role: 'user', content: 'a', status: 'complete', at: at(1) }, fresh);
    await store.append(session('mid'), { role: 'user', content: 'b', status: 'complete', at: at(2) }, fresh);
    await store.append(
      thread('new'),
      { role: 'user', content: 'c', status: 'complete', at: at(3) },
      { ...fresh, title: 'Refund' },
    );
    await store.append(
      session('other', 'staging'),
      { role: 'user', content: 'd', status: 'complete' },
      fresh,
    );
    // Listed before and after the write: unwritten appends count too.
    for (const s of [store, null]) {
      if (!s) await store.flush();
      const reader = s ?? new TranscriptStore(dataDir);
      const all = await reader.list('embedded-mock');
      expect(all.summaries.map((x) => x.id)).toEqual(['new', 'mid', 'old']);
      expect(all.unreadable).toEqual([]);
      expect(all.summaries[0]).toMatchObject({
        title: 'Refund',
        messageCount: 1,
        lastActivityAt: at(3),
        lastMessage: { role: 'user', status: 'complete', preview: 'c' },
      });
      expect((await reader.list('embedded-mock', 'thread')).summaries.map((x) => x.id)).toEqual([
        'new',
        'old',
      ]);
      expect((await reader.list('staging')).summaries.map((x) => x.id)).toEqual(['other']);
      expect((await reader.list('nobody')).summaries).toEqual([]);
    }
  });

  test('a session is titled by the first thing the user asked, on one line', async () => {
    const store = new TranscriptStore(dataDir);
    await store.append(
      session('s'),
      { role: 'user', content: 'Where is\n  my order?', status: 'complete' },
      fresh,
    );
    await store.append(session('s'), { role: 'agent', content: 'On its way.', status: 'complete' });
    await store.append(session('s'), { role: 'user', content: 'Thanks', status: 'complete' });
    await store.append(thread('t'), { role: 'user', content: 'not a title', status: 'complete' }, fresh);
    const { summaries } = await store.list('embedded-mock');
    expect(summaries.find((x) => x.id === 's')?.title).toBe('Where is my order?');
    expect(summaries.find((x) => x.id === 't')?.title).toBeUndefined();
  });
});

describe('pages', () => {
  test('a list read a page at a time gives each conversation once, newest first, ties included', async () => {
    const store = new TranscriptStore(dataDir);
    // Ten share each minute: a page may end in the middle of a tie.
    const at = (i: number): string => new Date(Date.UTC(2026, 0, 15, 12, Math.floor(i / 10))).toISOString();
    for (let i = 0; i < 95; i++)
      await store.append(
        i % 2 ? session(`s${i}`) : thread(`t${i}`),
        { role: 'user', content: `${i}`, status: 'complete', at: at(i) },
        fresh,
      );
    const whole = (await store.list('embedded-mock')).summaries.map((s) => s.id);
    const paged: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await store.list('embedded-mock', undefined, { limit: 7, cursor });
      expect(page.total).toBe(95);
      expect(page.summaries.length).toBeLessThanOrEqual(7);
      paged.push(...page.summaries.map((s) => s.id));
      cursor = page.next;
    } while (cursor);
    expect(paged).toEqual(whole);
    expect(new Set(paged).size).toBe(95);
    const sessions = await store.list('embedded-mock', 'session', { limit: 5 });
    expect(sessions.summaries.map((s) => s.id)).toEqual(['s91', 's93', 's81', 's83', 's85']);
    expect(sessions.total).toBe(47);
  });

  test("a list's total stays exact after removals, per kind and per profile, and across a restart", async () => {
    const store = new TranscriptStore(dataDir);
    for (let i = 0; i < 6; i++)
      await store.append(session(`s${i}`), { role: 'user', content: `${i}`, status: 'complete' }, fresh);
    for (let i = 0; i < 3; i++)
      await store.append(thread(`t${i}`), { role: 'user', content: `${i}`, status: 'complete' }, fresh);
    await store.append(session('other', 'work'), { role: 'user', content: 'x', status: 'complete' }, fresh);
    // A second message adds no conversation; removing one that is not there removes nothing.
    await store.append(session('s0'), { role: 'agent', content: 'again', status: 'complete' });
    await store.remove(session('s1'));
    await store.remove(session('s2'));
    await store.remove(thread('t0'));
    await store.remove(session('never'));
    const totals = async (s: TranscriptStore) => [
      (await s.list('embedded-mock', undefined, { limit: 1 })).total,
      (await s.list('embedded-mock', 'session', { limit: 1 })).total,
      (await s.list('embedded-mock', 'thread', { limit: 1 })).total,
      (await s.list('work', undefined, { limit: 1 })).total,
      (await s.list('nobody', undefined, { limit: 1 })).total,
    ];
    expect(await totals(store)).toEqual([6, 4, 2, 1, 0]);
    store.close();
    const reopened = new TranscriptStore(dataDir);
    expect(await totals(reopened)).toEqual([6, 4, 2, 1, 0]);
    expect((await reopened.list('embedded-mock')).summaries).toHaveLength(6);
    reopened.close();
  });

  test('a range of messages, and which of many ids are known', async () => {
    const store = new TranscriptStore(dataDir);
    await store.append(session('long'), { role: 'user', content: 'm0', status: 'complete' }, fresh);
    for (let i = 1; i < 30; i++)
      await store.append(session('long'), { role: 'agent', content: `m${i}`, status: 'complete' });
    await store.append(
      session('pasted'),
      { role: 'user', content: 'x', status: 'complete' },
      { ...fresh, knownFrom: 'partial' },
    );
    const range = await store.messages(session('long'), 25, 10);
    expect(range?.total).toBe(30);
    expect(range?.messages.map((m) => m.content)).toEqual(['m25', 'm26', 'm27', 'm28', 'm29']);
    expect(await store.messages(session('none'), 0, 10)).toBeUndefined();
    expect(await store.known('embedded-mock', 'session', ['long', 'pasted', 'never', 'long'])).toEqual({
      long: 'start',
      pasted: 'partial',
    });
    expect(await store.known('embedded-mock', 'thread', ['long'])).toEqual({});
  });
});

describe('concurrency', () => {
  test('concurrent appends to one and to many transcripts all land, in call order', async () => {
    const store = new TranscriptStore(dataDir);
    const refs = [session('a'), session('b'), thread('c')];
    for (const ref of refs)
      await store.append(ref, { role: 'user', content: 'start', status: 'complete' }, fresh);
    const calls: Promise<unknown>[] = [];
    for (let i = 0; i < 200; i++) {
      for (const ref of refs)
        calls.push(store.append(ref, { role: 'agent', content: `${i}`, status: 'complete' }));
      // Flushes and timer writes racing the appends must not lose any of them.
      if (i % 50 === 0) calls.push(store.flush());
    }
    await Promise.all(calls);
    await store.flush();
    const restarted = new TranscriptStore(dataDir);
    for (const ref of refs) {
      const contents = (await restarted.get(ref))?.messages.map((m) => m.content);
      expect(contents).toEqual(['start', ...Array.from({ length: 200 }, (_, i) => `${i}`)]);
    }
  });

  test('appends to a new transcript that all start at once create it once', async () => {
    const store = new TranscriptStore(dataDir);
    await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        store.append(session('race'), { role: 'user', content: `${i}`, status: 'complete' }, fresh),
      ),
    );
    await store.flush();
    expect((await new TranscriptStore(dataDir).get(session('race')))?.messages).toHaveLength(50);
  });
});

describe('secrets', () => {
  test('a key typed into a message is redacted before it reaches memory or disk', async () => {
    const key = plantKey();
    const store = new TranscriptStore(dataDir);
    const stored = await store.append(
      session('s1'),
      { role: 'user', content: `my key is ${key}`, status: 'failed', error: `rejected ${key}` },
      { ...fresh, title: `about ${key}` },
    );
    await store.append(session('s1'), {
      role: 'agent',
      content: `You said: my key is ${key}`,
      status: 'complete',
    });
    await store.flush();

    expect(stored.content).toBe(`my key is ***…${key.slice(-4)}`);
    store.close();
    for (const file of filesUnder(dataDir)) {
      const text = readFileSync(file, 'latin1');
      expect(text).not.toContain(key.slice(0, -4));
      expect(text).not.toContain(key.slice(4, 24));
    }
    expect(JSON.stringify(await new TranscriptStore(dataDir).get(session('s1')))).not.toContain(
      key.slice(4, 24),
    );
  });
});
