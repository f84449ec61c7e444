// The Log's filter keeps exactly the requests a user asked for.
import { expect, test } from 'vitest';
import { matchesFilter, NO_FILTER } from '../../../renderer/screens/log/log-filter';
import type { RequestLogEntry } from '../../../shared/request-log-entry';

function entry(patch: Partial<RequestLogEntry>): RequestLogEntry {
  return {
    id: 'e',
    startedAt: 0,
    durationMs: 1,
    profileId: 'p',
    keyId: 'k',
    method: 'GET',
    url: 'https://localhost:1/api/v1/agents?page=2',
    requestHeaders: {},
    status: 200,
    responseHeaders: {},
    responseBytes: 0,
    rate: {},
    streamed: false,
    ...patch,
  };
}

const chat = entry({
  method: 'POST',
  url: 'https://localhost:1/api/v1/chat',
  status: 429,
  errorCode: 'RATE_LIMITED',
});
const agents = entry({ requestId: 'req_abc123' });
const offline = entry({ url: 'https://localhost:1/api/v1/health', status: 0, errorCode: 'NETWORK' });
const all = [chat, agents, offline];
const kept = (filter: Partial<typeof NO_FILTER>) =>
  all.filter((e) => matchesFilter(e, { ...NO_FILTER, ...filter }));

test('no filter keeps everything', () => expect(kept({})).toEqual(all));
test('by method', () => expect(kept({ method: 'POST' })).toEqual([chat]));
test('by path, case-insensitive, query included', () => {
  expect(kept({ path: '/API/V1/CHAT' })).toEqual([chat]);
  expect(kept({ path: 'page=2' })).toEqual([agents]);
});
test('by status class, and "no reply" for a request that got none', () => {
  expect(kept({ status: '4xx' })).toEqual([chat]);
  expect(kept({ status: '2xx' })).toEqual([agents]);
  expect(kept({ status: 'none' })).toEqual([offline]);
});
test('by text: request id, error code or status', () => {
  expect(kept({ text: 'abc123' })).toEqual([agents]);
  expect(kept({ text: 'rate_limited' })).toEqual([chat]);
  expect(kept({ text: '429' })).toEqual([chat]);
});
test('filters combine', () => expect(kept({ method: 'GET', status: '2xx', path: 'health' })).toEqual([]));
test('by text: a body holding it, as the core found it (an order number only in a reply)', () => {
  const bodies = new Set(['chat-id']);
  const inChat = { ...chat, id: 'chat-id' };
  expect(matchesFilter(inChat, { ...NO_FILTER, text: 'ORD-4711' }, bodies)).toBe(true);
  expect(matchesFilter(agents, { ...NO_FILTER, text: 'ORD-4711' }, bodies)).toBe(false);
  // Other filters still apply to an entry whose body matches.
  expect(matchesFilter(inChat, { ...NO_FILTER, text: 'ORD-4711', method: 'GET' }, bodies)).toBe(false);
});
