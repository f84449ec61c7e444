// Spec §5 (authentication), §3 (key revocation) and §5.3 (HTTPS only), on every endpoint of §4.
import { request } from 'undici';
import { beforeEach, describe, expect, it } from 'vitest';
import { API_KEY_PATTERN } from '../../shared/api';
import { withTestMock, type TestMock } from '../support/mock';
import {
  callEndpoint,
  echoThread,
  ENDPOINTS,
  expectNestedError,
  rateHeaders,
  rawRequest,
} from './conformance-support';

let mock: TestMock;
let threadId: string;

withTestMock((started) => (mock = started));
beforeEach(async () => {
  mock.server.control.reset();
  threadId = await echoThread(mock);
});

const ALNUM32 = 'A1b2C3d4E5f6G7h8J9k0L1m2N3p4Q5r6';

/** Authorization headers spec §5.4 says must give 401 INVALID_KEY; `null` sends none. */
const BAD_CREDENTIALS: Array<[string, (m: TestMock) => string | null]> = [
  ['no Authorization header', () => null],
  ['an empty Authorization header', () => ''],
  ['Basic instead of Bearer', (m) => `Basic ${Buffer.from(`user:${m.server.keys.pro}`).toString('base64')}`],
  ['the bare key without a scheme', (m) => m.server.keys.pro],
  ['"Bearer" with no key', () => 'Bearer'],
  ['a valid key followed by junk', (m) => `Bearer ${m.server.keys.pro} extra`],
  ['a key one character short', (m) => `Bearer ${m.server.keys.pro.slice(0, 35)}`],
  ['a key one character long', (m) => `Bearer ${m.server.keys.pro}x`],
  ['a key without the underscore', () => `Bearer amsX${ALNUM32}`],
  ['a key with a non-alphanumeric character', () => `Bearer ams_${ALNUM32.slice(0, 31)}-`],
  ['a well-formed key that was never issued', () => `Bearer ams_${ALNUM32}`],
  ['a well-formed key with another prefix', () => `Bearer xyz_${ALNUM32}`],
  ['a revoked key', (m) => `Bearer ${m.server.keys.revoked}`],
];

describe.each(ENDPOINTS)('$name', (endpoint) => {
  it.each(BAD_CREDENTIALS)('refuses %s with 401 INVALID_KEY', async (_label, header) => {
    const value = header(mock);
    const res = await callEndpoint(mock, endpoint, threadId, {
      key: null,
      ...(value !== null ? { headers: { authorization: value } } : {}),
    });
    expectNestedError(res, 401, 'INVALID_KEY');
  });

  it('refuses a free-plan key with 403 PLAN_REQUIRED', async () => {
    expectNestedError(await callEndpoint(mock, endpoint, threadId, { key: 'free' }), 403, 'PLAN_REQUIRED');
  });

  it('serves Pro and Ultra keys', async () => {
    expect((await callEndpoint(mock, endpoint, threadId, { key: 'pro' })).status).toBe(200);
    expect((await callEndpoint(mock, endpoint, threadId, { key: 'ultra' })).status).toBe(200);
  });
});

