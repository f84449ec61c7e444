// POST /api/v1/chat with stream true: spec §6 (events), §4 and §8 (one request per stream).
import { beforeEach, describe, expect, it } from 'vitest';
import { ChatReply, STREAM_DONE, StreamEvent } from '../../shared/api';
import { withTestMock, type TestMock } from '../support/mock';
import {
  expectNestedError,
  parseCompleteStream,
  rateHeaders,
  sseEvents,
  streamChat,
} from './conformance-support';

let mock: TestMock;

withTestMock((started) => (mock = started));
beforeEach(() => {
  mock.server.control.reset();
  // Faster pacing only; the number and content of chunks are the seed's.
  for (const slug of ['echo', 'storyteller', 'helpdesk', 'glitch']) {
    mock.server.control.setAgent(slug, { latencyMs: 0, chunkDelayMs: 0 });
  }
});

async function jsonReply(body: Record<string, unknown>): Promise<string> {
  const res = await mock.call('POST', '/api/v1/chat', { body });
  expect(res.status, res.text).toBe(200);
  return ChatReply.parse(res.json).response;
}

const MESSAGE = 'Stream me: naïve café 数据 🚀✨ and some more words to span several chunks of the reply.';

describe('a complete stream', () => {
  it.each(['echo', 'storyteller', 'helpdesk'])(
    '%s: text/event-stream of data: {content} events whose contents join to the JSON reply, then [DONE]',
    async (agent) => {
      const expected = await jsonReply({ message: MESSAGE, agent, session_id: `json${agent}` });
      const res = await streamChat(mock, { message: MESSAGE, agent, session_id: `sse${agent}` });
      expect(res.error).toBeUndefined();
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/event-stream/);
      const stream = parseCompleteStream(res.text);
      expect(stream.error).toBeUndefined();
      expect(stream.chunks).toBeGreaterThan(1);
      expect(stream.content).toBe(expected);
    },
  );

  it('sends the storyteller reply in many chunks, multi-byte characters intact', async () => {
    mock.server.control.setAgent('storyteller', { chunkCount: 200 });
    const res = await streamChat(mock, { message: 'a long one', agent: 'storyteller' });
    const stream = parseCompleteStream(res.text);
    expect(stream.chunks).toBeGreaterThanOrEqual(200);
    expect(stream.content).not.toContain('\uFFFD');
    expect(stream.content).toBe(await jsonReply({ message: 'a long one', agent: 'storyteller' }));
  });

  it('carries X-Request-Id and the rate-limit headers', async () => {
    const res = await streamChat(mock, { message: 'headers', agent: 'echo' });
    expect(res.headers['x-request-id']).toBeTruthy();
    expect(rateHeaders(res)).toMatchObject({ limit: 60, remaining: 59 });
  });

  it('goes to the default agent when none is named', async () => {
    const res = await streamChat(mock, { message: 'default please' });
    expect(parseCompleteStream(res.text).content).toBe(await jsonReply({ message: 'default please' }));
  });

  it('shares session history with JSON chats', async () => {
    parseCompleteStream(
      (await streamChat(mock, { message: 'Remember 7731.', agent: 'helpdesk', session_id: 'mixed1' })).text,
    );
    const later = await jsonReply({ message: 'What number?', agent: 'helpdesk', session_id: 'mixed1' });
    expect(later).toContain('Remember 7731.');
    const streamed = parseCompleteStream(
      (await streamChat(mock, { message: 'Again?', agent: 'helpdesk', session_id: 'mixed1' })).text,
    );
    expect(streamed.content).toContain('What number?');
  });
});

describe('refusals before the stream starts are plain JSON errors', () => {
  it.each([
    ['a stopped agent', { message: 'hi', agent: 'archivist' }, 404, 'AGENT_NOT_FOUND'],
    ['an unknown agent', { message: 'hi', agent: 'no-such-agent' }, 404, 'AGENT_NOT_FOUND'],
    ['an agent in error', { message: 'hi', agent: 'ledger-bot' }, 502, 'AGENT_ERROR'],
    ['a message over 100 KB', { message: 'a'.repeat(100 * 1024 + 1), agent: 'echo' }, 400, 'BAD_REQUEST'],
    ['a bad session_id', { message: 'hi', agent: 'echo', session_id: 'has-dash' }, 400, 'BAD_REQUEST'],
  ] as const)('%s → %i %s', async (_label, body, status, code) => {
    const res = await mock.call('POST', '/api/v1/chat', { body: { ...body, stream: true } });
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expectNestedError(res, status, code);
  });
});

