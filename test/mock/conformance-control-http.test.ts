// The mock's control over HTTP (/__control, mock/control.ts): the same operations as in-process,
// checked through their effect on the service API.
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { request } from 'undici';
import { beforeEach, describe, expect, it } from 'vitest';
import { API_KEY_PATTERN, HealthReport, ThreadList } from '../../shared/api';
import type { KeyView as MockKeyView } from '../../mock/control';
import { withTestMock, type TestMock } from '../support/mock';
import {
  expectFlatError,
  expectNestedError,
  rateHeaders,
  streamChat,
  parseCompleteStream,
} from './conformance-support';

let mock: TestMock;

withTestMock((started) => (mock = started));
beforeEach(async () => {
  expect((await control('POST', '/reset')).status).toBe(200);
});

function control(method: 'GET' | 'POST' | 'PATCH' | 'DELETE', path: string, body?: unknown) {
  return mock.control(method, path, body);
}

interface LoggedRequest {
  requestId: string;
  path: string;
  status: number;
  key: string;
}

/** The mock's request log, as GET /__control/requests answers it. */
async function requestLog(): Promise<LoggedRequest[]> {
  return ((await control('GET', '/requests')).json as { requests: LoggedRequest[] }).requests;
}

/** A key as the control path shows it; its secret only when it is made. */
type KeyView = MockKeyView & { secret?: string };

describe('keys', () => {
  it('POST /keys issues a working key whose secret is shown once', async () => {
    const res = await control('POST', '/keys', { name: 'ci', tier: 30, plan: 'ultra' });
    expect(res.status).toBe(200);
    const key = res.json as KeyView;
    expect(key.secret).toMatch(API_KEY_PATTERN);
    expect(key).toMatchObject({ name: 'ci', tier: 30, plan: 'ultra', revoked: false });
    expect(key.masked).not.toContain((key.secret as string).slice(4, -4));
    expect(
      rateHeaders(await mock.call('GET', '/api/v1/health', { key: key.secret as string })),
    ).toMatchObject({
      limit: 30,
      remaining: 29,
    });
    // Never retrievable again: neither the state nor the request log holds it.
    const state = await control('GET', '/state');
    expect(state.text).not.toContain(key.secret as string);
    expect((state.json as { keys: KeyView[] }).keys.find((k) => k.id === key.id)).not.toHaveProperty(
      'secret',
    );
    const log = await control('GET', '/requests');
    expect(log.status).toBe(200);
    expect(log.text).not.toContain(key.secret as string);
    for (const secret of Object.values(mock.server.keys)) expect(log.text + state.text).not.toContain(secret);
  });

  it('PATCH /keys/:id changes the tier and the plan at once', async () => {
    const key = (await control('POST', '/keys', { name: 'edit', tier: 60, plan: 'pro' })).json as KeyView;
    const secret = key.secret as string;
    expect(rateHeaders(await mock.call('GET', '/api/v1/agents', { key: secret })).limit).toBe(60);
    const patched = await control('PATCH', `/keys/${key.id}`, { tier: 120 });
    expect(patched.json).toMatchObject({ id: key.id, tier: 120 });
    expect(rateHeaders(await mock.call('GET', '/api/v1/agents', { key: secret }))).toMatchObject({
      limit: 120,
      remaining: 118,
    });
    await control('PATCH', `/keys/${key.id}`, { plan: 'free' });
    expectNestedError(await mock.call('GET', '/api/v1/agents', { key: secret }), 403, 'PLAN_REQUIRED');
  });

  it('POST /keys/:id/revoke revokes at once', async () => {
    const key = (await control('POST', '/keys', { name: 'gone' })).json as KeyView;
    expect((await mock.call('GET', '/api/v1/agents', { key: key.secret as string })).status).toBe(200);
    const revoked = await control('POST', `/keys/${key.id}/revoke`);
    expect(revoked.json).toMatchObject({ id: key.id, revoked: true });
    expectNestedError(
      await mock.call('GET', '/api/v1/agents', { key: key.secret as string }),
      401,
      'INVALID_KEY',
    );
  });

  it('refuses bad input with 400 and unknown keys with 404', async () => {
    expect((await control('POST', '/keys', { name: 'x', tier: 45 })).status).toBe(400);
    expect((await control('POST', '/keys', { tier: 30 })).status).toBe(400);
    expect((await control('PATCH', '/keys/key_nope', { tier: 30 })).status).toBe(404);
    expect((await control('POST', '/keys/key_nope/revoke')).status).toBe(404);
  });
});

