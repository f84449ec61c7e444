// POST /api/v1/chat without streaming: spec §4 (request and reply), §3 (agent states), §7 (chat
// errors) and §8 (message size, session_id length, timeout).
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AgentList, ChatReply, ConversationList, MAX_MESSAGE_BYTES, utf8Bytes } from '../../shared/api';
import { ManualClock } from '../../shared/clock';
import { removeDir, startTestMock, withTestMock, type TestMock } from '../support/mock';
import { expectNestedError, untilSleeping } from './conformance-support';

let mock: TestMock;

withTestMock((started) => (mock = started));
beforeEach(() => {
  mock.server.control.reset();
  // Only the latencies of the seed are lowered, so the suite stays fast; behaviour is unchanged.
  for (const slug of ['helpdesk', 'storyteller', 'glitch'])
    mock.server.control.setAgent(slug, { latencyMs: 0 });
});

const chat = (body: unknown, key = 'pro') => mock.call('POST', '/api/v1/chat', { key, body });

async function reply(body: unknown): Promise<ChatReply> {
  const res = await chat(body);
  expect(res.status, res.text).toBe(200);
  const parsed = ChatReply.parse(res.json);
  expect(parsed.request_id).toBe(res.headers['x-request-id']);
  return parsed;
}

async function agents(): Promise<AgentList['agents']> {
  const res = await mock.call('GET', '/api/v1/agents?limit=100');
  return AgentList.parse(res.json).agents;
}

async function conversations(query = ''): Promise<ConversationList> {
  const res = await mock.call('GET', `/api/v1/conversations?limit=100${query}`);
  expect(res.status).toBe(200);
  return ConversationList.parse(res.json);
}

describe('reply', () => {
  it('returns {response, agent, request_id}; the echo agent repeats the message verbatim', async () => {
    const message = 'Grüße, 世界! 🚀 "quoted" \\ back\nslash\ttab';
    const r = await reply({ message, agent: 'echo' });
    expect(r.agent).toBe('echo');
    expect(r.response).toContain(message);
  });

  it('gives each reply its own request id', async () => {
    const a = await reply({ message: 'a', agent: 'echo' });
    const b = await reply({ message: 'b', agent: 'echo' });
    expect(a.request_id).not.toBe(b.request_id);
  });

  it('accepts "stream": false as the JSON reply', async () => {
    const res = await chat({ message: 'plain', agent: 'echo', stream: false });
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(ChatReply.parse(res.json).response).toContain('plain');
  });

  it('accepts Content-Type with a charset', async () => {
    const res = await mock.call('POST', '/api/v1/chat', {
      rawBody: JSON.stringify({ message: 'charset', agent: 'echo' }),
      headers: { 'content-type': 'application/json; charset=utf-8' },
    });
    expect(res.status).toBe(200);
  });
});

describe('agent selection', () => {
  it('addresses an agent by slug or by agent_id', async () => {
    const list = await agents();
    for (const slug of ['echo', 'helpdesk']) {
      const agent = list.find((a) => a.slug === slug);
      expect(agent).toBeDefined();
      expect((await reply({ message: 'hi', agent: slug })).agent).toBe(slug);
      expect((await reply({ message: 'hi', agent: agent?.agent_id })).agent).toBe(slug);
    }
  });

  it('defaults to the first deployed agent, and moves on when that one stops', async () => {
    const list = await agents();
    const deployed = list.filter((a) => a.status === 'deployed');
    expect(deployed.length).toBeGreaterThan(1);
    const [first, second] = deployed as [AgentList['agents'][number], AgentList['agents'][number]];
    expect((await reply({ message: 'who answers?' })).agent).toBe(first.slug);

    mock.server.control.setAgent(first.slug, { status: 'stopped' });
    expect((await reply({ message: 'who answers now?' })).agent).toBe(second.slug);

    // An earlier agent that comes back is first again.
    mock.server.control.setAgent(first.slug, { status: 'deployed' });
    expect((await reply({ message: 'and now?' })).agent).toBe(first.slug);
  });

  it('gives 404 AGENT_NOT_FOUND to a default chat when no agent is deployed', async () => {
    for (const a of await agents()) mock.server.control.setAgent(a.slug, { status: 'stopped' });
    expectNestedError(await chat({ message: 'anyone?' }), 404, 'AGENT_NOT_FOUND');
  });

  it('gives 404 AGENT_NOT_FOUND for a stopped agent, by slug and by id', async () => {
    const archivist = (await agents()).find((a) => a.slug === 'archivist');
    expect(archivist?.status).toBe('stopped');
    expectNestedError(await chat({ message: 'hi', agent: 'archivist' }), 404, 'AGENT_NOT_FOUND');
    expectNestedError(await chat({ message: 'hi', agent: archivist?.agent_id }), 404, 'AGENT_NOT_FOUND');
  });

  it('gives 502 AGENT_ERROR for an agent in error, by slug and by id', async () => {
    const ledger = (await agents()).find((a) => a.slug === 'ledger-bot');
    expect(ledger?.status).toBe('error');
    expectNestedError(await chat({ message: 'hi', agent: 'ledger-bot' }), 502, 'AGENT_ERROR');
    expectNestedError(await chat({ message: 'hi', agent: ledger?.agent_id }), 502, 'AGENT_ERROR');
  });

  it('gives 404 AGENT_NOT_FOUND for an agent that does not exist', async () => {
    expectNestedError(await chat({ message: 'hi', agent: 'no-such-agent' }), 404, 'AGENT_NOT_FOUND');
    expectNestedError(
      await chat({ message: 'hi', agent: '00000000-0000-4000-8000-000000000000' }),
      404,
      'AGENT_NOT_FOUND',
    );
  });

  it('follows status changes made through the control at once', async () => {
    mock.server.control.setAgent('echo', { status: 'stopped' });
    expectNestedError(await chat({ message: 'hi', agent: 'echo' }), 404, 'AGENT_NOT_FOUND');
    mock.server.control.setAgent('echo', { status: 'error' });
    expectNestedError(await chat({ message: 'hi', agent: 'echo' }), 502, 'AGENT_ERROR');
    mock.server.control.setAgent('archivist', { status: 'deployed' });
    expect((await reply({ message: 'back', agent: 'archivist' })).agent).toBe('archivist');
  });
});

