// The bridge's main side: the renderer is untrusted, so every input is checked, and failures come
// back as codes and words. Streams arrive batched, then end once.
import { randomBytes, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { INLINE_FRAMES, type BridgeEvents, type LiveStream, type StreamEndEvent } from '../../shared/bridge';
import { BridgeHost } from '../../electron/bridge/bridge-host';
import { ConsoleCore } from '../../electron/core/console-core';
import type { MockState } from '../../mock/state';
import { removeDir, tempDir } from '../support/mock';
import { until } from '../support/until';

let core: ConsoleCore;
let host: BridgeHost;
let dataDir: string;
const events: { event: keyof BridgeEvents; payload: unknown }[] = [];

beforeAll(async () => {
  dataDir = tempDir('agent-console-bridge-');
  core = await ConsoleCore.open({
    dataDir,
    embeddedMock: 'in-process',
    keychainService: `agent-console-bridge-${randomBytes(4).toString('hex')}`,
  });
  host = new BridgeHost(core, { transport: 'web', version: 'test' });
  host.onEvent((event, payload) => events.push({ event, payload }));
  core.mock?.control.setAgent('storyteller', { latencyMs: 0, chunkDelayMs: 1, chunkCount: 120 });
});
afterAll(async () => {
  host.close();
  await core.close();
  removeDir(dataDir);
});

/** The end event of a stream, once it has come. */
const endOf = (streamId: string) => (): StreamEndEvent | undefined =>
  events.find((e) => e.event === 'chat:end' && (e.payload as StreamEndEvent).streamId === streamId)
    ?.payload as StreamEndEvent | undefined;

/** The chunks of a stream, one array per `chat:chunk` event, in the order they came. */
const chunkBatches = (streamId: string) =>
  events
    .filter((e) => e.event === 'chat:chunk' && (e.payload as { streamId: string }).streamId === streamId)
    .map((e) => (e.payload as BridgeEvents['chat:chunk']).chunks);

describe('untrusted input', () => {
  test.each([
    ['an unknown call', 'keys:steal', {}, 'UNKNOWN_CALL'],
    ['a call name from the prototype', 'constructor', {}, 'UNKNOWN_CALL'],
    ['an extra field', 'keys:list', { all: true }, 'BAD_INPUT'],
    ['a wrong type', 'keys:remove', { id: 42 }, 'BAD_INPUT'],
    ['a missing field', 'profiles:use', {}, 'BAD_INPUT'],
    ['a stream without its id', 'chat:stream', { message: 'hi' }, 'BAD_INPUT'],
  ])('%s is refused with a code, not run', async (_what, call, input, code) => {
    const result = await host.invoke(call, input);
    expect(result).toMatchObject({ ok: false, error: { code } });
  });

  test('a malformed key is refused without echoing it', async () => {
    const result = await host.invoke('keys:add', {
      name: 'x',
      secret: 'ams_notQuiteAKey',
      baseUrl: 'https://example.com',
    });
    expect(result).toMatchObject({ ok: false, error: { code: 'KEY_FORMAT' } });
    expect(JSON.stringify(result)).not.toContain('notQuiteAKey');
  });

  test('service errors keep their code and request id', async () => {
    const result = await host.invoke('chat:send', { message: 'hi', agent: 'archivist' });
    expect(result).toMatchObject({ ok: false, error: { code: 'AGENT_NOT_FOUND', status: 404 } });
    expect(result.ok ? '' : result.error.requestId).toMatch(/^req_/);
  });
});

describe('keys made at the mock', () => {
  test('mock:keyCreate puts the new key in the vault bound to the mock, so no profile can take it elsewhere unasked', async () => {
    const created = await host.invoke('mock:keyCreate', { name: 'ci', tier: 120 });
    expect(created).toMatchObject({ ok: true, value: { name: 'ci (mock)' } });
    const id = (created as { value: { id: string } }).value.id;
    const origin = new URL(core.mock?.baseUrl as string).origin;
    expect(core.vault.get(id)?.origins).toEqual([origin]);
    expect(created).toMatchObject({ value: { origins: [origin] } });
    const elsewhere = await host.invoke('profiles:add', {
      name: 'Away',
      baseUrl: 'https://example.com',
      keyId: id,
    });
    expect(elsewhere).toMatchObject({ ok: false, error: { code: 'ORIGIN_NOT_CONFIRMED' } });
  });
});

/** Waits for the stream's end event, however busy the machine: the test's own timeout bounds it. */
async function streamTo(end: (id: string) => StreamEndEvent | undefined) {
  await until('the stream to end', () => end(''), 18_000);
}

describe('streams', () => {
  test('chunks arrive batched (far fewer events than chunks), in order, then one end event', async () => {
    const streamId = randomUUID();
    const started = await host.invoke('chat:stream', { streamId, message: 'go', agent: 'storyteller' });
    expect(started).toMatchObject({ ok: true, value: { streamId } });
    const ended = endOf(streamId);
    await streamTo(ended);
    const batches = chunkBatches(streamId);
    const indexes = batches.flat().map((c) => c.index);
    expect(indexes).toEqual([...Array(120).keys()]);
    expect(batches.length).toBeLessThan(120);
    expect(ended()).toMatchObject({ status: 'done', chunkCount: 120 });
    expect(ended()?.frames?.at(-1)?.data).toBe('[DONE]');
    expect(ended()).toMatchObject({ frameCount: 121, sawDone: true });
  });

  test('a stream of more frames than travel with its end gives them through chat:frames', async () => {
    core.mock?.control.setAgent('storyteller', { chunkCount: INLINE_FRAMES + 500 });
    const streamId = randomUUID();
    await host.invoke('chat:stream', { streamId, message: 'long', agent: 'storyteller' });
    const ended = endOf(streamId);
    await streamTo(ended);
    const end = ended() as StreamEndEvent;
    expect(end).toMatchObject({ status: 'done', chunkCount: INLINE_FRAMES + 500, sawDone: true });
    expect(end.frames).toBeUndefined();
    expect(end.frameCount).toBe(INLINE_FRAMES + 501);
    const frames = await host.invoke('chat:frames', { streamId });
    expect(frames.ok).toBe(true);
    if (!frames.ok) return;
    const list = frames.value as NonNullable<StreamEndEvent['frames']>;
    expect(list).toHaveLength(INLINE_FRAMES + 501);
    expect(list.at(-1)?.data).toBe('[DONE]');
    // The frames spell the reply the end event carried.
    const text = list
      .slice(0, -1)
      .map((f) => (JSON.parse(f.data) as { content: string }).content)
      .join('');
    expect(text).toBe(end.text);
    const gone = await host.invoke('chat:frames', { streamId: randomUUID() });
    expect(gone).toMatchObject({ ok: false, error: { code: 'NOT_FOUND' } });
    if (!gone.ok) expect(gone.error.message).toMatch(/no longer kept/);
  });

  test('a burst (no pacing, 6,000 chunks) reaches the page as several events of at most 1,024 chunks, all in order', async () => {
    // One event holding a whole burst is parsed by the page in one long task.
    core.mock?.control.setAgent('storyteller', { chunkDelayMs: 0, chunkCount: 6000 });
    const streamId = randomUUID();
    await host.invoke('chat:stream', { streamId, message: 'burst', agent: 'storyteller' });
    const ended = endOf(streamId);
    await streamTo(ended);
    const batches = chunkBatches(streamId);
    expect(batches.flat().map((c) => c.index)).toEqual([...Array(6000).keys()]);
    expect(Math.max(...batches.map((b) => b.length))).toBeLessThanOrEqual(1024);
    expect(ended()).toMatchObject({ status: 'done', chunkCount: 6000 });
  });

  test('cancel ends the stream as cancelled and keeps the partial text', async () => {
    core.mock?.control.setAgent('storyteller', { chunkDelayMs: 20, chunkCount: 500 });
    const streamId = randomUUID();
    await host.invoke('chat:stream', { streamId, message: 'long', agent: 'storyteller' });
    await new Promise((r) => setTimeout(r, 150));
    expect(await host.invoke('chat:cancel', { streamId })).toMatchObject({
      ok: true,
      value: { cancelled: true },
    });
    const ended = endOf(streamId);
    await streamTo(ended);
    expect(ended()).toMatchObject({ status: 'cancelled' });
    expect(ended()?.text?.length).toBeGreaterThan(0);
    expect(ended()?.textLength).toBe(ended()?.text?.length);
    expect(ended()?.chunkCount).toBeLessThan(500);
  });
});

describe('live streams', () => {
  test("a session's running stream is listed with its chunks so far, until its end is sent", async () => {
    core.mock?.control.setAgent('storyteller', { chunkDelayMs: 10, chunkCount: 80 });
    const streamId = randomUUID();
    await host.invoke('chat:stream', {
      streamId,
      message: 'a story',
      agent: 'storyteller',
      session_id: 'liveSession1',
      startedHere: true,
    });
    await new Promise((r) => setTimeout(r, 200));
    const live = await host.invoke('chat:live', { session_id: 'liveSession1' });
    expect(await host.invoke('chat:live', { session_id: 'otherSession' })).toEqual({ ok: true, value: [] });
    if (!live.ok) throw new Error(live.error.message);
    const [listed] = live.value as LiveStream[];
    expect(listed).toMatchObject({ streamId, message: 'a story', agent: 'storyteller' });
    expect(listed?.chunks.map((c) => c.index)).toEqual([...Array(listed?.chunks.length).keys()]);
    expect(listed?.chunks.length).toBeGreaterThan(0);
    expect(listed?.chunks.length).toBeLessThan(80);

    const ended = endOf(streamId);
    await streamTo(ended);
    // What was listed is the start of the reply; once ended, it is no longer live.
    expect(ended()?.text?.startsWith(listed?.chunks.map((c) => c.content).join('') ?? '?')).toBe(true);
    expect(await host.invoke('chat:live', { session_id: 'liveSession1' })).toEqual({ ok: true, value: [] });
  });
});

describe('transcripts', () => {
  test('a streamed chat in a session is recorded, and a failed one keeps what was typed', async () => {
    const streamId = randomUUID();
    await host.invoke('chat:stream', {
      streamId,
      message: 'hello there',
      agent: 'echo',
      session_id: 'bridgeSession1',
      startedHere: true,
    });
    for (let i = 0; i < 200; i++) {
      const got = await host.invoke('transcripts:get', { kind: 'session', id: 'bridgeSession1' });
      if (got.ok && got.value && (got.value as { messages: unknown[] }).messages.length === 2) break;
      await new Promise((r) => setTimeout(r, 10));
    }
    const recorded = await host.invoke('transcripts:get', { kind: 'session', id: 'bridgeSession1' });
    expect(recorded).toMatchObject({
      ok: true,
      value: {
        knownFrom: 'start',
        messages: [
          { role: 'user', content: 'hello there', status: 'complete' },
          { role: 'agent', content: 'Echo: hello there', status: 'complete' },
        ],
      },
    });

    await host.invoke('chat:send', {
      message: 'are you there?',
      agent: 'archivist',
      session_id: 'bridgeSession2',
    });
    const failed = await host.invoke('transcripts:get', { kind: 'session', id: 'bridgeSession2' });
    expect(failed).toMatchObject({
      ok: true,
      value: {
        knownFrom: 'partial',
        messages: [
          { role: 'user', content: 'are you there?' },
          { role: 'agent', status: 'failed', error: expect.stringContaining('AGENT_NOT_FOUND') },
        ],
      },
    });
    const list = await host.invoke('transcripts:list', { kind: 'session' });
    expect(list.ok && (list.value as { summaries: { id: string }[] }).summaries.map((s) => s.id)).toEqual(
      expect.arrayContaining(['bridgeSession1', 'bridgeSession2']),
    );
  });
});

describe('the history, a page at a time', () => {
  test('lists page with a cursor, known ids and searches go through the bridge; out-of-bounds input is refused', async () => {
    for (const id of ['pageA', 'pageB', 'pageC'])
      await host.invoke('chat:send', {
        message: `refund 4711 for ${id}`,
        agent: 'echo',
        session_id: id,
        startedHere: true,
      });
    const first = await host.invoke('transcripts:list', { kind: 'session', limit: 2 });
    if (!first.ok) throw new Error(first.error.message);
    const page = first.value as { summaries: { id: string }[]; next?: string; total: number };
    expect(page.summaries.map((s) => s.id)).toEqual(['pageC', 'pageB']);
    expect(page.total).toBeGreaterThanOrEqual(3);
    const second = await host.invoke('transcripts:list', { kind: 'session', limit: 2, cursor: page.next });
    expect(second.ok && (second.value as { summaries: { id: string }[] }).summaries[0]?.id).toBe('pageA');

    expect(await host.invoke('transcripts:known', { kind: 'session', ids: ['pageA', 'nope'] })).toEqual({
      ok: true,
      value: { pageA: 'start' },
    });
    const found = await host.invoke('transcripts:search', { text: '"refund 4711" pageB' });
    expect(
      found.ok && (found.value as { hits: { id: string; index: number }[] }).hits.map((h) => [h.id, h.index]),
    ).toEqual([
      ['pageB', 1],
      ['pageB', 0],
    ]);
    const messages = await host.invoke('transcripts:messages', {
      kind: 'session',
      id: 'pageA',
      from: 1,
      limit: 5,
    });
    expect(messages).toMatchObject({ ok: true, value: { total: 2, messages: [{ role: 'agent' }] } });

    for (const [call, input] of [
      ['transcripts:list', { limit: 100_000 }],
      ['transcripts:list', { limit: 0 }],
      ['transcripts:search', { text: 'x'.repeat(501) }],
      ['transcripts:search', { text: 'x', since: 'yesterday' }],
      ['transcripts:messages', { kind: 'session', id: 'pageA', from: -1, limit: 5 }],
      ['transcripts:known', { kind: 'session', ids: [''] }],
    ] as const)
      expect(await host.invoke(call, input), call).toMatchObject({ ok: false, error: { code: 'BAD_INPUT' } });
  });
});

describe('the Mock screen', () => {
  test('a change it shows as done is already on disk (a kill -9 right after keeps it)', async () => {
    const result = await host.invoke('mock:agent', { slug: 'echo', latencyMs: 1234, chunkDelayMs: 9 });
    expect(result).toMatchObject({
      ok: true,
      value: { agents: expect.arrayContaining([expect.objectContaining({ slug: 'echo', latencyMs: 1234 })]) },
    });
    // Read at once, before any background save could run: the call itself wrote it.
    const saved = JSON.parse(readFileSync(join(dataDir, 'mock', 'mock-state.json'), 'utf8')) as MockState;
    expect(saved.agents.find((a) => a.slug === 'echo')?.tuning).toMatchObject({
      latencyMs: 1234,
      chunkDelayMs: 9,
    });
  });
});