describe('agents, health, faults, reset', () => {
  it('PATCH /agents/:slug changes the status the API shows and obeys', async () => {
    const res = await control('PATCH', '/agents/echo', { status: 'stopped' });
    expect(res.json).toMatchObject({ slug: 'echo', status: 'stopped' });
    const agents = (await mock.call('GET', '/api/v1/agents?limit=100')).json as {
      agents: { slug: string; status: string }[];
    };
    expect(agents.agents.find((a) => a.slug === 'echo')?.status).toBe('stopped');
    expectNestedError(
      await mock.call('POST', '/api/v1/chat', { body: { message: 'x', agent: 'echo' } }),
      404,
      'AGENT_NOT_FOUND',
    );
    expect((await control('PATCH', '/agents/nope', { status: 'stopped' })).status).toBe(404);
    expect((await control('PATCH', '/agents/echo', { status: 'paused' })).status).toBe(400);
  });

  it('PATCH /agents/:slug tunes streaming', async () => {
    await control('PATCH', '/agents/storyteller', { latencyMs: 0, chunkDelayMs: 0, chunkCount: 12 });
    const stream = parseCompleteStream(
      (await streamChat(mock, { message: 'short', agent: 'storyteller' })).text,
    );
    expect(stream.chunks).toBe(12);
  });

  it('PATCH /health drives the health report', async () => {
    const res = await control('PATCH', '/health', { gateway: 'down' });
    expect(HealthReport.parse(res.json).status).toBe('unhealthy');
    const api = HealthReport.parse((await mock.call('GET', '/api/v1/health')).json);
    expect(api).toMatchObject({ status: 'unhealthy', components: { gateway: 'down' } });
    await control('PATCH', '/health', { gateway: 'operational', vps: 'degraded' });
    expect(HealthReport.parse((await mock.call('GET', '/api/v1/health')).json).status).toBe('degraded');
    expect((await control('PATCH', '/health', { gateway: 'on fire' })).status).toBe(400);
  });

  it('PATCH /faults arms failures and DELETE /faults disarms them', async () => {
    await control('PATCH', '/faults', { failNext: { status: 503, count: 5, pathPrefix: '/api/v1/usage' } });
    expect((await mock.call('GET', '/api/v1/usage')).status).toBe(503);
    expect((await mock.call('GET', '/api/v1/health')).status).toBe(200);
    await control('PATCH', '/faults', { errorShape: 'flat' });
    expectFlatError(await mock.call('GET', '/api/v1/usage'), 503, 'SERVICE_UNAVAILABLE');
    expect((await control('DELETE', '/faults')).status).toBe(200);
    expect((await mock.call('GET', '/api/v1/usage')).status).toBe(200);
    expectNestedError(await mock.call('GET', '/api/v1/usage', { key: null }), 401, 'INVALID_KEY');
    expect((await control('PATCH', '/faults', { errorShape: 'weird' })).status).toBe(400);
  });

  it('PATCH /faults breaks streams', async () => {
    await control('PATCH', '/agents/echo', { chunkDelayMs: 0 });
    await control('PATCH', '/faults', { breakStreams: { afterChunks: 1, mode: 'stream_error', count: 1 } });
    const broken = parseCompleteStream(
      (await streamChat(mock, { message: 'break me please, soon', agent: 'echo' })).text,
    );
    expect(broken).toMatchObject({ chunks: 1, error: { code: 'stream_error' } });
    const whole = parseCompleteStream(
      (await streamChat(mock, { message: 'break me please, soon', agent: 'echo' })).text,
    );
    expect(whole.error).toBeUndefined();
  });

  it('PATCH /faults adds latency to API requests', async () => {
    await control('PATCH', '/faults', { latencyMs: 150 });
    const started = performance.now();
    expect((await mock.call('GET', '/api/v1/health')).status).toBe(200);
    expect(performance.now() - started).toBeGreaterThanOrEqual(140);
  });

  it('POST /reset restores the seed, clears faults and empties the windows', async () => {
    const threads = async () => ThreadList.parse((await mock.call('GET', '/api/v1/threads')).json).threads;
    const seeded = (await threads()).length;
    await mock.call('POST', '/api/v1/threads', { body: { message: 'temp', agent: 'echo' } });
    expect(await threads()).toHaveLength(seeded + 1);
    await control('PATCH', '/faults', { errorShape: 'flat' });
    await control('PATCH', '/agents/echo', { status: 'stopped' });
    for (let i = 0; i < 30; i++) await mock.call('GET', '/api/v1/health', { key: 'tier30' });
    expect((await mock.call('GET', '/api/v1/health', { key: 'tier30' })).status).toBe(429);

    expect((await control('POST', '/reset')).status).toBe(200);
    expect(await threads()).toHaveLength(seeded);
    expect(rateHeaders(await mock.call('GET', '/api/v1/health', { key: 'tier30' })).remaining).toBe(29);
    expectNestedError(await mock.call('GET', '/api/v1/health', { key: null }), 401, 'INVALID_KEY');
    expect((await mock.call('POST', '/api/v1/chat', { body: { message: 'x', agent: 'echo' } })).status).toBe(
      200,
    );
  });

  it('GET /requests records API calls with masked keys', async () => {
    await mock.call('GET', '/api/v1/agents?limit=2');
    const entry = (await requestLog()).find((r) => r.path === '/api/v1/agents');
    expect(entry).toMatchObject({ status: 200 });
    const key = mock.server.keys.pro;
    expect(entry?.key).toBe(`${key.slice(0, 4)}…${key.slice(-4)}`);
  });

  it('GET /requests lists every reply with the status it went out with: errors, a bad URL, a stream, a stream the client left', async () => {
    const notFound = await mock.call('GET', '/api/v1/nope');
    const noKey = await mock.call('GET', '/api/v1/agents', { key: null });
    // A URL the router cannot decode is refused before routing, where no reply hook runs.
    const badUrl = await mock.call('GET', '/api/v1/agents/%zz');
    const streamed = await streamChat(mock, { agent: 'echo', message: 'hello' });
    expect([notFound.status, noKey.status, badUrl.status, streamed.status]).toEqual([404, 401, 400, 200]);
    // A paced story the client leaves after its first frame: the mock logs it when it notices.
    expect((await control('PATCH', '/agents/storyteller', { chunkDelayMs: 200 })).status).toBe(200);
    const leaving = new AbortController();
    const left = await request(`${mock.server.baseUrl}/api/v1/chat`, {
      method: 'POST',
      dispatcher: mock.dispatcher,
      signal: leaving.signal,
      headers: { authorization: `Bearer ${mock.server.keys.pro}`, 'content-type': 'application/json' },
      body: JSON.stringify({ agent: 'storyteller', message: 'a long one', stream: true }),
    });
    for await (const _first of left.body) break;
    leaving.abort();
    const idOf = (res: { headers: Record<string, string> }) => res.headers['x-request-id'] as string;
    const leftId = left.headers['x-request-id'] as string;
    const deadline = Date.now() + 5_000;
    while (!(await requestLog()).some((r) => r.requestId === leftId) && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    const logged = new Map(
      (await requestLog()).map((r) => [r.requestId, { path: r.path, status: r.status }]),
    );
    expect([notFound, noKey, badUrl, streamed].map((res) => logged.get(idOf(res)))).toEqual([
      { path: '/api/v1/nope', status: 404 },
      { path: '/api/v1/agents', status: 401 },
      { path: '/api/v1/agents/%zz', status: 400 },
      { path: '/api/v1/chat', status: 200 },
    ]);
    expect(logged.get(leftId)).toEqual({ path: '/api/v1/chat', status: 200 });
  });

  it('a change it cannot save answers 500 STATE_NOT_SAVED, is kept in memory, and is logged as the 500', async () => {
    // A folder where the state file goes: every write of the state fails, for root too.
    const stateFile = join(mock.dataDir, 'mock-state.json');
    rmSync(stateFile, { force: true });
    mkdirSync(stateFile);
    try {
      const res = await control('PATCH', '/agents/echo', { latencyMs: 1234 });
      expectNestedError(res, 500, 'STATE_NOT_SAVED');
      const state = (await control('GET', '/state')).json as {
        agents: { slug: string; latencyMs: number }[];
      };
      expect(state.agents.find((a) => a.slug === 'echo')?.latencyMs).toBe(1234);
      const entry = (await requestLog()).find((r) => r.requestId === res.headers['x-request-id']);
      expect(entry).toMatchObject({ status: 500 });
    } finally {
      rmSync(stateFile, { recursive: true, force: true });
    }
    // Writable again: the next change saves, the one kept in memory with it.
    expect((await control('PATCH', '/agents/echo', { latencyMs: 0 })).status).toBe(200);
    expect(existsSync(stateFile)).toBe(true);
  });

  it('stays out of /api/v1 and out of the rate window', async () => {
    for (let i = 0; i < 5; i++) await control('GET', '/state');
    expect(rateHeaders(await mock.call('GET', '/api/v1/health', { key: 'tier30' })).remaining).toBe(29);
    expect((await mock.call('GET', '/api/v1/__control/state')).status).toBe(404);
  });
});

describe('the control token', () => {
  /** A control request with `authorization` as given (undefined: none at all). */
  function withAuthorization(
    method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE',
    path: string,
    authorization: string | undefined,
    body?: unknown,
  ) {
    return mock.call(method, `/__control${path}`, {
      key: null,
      ...(authorization !== undefined ? { headers: { authorization } } : {}),
      ...(body !== undefined ? { body } : {}),
    });
  }

  it('without it, or with another, every control route answers 401 in the nested shape and changes nothing', async () => {
    /** What a control route can change (the health report's uptime moves on by itself). */
    const changeable = async () => {
      const state = (await control('GET', '/state')).json as Record<string, unknown> & {
        health: { components: unknown };
      };
      return { ...state, health: state.health.components };
    };
    const before = await changeable();
    const routes: [method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE', path: string, body?: unknown][] = [
      ['GET', '/state'],
      ['GET', '/requests'],
      ['POST', '/keys', { name: 'intruder', plan: 'ultra', tier: 300 }],
      ['PATCH', '/health', { api: 'down' }],
      ['PATCH', '/agents/echo', { status: 'stopped' }],
      ['PATCH', '/faults', { latencyMs: 5_000 }],
      ['POST', '/chaos/outage'],
      ['POST', '/reset'],
      ['DELETE', '/faults'],
      ['PUT', '/agents/echo/fixture', { fixture: {}, mode: 'fast', scale: 1 }],
      // An unknown control path is no way to learn which ones exist.
      ['GET', '/nope'],
    ];
    const wrong = [
      undefined,
      'Bearer wrong',
      `Bearer ${'A'.repeat(43)}`,
      `Bearer ${mock.server.keys.pro}`,
      `Basic ${mock.server.controlToken}`,
      mock.server.controlToken,
    ];
    for (const authorization of wrong) {
      for (const [method, path, body] of routes) {
        const res = await withAuthorization(method, path, authorization, body);
        const error = expectNestedError(res, 401, 'INVALID_CONTROL_TOKEN');
        expect(error.message).toContain('controlToken');
        expect(res.headers['www-authenticate']).toMatch(/^Bearer/);
      }
    }
    expect(await changeable()).toEqual(before);
    expect(HealthReport.parse((await mock.call('GET', '/api/v1/health')).json).status).toBe('healthy');
  });

  it('refuses before it reads a body: a broken body without the token is a 401, not a 400', async () => {
    const res = await mock.call('PATCH', '/__control/health', {
      key: null,
      rawBody: '{not json',
      headers: { 'content-type': 'application/json' },
    });
    expectNestedError(res, 401, 'INVALID_CONTROL_TOKEN');
  });

  it('answers in the nested shape even while the API answers flat', async () => {
    expect((await control('PATCH', '/faults', { errorShape: 'flat' })).status).toBe(200);
    expectFlatError(await mock.call('GET', '/api/v1/health', { key: null }), 401, 'INVALID_KEY');
    expectNestedError(await withAuthorization('GET', '/state', undefined), 401, 'INVALID_CONTROL_TOKEN');
  });

  it('is not an API key, and the request log keeps no part of it', async () => {
    expectNestedError(
      await mock.call('GET', '/api/v1/agents', { key: mock.server.controlToken }),
      401,
      'INVALID_KEY',
    );
    const token = mock.server.controlToken;
    const log = await control('GET', '/requests');
    expect(log.text).not.toContain(token.slice(0, 8));
    expect(log.text).not.toContain(token.slice(-8));
    const controlEntries = (log.json as { requests: LoggedRequest[] }).requests.filter((r) =>
      r.path.startsWith('/__control'),
    );
    expect(controlEntries.length).toBeGreaterThan(0);
    expect(new Set(controlEntries.map((r) => r.key))).toEqual(new Set(['-']));
  });
});