describe('keys managed through the control (the dashboard)', () => {
  it('issues 36-character keys: a 4-character prefix ending in "_" and 32 alphanumerics', () => {
    const key = mock.server.control.createKey({ name: 'format' });
    expect(key.secret).toHaveLength(36);
    expect(key.secret).toMatch(API_KEY_PATTERN);
    expect(key.secret.slice(3, 4)).toBe('_');
    expect(Object.values(mock.server.keys).every((s) => API_KEY_PATTERN.test(s))).toBe(true);
  });

  it('a key revoked mid-session gets 401 on its very next call, and forever after', async () => {
    const key = mock.server.control.createKey({ name: 'ci', plan: 'pro' });
    const other = mock.server.control.createKey({ name: 'other', plan: 'pro' });
    expect((await mock.call('GET', '/api/v1/agents', { key: key.secret })).status).toBe(200);
    mock.server.control.revokeKey(key.id);
    expectNestedError(await mock.call('GET', '/api/v1/agents', { key: key.secret }), 401, 'INVALID_KEY');
    expectNestedError(
      await mock.call('POST', '/api/v1/chat', { key: key.secret, body: { message: 'hi' } }),
      401,
      'INVALID_KEY',
    );
    // Re-assigning a plan or tier does not bring it back (spec §2: permanent).
    mock.server.control.updateKey(key.id, { plan: 'ultra', tier: 120 });
    expectNestedError(await mock.call('GET', '/api/v1/health', { key: key.secret }), 401, 'INVALID_KEY');
    // Only that key: one key per integration can be revoked alone (spec §5.7).
    expect((await mock.call('GET', '/api/v1/agents', { key: other.secret })).status).toBe(200);
  });

  it('a plan change takes effect on the next request', async () => {
    const key = mock.server.control.createKey({ name: 'plan', plan: 'free' });
    expectNestedError(await mock.call('GET', '/api/v1/agents', { key: key.secret }), 403, 'PLAN_REQUIRED');
    mock.server.control.updateKey(key.id, { plan: 'pro' });
    expect((await mock.call('GET', '/api/v1/agents', { key: key.secret })).status).toBe(200);
    mock.server.control.updateKey(key.id, { plan: 'ultra' });
    expect(
      (await mock.call('POST', '/api/v1/chat', { key: key.secret, body: { message: 'x' } })).status,
    ).toBe(200);
    mock.server.control.updateKey(key.id, { plan: 'free' });
    expectNestedError(
      await mock.call('POST', '/api/v1/chat', { key: key.secret, body: { message: 'x' } }),
      403,
      'PLAN_REQUIRED',
    );
  });

  it('checks the key before the plan: a revoked free-plan key is 401, not 403', async () => {
    const key = mock.server.control.createKey({ name: 'free-revoked', plan: 'free' });
    mock.server.control.revokeKey(key.id);
    expectNestedError(await mock.call('GET', '/api/v1/health', { key: key.secret }), 401, 'INVALID_KEY');
  });

  // Fastify answers HEAD for every GET with a route of its own: it must meet the same checks.
  it('checks HEAD of every GET endpoint as its GET: key, plan, rate window, request log', async () => {
    const gets = ENDPOINTS.filter((endpoint) => endpoint.method === 'GET');
    expect(gets.length).toBeGreaterThan(3);
    const key = mock.server.control.createKey({ name: 'head', plan: 'pro', tier: 30 });
    const free = mock.server.control.createKey({ name: 'head-free', plan: 'free' });
    const ids: string[] = [];
    for (const [i, endpoint] of gets.entries()) {
      const noKey = await mock.call('HEAD', endpoint.path, { key: null });
      expect([endpoint.name, noKey.status, noKey.text]).toEqual([endpoint.name, 401, '']);
      const freePlan = await mock.call('HEAD', endpoint.path, { key: free.secret });
      expect([endpoint.name, freePlan.status]).toEqual([endpoint.name, 403]);
      const served = await mock.call('HEAD', endpoint.path, { key: key.secret });
      expect([endpoint.name, served.status]).toEqual([endpoint.name, 200]);
      expect(rateHeaders(served)).toMatchObject({ limit: 30, remaining: 29 - i });
      ids.push(...[noKey, freePlan, served].map((res) => res.headers['x-request-id'] as string));
    }
    const logged = new Map(mock.server.control.requests().map((r) => [r.requestId, r]));
    expect(ids.map((id) => [logged.get(id)?.method, logged.get(id)?.status])).toEqual(
      gets.flatMap(() => [
        ['HEAD', 401],
        ['HEAD', 403],
        ['HEAD', 200],
      ]),
    );
  });

  it('checks the key on an unknown API path before saying it is not there', async () => {
    expectNestedError(await mock.call('GET', '/api/v1/nope', { key: null }), 401, 'INVALID_KEY');
    expectNestedError(await mock.call('GET', '/api/v1/nope', { key: 'free' }), 403, 'PLAN_REQUIRED');
    expectNestedError(await mock.call('GET', '/api/v1/nope'), 404, 'NOT_FOUND');
    // There too, the key before the body: one past the size limit is not read for a caller without a key.
    const tooLarge = {
      rawBody: JSON.stringify({ message: 'x'.repeat(1_100_000) }),
      headers: { 'content-type': 'application/json' },
    };
    expectNestedError(
      await mock.call('POST', '/api/v1/nope', { key: null, ...tooLarge }),
      401,
      'INVALID_KEY',
    );
    expectNestedError(await mock.call('POST', '/api/v1/nope', tooLarge), 400, 'BAD_REQUEST');
  });

  it('checks the key before the body: a bad key with a bad body is 401', async () => {
    const res = await mock.call('POST', '/api/v1/chat', { key: null, rawBody: '{not json' });
    expectNestedError(res, 401, 'INVALID_KEY');
  });
});

describe('request targets an HTTP client would not send', () => {
  // The router also matches absolute-form and percent-encoded targets; the key check must too.
  const targets = (port: string): string[] => [
    `https://127.0.0.1:${port}/api/v1/agents`,
    `http://example.test/api/v1/agents`,
    '/%61pi/v1/agents',
    '/api/v1/%61gents',
  ];

  it('answers these targets (so the 401 below is the key check, not a 404)', async () => {
    for (const target of targets(new URL(mock.server.baseUrl).port)) {
      const out = await rawRequest(
        mock,
        `GET ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${mock.server.keys.pro}\r\nConnection: close\r\n\r\n`,
      );
      expect(out.split('\r\n')[0], target).toBe('HTTP/1.1 200 OK');
    }
  });

  it('refuses them without a key', async () => {
    for (const target of targets(new URL(mock.server.baseUrl).port)) {
      const out = await rawRequest(
        mock,
        `GET ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`,
      );
      expect(out.split('\r\n')[0], target).toBe('HTTP/1.1 401 Unauthorized');
      expect(out).toContain('INVALID_KEY');
      expect(out).not.toContain('"agents"');
    }
  });
});

describe('HTTPS only (spec §5.3)', () => {
  it('gives plain HTTP on the service port no response', async () => {
    const out = await rawRequest(
      mock,
      `GET /api/v1/health HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${mock.server.keys.pro}\r\nConnection: close\r\n\r\n`,
      false,
    );
    expect(out).not.toMatch(/^HTTP\/1\.[01] 2\d\d/);
    expect(out).not.toContain('healthy');
  });

  it('fails an http:// request from an ordinary client', async () => {
    const url = mock.server.baseUrl.replace('https://', 'http://');
    const outcome = await request(`${url}/api/v1/health`, {
      headers: { authorization: `Bearer ${mock.server.keys.pro}` },
    }).then(
      (res) => res.statusCode,
      (error: Error) => error,
    );
    if (typeof outcome === 'number') expect(outcome).not.toBe(200);
    else expect(outcome).toBeInstanceOf(Error);
  });
});

describe('the Authorization scheme', () => {
  it('is case-insensitive (RFC 7235): `bearer` works like `Bearer`', async () => {
    const res = await mock.call('GET', '/api/v1/health', {
      key: null,
      headers: { authorization: `bearer ${mock.server.keys.pro}` },
    });
    expect(res.status).toBe(200);
  });
});
