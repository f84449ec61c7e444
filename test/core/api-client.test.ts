// The API client against the real mock over HTTPS: no fetch mocking.
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { loadOrCreateTls } from '../../mock/cert';
import { systemClock } from '../../shared/clock';
import { ApiClient, type ApiClientOptions } from '../../electron/core/api-client';
import { ApiError } from '../../electron/core/api-error';
import { RateLimiter } from '../../electron/core/rate-limiter';
import type { RequestLogEntry } from '../../shared/request-log-entry';
import { mockConnection, startTestMock, type TestMock } from '../support/mock';

let mock: TestMock;
const healthy = {
  status: 'healthy',
  timestamp: '2026-01-01T00:00:00.000Z',
  components: { api: 'operational', vps: 'operational', agents: 'operational', gateway: 'operational' },
  uptime_seconds: 5,
  version: '1.0.0',
};
const clients: ApiClient[] = [];

function client(key = 'pro', extra: Partial<ApiClientOptions> = {}): ApiClient {
  const c = new ApiClient({
    profileId: 'test',
    ...mockConnection(mock.server, key),
    limiter: new RateLimiter({ clock: systemClock, limit: 300 }),
    clock: systemClock,
    retries: { backoffMs: 5 },
    ...extra,
  });
  clients.push(c);
  return c;
}

async function failure(promise: Promise<unknown>): Promise<ApiError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(ApiError);
    return error as ApiError;
  }
  throw new Error('expected the call to fail');
}

beforeAll(async () => {
  mock = await startTestMock({ chatTimeoutMs: 400 });
  for (const agent of ['echo', 'storyteller', 'helpdesk', 'glitch']) {
    mock.server.control.setAgent(agent, { latencyMs: 0, chunkDelayMs: 0 });
  }
  mock.server.control.createKey({ name: 'spare', tier: 300 });
});
afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
  await mock.stop();
});

describe('every endpoint', () => {
  test('agents, conversations, threads, usage and health parse into typed results', async () => {
    const c = client();
    const agents = await c.listAgents({ limit: 3 });
    expect(agents.agents.map((a) => a.slug)).toEqual(['echo', 'storyteller', 'helpdesk']);
    expect(agents.has_more).toBe(true);
    const conversations = await c.listConversations({ agent: 'echo', limit: 5 });
    expect(conversations.conversations.every((x) => x.agent === 'echo')).toBe(true);
    expect((await c.listThreads()).threads.length).toBeGreaterThan(0);
    expect((await c.usage(7)).usage.daily).toHaveLength(7);
    expect((await c.health()).status).toBe('healthy');
  });

  test('threads: create, then append; an unknown thread is a 404', async () => {
    const c = client();
    const created = await c.createThread({ message: 'Where is my order?', agent: 'helpdesk' });
    expect(created.thread.message_count).toBe(2);
    const reply = await c.appendThreadMessage(created.thread.id, 'Any news?');
    expect(reply.thread_id).toBe(created.thread.id);
    expect(reply.response).toContain('Where is my order?');
    const missing = await failure(c.appendThreadMessage('thr_nope', 'hello'));
    expect(missing.status).toBe(404);
  });

  test('chat without streaming', async () => {
    const reply = await client().chat({ agent: 'echo', message: 'hi 👋' });
    expect(reply.response).toBe('Echo: hi 👋');
    expect(reply.request_id).toMatch(/^req_/);
  });
});