describe('errors during the stream (spec §6.4)', () => {
  it('the glitch agent sends content, then {error: {code: "stream_error", message}}, then [DONE]', async () => {
    const res = await streamChat(mock, { message: 'this will break', agent: 'glitch' });
    expect(res.status).toBe(200);
    expect(res.error).toBeUndefined();
    const stream = parseCompleteStream(res.text);
    expect(stream.chunks).toBeGreaterThan(0);
    expect(stream.error?.code).toBe('stream_error');
    expect(stream.error?.message.length).toBeGreaterThan(0);
    expect(StreamEvent.parse({ error: stream.error })).toBeTruthy();
  });

  it('breakStreams stream_error: the armed number of streams end with an error event and [DONE]', async () => {
    const full = await jsonReply({ message: MESSAGE, agent: 'echo' });
    mock.server.control.setFaults({ breakStreams: { afterChunks: 2, mode: 'stream_error', count: 2 } });
    for (let i = 0; i < 2; i++) {
      const res = await streamChat(mock, { message: MESSAGE, agent: 'echo' });
      const stream = parseCompleteStream(res.text);
      expect(stream.chunks).toBe(2);
      expect(full.startsWith(stream.content)).toBe(true);
      expect(stream.content.length).toBeLessThan(full.length);
      expect(stream.error?.code).toBe('stream_error');
    }
    const healthy = parseCompleteStream((await streamChat(mock, { message: MESSAGE, agent: 'echo' })).text);
    expect(healthy.error).toBeUndefined();
    expect(healthy.content).toBe(full);
  });

  it('breakStreams drop: the connection ends without [DONE], once', async () => {
    const full = await jsonReply({ message: MESSAGE, agent: 'echo' });
    mock.server.control.setFaults({ breakStreams: { afterChunks: 2, mode: 'drop', count: 1 } });
    const res = await streamChat(mock, { message: MESSAGE, agent: 'echo' });
    expect(res.status).toBe(200);
    // Either the client sees the broken connection, or at least a body without the end marker.
    const { data } = sseEvents(res.text);
    expect(data).not.toContain(STREAM_DONE);
    expect(res.error !== undefined || !res.text.includes(`data: ${STREAM_DONE}`)).toBe(true);
    const received = data
      .map((d) => (StreamEvent.parse(JSON.parse(d)) as { content: string }).content)
      .join('');
    expect(full.startsWith(received)).toBe(true);
    expect(received.length).toBeLessThan(full.length);

    const next = parseCompleteStream((await streamChat(mock, { message: MESSAGE, agent: 'echo' })).text);
    expect(next.content).toBe(full);
  });

  it('a dropped stream does not take the server down', async () => {
    mock.server.control.setFaults({ breakStreams: { afterChunks: 0, mode: 'drop', count: 1 } });
    const res = await streamChat(mock, { message: MESSAGE, agent: 'echo' });
    expect(res.text).not.toContain(STREAM_DONE);
    expect((await mock.call('GET', '/api/v1/health')).status).toBe(200);
  });
});

describe('rate limit (spec §4, §8: one streamed chat is one request)', () => {
  it('decrements X-RateLimit-Remaining by exactly one for a stream of many chunks', async () => {
    const key = mock.server.control.createKey({ name: 'stream-count', tier: 60 });
    mock.server.control.setAgent('storyteller', { chunkCount: 120 });
    const before = rateHeaders(await mock.call('GET', '/api/v1/health', { key: key.secret }));
    expect(before.remaining).toBe(59);
    const res = await streamChat(mock, { message: 'count me once', agent: 'storyteller' }, key.secret);
    expect(parseCompleteStream(res.text).chunks).toBeGreaterThanOrEqual(120);
    expect(rateHeaders(res).remaining).toBe(58);
    const after = rateHeaders(await mock.call('GET', '/api/v1/health', { key: key.secret }));
    expect(after.remaining).toBe(57);
  });
});
