// Spec §7: both error-body shapes (docs/decisions.md: nested by default, flat on request), X-Request-Id,
// and the faults a client must survive.
import { beforeEach, describe, expect, it } from 'vitest';
import { ChatReply, NestedErrorBody } from '../../shared/api';
import { withTestMock, type TestMock } from '../support/mock';
import { expectFlatError, expectNestedError, rateHeaders, streamChat } from './conformance-support';

let mock: TestMock;

withTestMock((started) => (mock = started));
beforeEach(() => mock.server.control.reset());

/** A key whose 30-request window is full. */
async function exhaustedKey(): Promise<string> {
  const { secret } = mock.server.control.createKey({ name: 'exhausted', tier: 30 });
  for (let i = 0; i < 30; i++)
    expect((await mock.call('GET', '/api/v1/health', { key: secret })).status).toBe(200);
  return secret;
}

/** One request for each kind of refusal, with the status and code it must give. */
function refusals(limited: string): Array<[string, () => ReturnType<TestMock['call']>, number, string]> {
  return [
    ['400', () => mock.call('POST', '/api/v1/chat', { body: { agent: 'echo' } }), 400, 'BAD_REQUEST'],
    ['401', () => mock.call('GET', '/api/v1/agents', { key: null }), 401, 'INVALID_KEY'],
    ['403', () => mock.call('GET', '/api/v1/agents', { key: 'free' }), 403, 'PLAN_REQUIRED'],
    [
      '404 agent',
      () => mock.call('POST', '/api/v1/chat', { body: { message: 'x', agent: 'archivist' } }),
      404,
      'AGENT_NOT_FOUND',
    ],
    [
      '502',
      () => mock.call('POST', '/api/v1/chat', { body: { message: 'x', agent: 'ledger-bot' } }),
      502,
      'AGENT_ERROR',
    ],
    ['429', () => mock.call('GET', '/api/v1/agents', { key: limited }), 429, 'RATE_LIMITED'],
  ];
}

describe('nested shape (the default)', () => {
  it('is {error: {code, message, type, request_id}} for every refusal; 429 is rate_limited / rate_limit_error', async () => {
    const limited = await exhaustedKey();
    for (const [label, send, status, code] of refusals(limited)) {
      const res = await send();
      const error = expectNestedError(res, status, status === 429 ? 'rate_limited' : code);
      expect(Object.keys(NestedErrorBody.parse(res.json))).toEqual(['error']);
      if (status === 429) {
        expect(error.type, label).toBe('rate_limit_error');
        expect(error.message).toContain(`${res.headers['retry-after']} second`);
      } else {
        expect(error.type, label).not.toBe('rate_limit_error');
      }
    }
  });

  it('is used for a missing thread too', async () => {
    const res = await mock.call('POST', '/api/v1/threads/thr_doesnotexist/messages', {
      body: { message: 'x' },
    });
    // Spec §7 names no code for it; the shape and the request id are what is fixed.
    expectNestedError(res, 404, NestedErrorBody.parse(res.json).error.code);
  });
});

describe('flat shape', () => {
  it('errorShape "flat" gives {error, code, status} for every refusal, retry_after on 429 only', async () => {
    const limited = await exhaustedKey();
    mock.server.control.setFaults({ errorShape: 'flat' });
    for (const [label, send, status, code] of refusals(limited)) {
      const res = await send();
      const body = expectFlatError(res, status, code);
      if (status === 429) {
        expect(body.retry_after, label).toBe(Number(res.headers['retry-after']));
        expect(body.retry_after).toBeGreaterThanOrEqual(1);
        expect(rateHeaders(res)).toMatchObject({ limit: 30, remaining: 0 });
      } else {
        expect(body.retry_after, label).toBeUndefined();
      }
      expect(res.headers['x-request-id']).toBeTruthy();
    }
  });

  it('errorShape "flat-429" flattens only the 429', async () => {
    const limited = await exhaustedKey();
    mock.server.control.setFaults({ errorShape: 'flat-429' });
    for (const [, send, status, code] of refusals(limited)) {
      const res = await send();
      if (status === 429) expectFlatError(res, 429, 'RATE_LIMITED');
      else expectNestedError(res, status, code);
    }
  });

  it('clearFaults goes back to the nested shape', async () => {
    mock.server.control.setFaults({ errorShape: 'flat' });
    expectFlatError(await mock.call('GET', '/api/v1/agents', { key: null }), 401, 'INVALID_KEY');
    mock.server.control.clearFaults();
    expectNestedError(await mock.call('GET', '/api/v1/agents', { key: null }), 401, 'INVALID_KEY');
  });
});

describe('X-Request-Id', () => {
  it('is on every response, different each time, and equal to the request_id in the body', async () => {
    const ids = new Set<string>();
    const ok = await mock.call('POST', '/api/v1/chat', { body: { message: 'id', agent: 'echo' } });
    expect(ChatReply.parse(ok.json).request_id).toBe(ok.headers['x-request-id']);
    ids.add(ok.headers['x-request-id'] as string);
    for (const path of ['/api/v1/agents', '/api/v1/health', '/api/v1/threads']) {
      ids.add((await mock.call('GET', path)).headers['x-request-id'] as string);
    }
    const denied = await mock.call('GET', '/api/v1/agents', { key: null });
    expectNestedError(denied, 401, 'INVALID_KEY');
    ids.add(denied.headers['x-request-id'] as string);
    const sse = await streamChat(mock, { message: 'id', agent: 'echo' });
    ids.add(sse.headers['x-request-id'] as string);
    expect([...ids].every((id) => typeof id === 'string' && id.length > 0)).toBe(true);
    expect(ids.size).toBe(6);
  });
});

describe('injected faults', () => {
  it('failNext answers the armed number of requests on a path prefix with that status', async () => {
    mock.server.control.setFaults({ failNext: { status: 500, count: 2, pathPrefix: '/api/v1/agents' } });
    expect((await mock.call('GET', '/api/v1/health')).status).toBe(200);
    expectNestedError(await mock.call('GET', '/api/v1/agents'), 500, 'INTERNAL_ERROR');
    expectNestedError(await mock.call('GET', '/api/v1/agents'), 500, 'INTERNAL_ERROR');
    expect((await mock.call('GET', '/api/v1/agents')).status).toBe(200);
  });

  it('an injected 429 looks like a real one: Retry-After and the X-RateLimit headers', async () => {
    mock.server.control.setFaults({ failNext: { status: 429, count: 1 } });
    const res = await mock.call('GET', '/api/v1/agents', { key: 'tier30' });
    const error = expectNestedError(res, 429, 'rate_limited');
    expect(error.type).toBe('rate_limit_error');
    expect(Number(res.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    // Spec §7: the message names the seconds to wait, the same as Retry-After.
    expect(error.message).toMatch(new RegExp(`\\b${res.headers['retry-after']} seconds?\\b`));
    expect(rateHeaders(res)).toMatchObject({ limit: 30, remaining: 0 });
    expect((await mock.call('GET', '/api/v1/agents', { key: 'tier30' })).status).toBe(200);
  });
});