describe('errors', () => {
  test.each([
    ['AGENT_NOT_FOUND', 404, { agent: 'archivist' }],
    ['AGENT_NOT_FOUND', 404, { agent: 'no-such-agent' }],
    ['AGENT_ERROR', 502, { agent: 'ledger-bot' }],
    ['BAD_REQUEST', 400, { agent: 'echo', session_id: 'not-alphanumeric!' }],
  ])('chat %s (%i)', async (code, status, input) => {
    const error = await failure(client().chat({ message: 'hello', ...input }));
    expect(error).toMatchObject({ code, status });
    expect(error.requestId).toMatch(/^req_/);
  });

  test('TIMEOUT (504) when the agent takes longer than the service allows', async () => {
    mock.server.control.setAgent('slowpoke', { latencyMs: 5_000 });
    const error = await failure(client().chat({ agent: 'slowpoke', message: 'hello' }));
    expect(error).toMatchObject({ code: 'TIMEOUT', status: 504 });
  });

  test("CLIENT_TIMEOUT, in words, when no answer comes within the client's own timeout", async () => {
    // undici's timeout errors, recognised as such (electron/core/http-agent.ts imports its parts).
    mock.server.control.setFaults({ latencyMs: 3_000 });
    try {
      const impatient = client('pro', { timeouts: { chatMs: 1_000, otherMs: 1_000 } });
      for (const call of [
        () => impatient.health(),
        () => impatient.chat({ agent: 'echo', message: 'hello' }),
        () => impatient.chatStream({ agent: 'echo', message: 'hello' }),
      ]) {
        expect(await failure(call())).toMatchObject({
          code: 'CLIENT_TIMEOUT',
          status: 0,
          message: 'No answer from the service within 1 second.',
        });
      }
    } finally {
      mock.server.control.clearFaults();
    }
  });

  test('INVALID_KEY for a revoked key and PLAN_REQUIRED for a free plan', async () => {
    expect(await failure(client('revoked').health())).toMatchObject({ code: 'INVALID_KEY', status: 401 });
    expect(await failure(client('free').chat({ message: 'x' }))).toMatchObject({
      code: 'PLAN_REQUIRED',
      status: 403,
    });
  });

  test('RATE_LIMITED in both error shapes, with retry-after, is one ApiError', async () => {
    for (const shape of ['nested', 'flat'] as const) {
      mock.server.control.setFaults({
        errorShape: shape,
        failNext: { status: 429, count: 1, pathPrefix: '/api/v1/chat' },
      });
      const error = await failure(client().chat({ agent: 'echo', message: 'x' }));
      expect(error).toMatchObject({ code: 'RATE_LIMITED', status: 429, retryAfterS: 1 });
    }
    mock.server.control.clearFaults();
  });

  test('GETs retry through a burst of 503s; chat does not retry silently', async () => {
    const log: RequestLogEntry[] = [];
    const c = client('pro', { log: (e) => log.push(e) });
    mock.server.control.setFaults({ failNext: { status: 503, count: 2, pathPrefix: '/api/v1/health' } });
    expect((await c.health()).status).toBe('healthy');
    expect(log.map((e) => e.status)).toEqual([503, 503, 200]);
    mock.server.control.setFaults({ failNext: { status: 503, count: 1, pathPrefix: '/api/v1/chat' } });
    expect(await failure(c.chat({ agent: 'echo', message: 'once' }))).toMatchObject({ status: 503 });
    expect(log.filter((e) => e.url.endsWith('/chat'))).toHaveLength(1);
  });

  test('a reply with a wrong field type is a clear error naming the field', async () => {
    // A real HTTPS server with the mock's certificate that answers like a broken service would.
    const tls = await loadOrCreateTls(mock.dataDir);
    const broken = createServer({ key: tls.key, cert: tls.cert }, (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ ...healthy, uptime_seconds: 'soon' }));
    });
    await new Promise<void>((resolve) => broken.listen(0, '127.0.0.1', resolve));
    const { port } = broken.address() as AddressInfo;
    try {
      const error = await failure(client('pro', { baseUrl: `https://127.0.0.1:${port}` }).health());
      expect(error.code).toBe('INVALID_RESPONSE');
      expect(error.message).toContain("'uptime_seconds'");
    } finally {
      broken.closeAllConnections();
      broken.close();
    }
  });

  test('a service that cannot be reached is a NETWORK error, not a crash', async () => {
    const c = client('pro', { baseUrl: 'https://127.0.0.1:9', retries: { after5xx: 0 } });
    expect(await failure(c.health())).toMatchObject({ code: 'NETWORK', status: 0 });
  });
});

