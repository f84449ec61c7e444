// Reviews through the bridge, as the window calls them: a label made, a recorded reply reviewed
// through the active profile, read back, found by search and in the queue, exported; what the
// renderer may not send (a verdict of its own, a message index below 0, a huge note) is refused
// with a code and words, and nothing is kept.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { BridgeHost } from '../../electron/bridge/bridge-host';
import { ConsoleCore } from '../../electron/core/console-core';
import { removeDir, tempDir } from '../support/mock';

let core: ConsoleCore;
let host: BridgeHost;
let dataDir: string;

beforeAll(async () => {
  dataDir = tempDir('agent-console-reviews-bridge-');
  core = await ConsoleCore.open({
    dataDir,
    embeddedMock: 'in-process',
    keychainService: `agent-console-reviews-${randomBytes(4).toString('hex')}`,
  });
  host = new BridgeHost(core, { transport: 'web', version: 'test' });
  for (const id of ['orderA', 'orderB'])
    await host.invoke('chat:send', {
      message: `Where is order 4711 (${id})?`,
      agent: 'echo',
      session_id: id,
      startedHere: true,
    });
});
afterAll(async () => {
  host.close();
  await core.close();
  removeDir(dataDir);
});

async function value<T>(call: string, input: object): Promise<T> {
  const result = await host.invoke(call, input);
  if (!result.ok) throw new Error(`${result.error.code}: ${result.error.message}`);
  return result.value as T;
}

test('a reply reviewed with a label is read back, searched, queued and exported', async () => {
  const labels = await value<{ id: number; name: string }[]>('reviews:saveLabel', {
    name: 'wrong order',
    colour: '#cc3344',
  });
  expect(labels.map((l) => l.name)).toEqual(['wrong order']);
  const saved = await value<{ verdict: string }>('reviews:save', {
    kind: 'session',
    id: 'orderB',
    message: 1,
    verdict: 'wrong',
    labels: ['wrong order'],
    note: 'It should name the carrier.',
  });
  expect(saved.verdict).toBe('wrong');
  expect(await value('reviews:of', { kind: 'session', id: 'orderB' })).toMatchObject({
    messages: { 1: { verdict: 'wrong', labels: ['wrong order'], note: 'It should name the carrier.' } },
  });
  const found = await value<{ hits: { id: string; index: number }[] }>('transcripts:search', {
    text: '4711',
    label: 'wrong order',
  });
  expect(found.hits.map((h) => `${h.id}#${h.index}`)).toEqual(['orderB#1']);
  const unreviewed = await value<{ hits: { id: string }[] }>('transcripts:search', {
    text: '4711',
    reviewed: false,
  });
  expect(new Set(unreviewed.hits.map((h) => h.id))).toEqual(new Set(['orderA', 'orderB']));
  const queue = await value<{ items: { id: string }[]; reviewed: number; inScope: number }>('reviews:queue', {
    target: 'replies',
    state: 'unreviewed',
  });
  expect(queue.items.map((i) => i.id)).toEqual(['orderA']);
  expect([queue.reviewed, queue.inScope]).toEqual([1, 2]);
  const csv = await value<{ text: string; count: number }>('reviews:export', { format: 'csv' });
  expect(csv.count).toBe(1);
  expect(csv.text).toContain(',session,orderB,1,agent,echo,wrong,wrong order,It should name the carrier.,');
});

test('what the renderer may not send is refused with a code and words, and nothing is kept', async () => {
  for (const [input, code] of [
    [{ kind: 'session', id: 'orderA', verdict: 'meh', labels: [], note: '' }, 'BAD_INPUT'],
    [{ kind: 'session', id: 'orderA', message: -1, labels: [], note: '' }, 'BAD_INPUT'],
    [{ kind: 'session', id: 'orderA', labels: [], note: 'x'.repeat(100_000) }, 'BAD_INPUT'],
    [{ kind: 'session', id: 'orderA', labels: [], note: 'x'.repeat(20_001) }, 'NOTE_TOO_LONG'],
    [{ kind: 'session', id: 'orderA', labels: ['no such'], note: '' }, 'LABEL_NOT_FOUND'],
    [{ kind: 'thread', id: 'orderA', verdict: 'good', labels: [], note: '' }, 'REVIEW_TARGET'],
  ] as const) {
    const result = await host.invoke('reviews:save', input);
    expect(result, JSON.stringify(input).slice(0, 80)).toMatchObject({ ok: false, error: { code } });
    if (!result.ok) expect(result.error.message.length).toBeLessThan(300);
  }
  expect(await host.invoke('reviews:saveLabel', { name: 'a\u0007b', colour: '#000000' })).toMatchObject({
    ok: false,
    error: {
      code: 'LABEL_INVALID',
      message: 'A label’s name cannot hold control characters or line breaks.',
    },
  });
  expect(await value('reviews:of', { kind: 'session', id: 'orderA' })).toEqual({ messages: {} });
});