describe('message', () => {
  it.each([
    ['missing', { agent: 'echo' }],
    ['a number', { message: 42 }],
    ['null', { message: null }],
    ['an object', { message: { text: 'hi' } }],
  ])('400 BAD_REQUEST when message is %s', async (_label, body) => {
    expectNestedError(await chat(body), 400, 'BAD_REQUEST');
  });

  it.each([
    ['not JSON', '{"message": "hi"'],
    ['a JSON array', '["hi"]'],
    ['a JSON string', '"hi"'],
    ['empty', ''],
  ])('400 BAD_REQUEST when the body is %s', async (_label, rawBody) => {
    const res = await mock.call('POST', '/api/v1/chat', {
      rawBody,
      headers: { 'content-type': 'application/json' },
    });
    expectNestedError(res, 400, 'BAD_REQUEST');
  });

  const KB100 = 100 * 1024;
  // [label, message]: the limit is 100 KB counted in UTF-8 bytes, not in characters.
  const atLimit: Array<[string, string]> = [
    ['ASCII', 'a'.repeat(KB100)],
    ['2-byte characters', 'é'.repeat(KB100 / 2)],
    ['4-byte emoji', '🚀'.repeat(KB100 / 4)],
    ['3-byte characters and ASCII', '数'.repeat(34_133) + 'a'],
  ];
  const overLimit: Array<[string, string]> = [
    ['ASCII', 'a'.repeat(KB100 + 1)],
    ['2-byte characters (51,201 characters)', 'é'.repeat(KB100 / 2) + 'a'],
    ['4-byte emoji (25,601 characters)', '🚀'.repeat(KB100 / 4) + 'a'],
    ['one emoji past the limit', 'a'.repeat(KB100 - 3) + '🚀'],
  ];

  it('counts 100 KB as 102,400 bytes', () => {
    expect(MAX_MESSAGE_BYTES).toBe(KB100);
    for (const [, m] of atLimit) expect(utf8Bytes(m)).toBe(KB100);
    for (const [, m] of overLimit) expect(utf8Bytes(m)).toBeGreaterThan(KB100);
  });

  it.each(atLimit)('accepts exactly 100 KB of %s and echoes it whole', async (_label, message) => {
    const r = await reply({ message, agent: 'echo' });
    expect(r.response).toContain(message);
  });

  it.each(overLimit)('refuses 100 KB + 1 byte of %s with 400', async (_label, message) => {
    const error = expectNestedError(await chat({ message, agent: 'echo' }), 400, 'BAD_REQUEST');
    expect(error.message).toMatch(/message/i);
  });

  it('accepts a 100 KB message whose JSON escapes make the body several times larger', async () => {
    // Python's json.dumps escapes every non-ASCII character; control characters cost 6 bytes each.
    const message = '\u0001'.repeat(KB100 / 2) + 'é'.repeat(KB100 / 4);
    const rawBody = JSON.stringify({ message, agent: 'echo' }).replace(
      /[^\x20-\x7e]/g,
      (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
    );
    expect(rawBody.length).toBeGreaterThan(4 * KB100);
    const res = await mock.call('POST', '/api/v1/chat', {
      rawBody,
      headers: { 'content-type': 'application/json' },
    });
    expect(res.status, res.text.slice(0, 200)).toBe(200);
    expect(ChatReply.parse(res.json).response).toContain(message);
  });
});

describe('session_id', () => {
  const alnum = 'aB3'.repeat(43); // 129 characters

  it('accepts up to 128 letters and digits', async () => {
    expect((await chat({ message: 'hi', agent: 'echo', session_id: 'a' })).status).toBe(200);
    expect((await chat({ message: 'hi', agent: 'echo', session_id: alnum.slice(0, 128) })).status).toBe(200);
  });

  it.each([
    ['129 characters', alnum],
    ['a dash', 'abc-def'],
    ['an underscore', 'abc_def'],
    ['a space', 'abc def'],
    ['a dot', 'abc.def'],
    ['a non-string', 12345],
  ])('refuses a session_id with %s with 400 BAD_REQUEST', async (_label, session_id) => {
    const error = expectNestedError(
      await chat({ message: 'hi', agent: 'echo', session_id }),
      400,
      'BAD_REQUEST',
    );
    expect(error.message).toContain('session_id');
  });

  it('shares history between messages of the same session, and only those', async () => {
    const first = await reply({
      message: 'My order number is 4417.',
      agent: 'helpdesk',
      session_id: 'sessA',
    });
    expect(first.response).not.toContain('Earlier');
    const second = await reply({ message: 'Where is it?', agent: 'helpdesk', session_id: 'sessA' });
    expect(second.response).toContain('My order number is 4417.');
    const other = await reply({ message: 'Hello?', agent: 'helpdesk', session_id: 'sessB' });
    expect(other.response).not.toContain('4417');
    const third = await reply({ message: 'Any news?', agent: 'helpdesk', session_id: 'sessA' });
    expect(third.response).toContain('Where is it?');
  });

  it('lists the session in conversations, and counts its messages', async () => {
    const before = await conversations();
    expect(before.conversations.some((c) => c.session_id === 'listedSession1')).toBe(false);

    await reply({ message: 'first', agent: 'echo', session_id: 'listedSession1' });
    const after = await conversations();
    expect(after.total).toBe(before.total + 1);
    const item = after.conversations.find((c) => c.session_id === 'listedSession1');
    expect(item).toMatchObject({ agent: 'echo', session_id: 'listedSession1', message_count: 2 });
    expect(Date.parse(item?.last_message_at ?? '')).toBeGreaterThanOrEqual(
      Date.parse(item?.started_at ?? ''),
    );

    await reply({ message: 'second', agent: 'echo', session_id: 'listedSession1' });
    const again = await conversations('&agent=echo');
    expect(again.conversations.filter((c) => c.session_id === 'listedSession1')).toEqual([
      expect.objectContaining({ id: item?.id, message_count: 4 }),
    ]);
  });

  it('keeps one conversation when the first two messages of a session are in flight together', async () => {
    mock.server.control.setAgent('helpdesk', { latencyMs: 100 });
    await Promise.all([
      reply({ message: 'one', agent: 'helpdesk', session_id: 'concurrent1' }),
      reply({ message: 'two', agent: 'helpdesk', session_id: 'concurrent1' }),
    ]);
    const third = await reply({ message: 'three', agent: 'helpdesk', session_id: 'concurrent1' });
    expect(third.response).toContain('#3');
    const listed = (await conversations()).conversations.filter((c) => c.session_id === 'concurrent1');
    expect(listed).toHaveLength(1);
    expect(listed[0]?.message_count).toBe(6);
  });
});

describe('timeout (spec §8: 60 s, then 504 TIMEOUT)', () => {
  let clock: ManualClock;
  let slow: TestMock;

  beforeAll(async () => {
    clock = new ManualClock();
    slow = await startTestMock({ clock });
  });
  afterAll(async () => {
    await slow.stop();
    removeDir(slow.dataDir);
  });
  beforeEach(() => slow.server.control.reset());

  /** Starts a chat and reports whether it has answered yet. */
  function pending(body: Record<string, unknown>) {
    let done = false;
    const promise = slow.call('POST', '/api/v1/chat', { body }).finally(() => (done = true));
    return { promise, done: () => done };
  }

  it.each([false, true])('answers 504 TIMEOUT after 60 s and not before (stream: %s)', async (stream) => {
    slow.server.control.setAgent('slowpoke', { latencyMs: 600_000 });
    const call = pending({ message: 'take your time', agent: 'slowpoke', stream });
    await untilSleeping(clock);
    await clock.advance(59_999);
    await new Promise((r) => setTimeout(r, 50));
    expect(call.done()).toBe(false);
    await clock.advance(1);
    const res = await call.promise;
    const error = expectNestedError(res, 504, 'TIMEOUT');
    expect(error.message).toContain('60');
  });

  it('answers an agent that takes just under 60 s', async () => {
    slow.server.control.setAgent('slowpoke', { latencyMs: 59_000 });
    const call = pending({ message: 'nearly too slow', agent: 'slowpoke' });
    await untilSleeping(clock);
    await clock.advance(59_000);
    const res = await call.promise;
    expect(res.status, res.text).toBe(200);
    expect(ChatReply.parse(res.json).agent).toBe('slowpoke');
  });

  it('honours a shorter configured timeout', async () => {
    const quick = await startTestMock({ clock, chatTimeoutMs: 2_000 });
    try {
      quick.server.control.setAgent('slowpoke', { latencyMs: 5_000 });
      const call = quick.call('POST', '/api/v1/chat', { body: { message: 'x', agent: 'slowpoke' } });
      await untilSleeping(clock);
      await clock.advance(2_000);
      expectNestedError(await call, 504, 'TIMEOUT');
    } finally {
      await quick.stop();
      removeDir(quick.dataDir);
    }
  });
});