describe('streaming', () => {
  test('chunks arrive in order with timing and join into the full reply', async () => {
    mock.server.control.setAgent('storyteller', { chunkCount: 50, chunkDelayMs: 2 });
    const stream = await client().chatStream({ agent: 'storyteller', message: 'tell me' });
    const seen: number[] = [];
    for await (const chunk of stream) seen.push(chunk.index);
    expect(seen).toEqual([...Array(50).keys()]);
    expect(stream.status).toBe('done');
    expect(stream.text.split(' ')).toHaveLength(50);
    expect(stream.timing.firstChunkMs).toBeGreaterThanOrEqual(0);
    expect(stream.timing.totalMs).toBeGreaterThanOrEqual(stream.timing.firstChunkMs ?? 0);
    expect(stream.frames.at(-1)?.data).toBe('[DONE]');
    const nonStreamed = await client().chat({ agent: 'storyteller', message: 'tell me' });
    expect(stream.text).toBe(nonStreamed.response);
  });

  test('a slow agent: the time to first chunk shows the wait, and the stream still completes', async () => {
    mock.server.control.setAgent('slowpoke', { latencyMs: 300, chunkDelayMs: 0 });
    const stream = await client().chatStream({ agent: 'slowpoke', message: 'take your time' });
    expect(await stream.collect()).toContain('Thanks for waiting');
    expect(stream.timing.firstChunkMs).toBeGreaterThanOrEqual(250);
    expect(stream.status).toBe('done');
  });

  test('multi-byte characters survive the stream', async () => {
    const message = 'naïve café 🚀🚀 数据流 ✨'.repeat(5);
    const stream = await client().chatStream({ agent: 'echo', message });
    expect(await stream.collect()).toBe(`Echo: ${message}`);
  });

  test('stream_error: the error carries the partial reply', async () => {
    mock.server.control.setAgent('glitch', { failAfterChunks: 2 });
    const stream = await client().chatStream({ agent: 'glitch', message: 'go' });
    const error = await failure(stream.collect());
    expect(error.code).toBe('STREAM_ERROR');
    expect(error.partial).toBe(stream.text);
    expect(error.partial?.length).toBeGreaterThan(0);
  });

  test('a stream that stalls past the client timeout is CLIENT_TIMEOUT with the partial reply', async () => {
    mock.server.control.setAgent('storyteller', { chunkCount: 5, chunkDelayMs: 3_000 });
    const impatient = client('pro', { timeouts: { chatMs: 1_000 } });
    const stream = await impatient.chatStream({ agent: 'storyteller', message: 'go' });
    const error = await failure(stream.collect());
    expect(error).toMatchObject({
      code: 'CLIENT_TIMEOUT',
      message:
        'The stream did not finish within 1 second, so this console stopped reading it. The reply is incomplete.',
    });
    expect(error.partial).toBe(stream.text);
    expect(error.partial?.length).toBeGreaterThan(0);
  });

  test('a connection dropped before [DONE] is STREAM_INCOMPLETE with the partial reply', async () => {
    mock.server.control.setFaults({ breakStreams: { afterChunks: 3, mode: 'drop', count: 1 } });
    const stream = await client().chatStream({ agent: 'echo', message: 'x'.repeat(200) });
    const error = await failure(stream.collect());
    expect(error.code).toBe('STREAM_INCOMPLETE');
    expect(error.partial).toBe(`Echo: ${'x'.repeat(200)}`.slice(0, 36));
  });

  test('cancel stops the stream and keeps what arrived', async () => {
    mock.server.control.setAgent('storyteller', { chunkCount: 500, chunkDelayMs: 5 });
    const controller = new AbortController();
    const stream = await client().chatStream(
      { agent: 'storyteller', message: 'long' },
      { signal: controller.signal },
    );
    let n = 0;
    const error = await failure(
      (async () => {
        for await (const _chunk of stream) if (++n === 5) controller.abort();
      })(),
    );
    expect(error.code).toBe('ABORTED');
    expect(stream.status).toBe('cancelled');
    expect(stream.chunkCount).toBeGreaterThanOrEqual(5);
    expect(stream.chunkCount).toBeLessThan(500);
    expect(error.partial).toBe(stream.text);
  });

  test('breaking out of the loop ends the request as cancelled', async () => {
    const stream = await client().chatStream({ agent: 'storyteller', message: 'long' });
    for await (const chunk of stream) if (chunk.index === 2) break;
    expect(stream.status).toBe('cancelled');
    expect(stream.chunkCount).toBe(3);
  });

  test('an error reply to a streamed chat rejects before any chunk', async () => {
    const error = await failure(client().chatStream({ agent: 'archivist', message: 'x' }));
    expect(error).toMatchObject({ code: 'AGENT_NOT_FOUND', status: 404 });
  });
});
