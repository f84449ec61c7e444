// Throws random requests at every endpoint of the mock (real HTTPS, real undici client) and checks
// that every reply is well-formed: 2xx or 4xx (a 502 only from the agents that are meant to fail),
// never a dropped connection, and a body in the spec's shapes (its endpoints, streams and errors).
// The requests are fuzz-requests.ts's and fuzz-bodies.ts's; the checks of a reply fuzz-checks.ts's.
import fc from 'fast-check';
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { z } from 'zod';
import {
  AgentList,
  ChatReply,
  HealthReport,
  MAX_MESSAGE_BYTES,
  utf8Bytes,
  type ThreadCreated,
  type ThreadMessageReply,
} from '../../shared/api';
import { ManualClock } from '../../shared/clock';
import { removeDir, startTestMock, type TestMock } from '../support/mock';
import { checkError, checkStream, classify, SUCCESS } from './fuzz-checks';
import { fuzzRequests, pct, type FuzzRequest } from './fuzz-requests';

/** FUZZ_RUNS=5000 for a longer hunt; the suite runs 500. */
const RUNS = Number(process.env.FUZZ_RUNS ?? 500);
/** 500 runs × 120 ms = one minute of mock time: the tier-300 key stays under its limit, tier 30 does not. */
const STEP_MS = 120;
const FAILING_AGENTS = new Set(['glitch', 'ledger-bot']);
const TIER: Record<string, number> = { fuzz: 300, tier30: 30, pro: 60, ultra: 60 };

const clock = new ManualClock();
let mock: TestMock;
let fuzzSecret = '';
const agentIds = new Map<string, string>(); // agent_id → slug
const seen = new Map<string, number>();
const count = (label: string): void => {
  seen.set(label, (seen.get(label) ?? 0) + 1);
};

beforeAll(async () => {
  mock = await startTestMock({ clock });
  for (const agent of mock.server.control.state().agents) {
    mock.server.control.setAgent(agent.slug, { latencyMs: 0, chunkDelayMs: 0 });
  }
  for (const agent of mock.server.service.state.agents) agentIds.set(agent.agent_id, agent.slug);
  fuzzSecret = mock.server.control.createKey({ name: 'fuzz', tier: 300 }).secret;
});

afterAll(async () => {
  await mock.stop();
  removeDir(mock.dataDir);
});

const fuzzRequest = fuzzRequests((slug) => [...agentIds].find(([, s]) => s === slug)?.[0]);

function resolvesTo(agent: unknown): string | undefined {
  if (agent === undefined) return 'echo'; // the first deployed agent
  if (typeof agent !== 'string') return undefined;
  return agentIds.get(agent) ?? agent;
}

async function send(r: FuzzRequest): Promise<void> {
  await clock.advance(STEP_MS);
  mock.server.control.setFaults({ errorShape: r.errorShape });

  let path: string;
  let realThread: { id: string; agent: string } | undefined;
  if ('path' in r.target) {
    path = r.target.path;
  } else if (r.target.thread.kind === 'real') {
    const threads = mock.server.service.state.threads;
    const t = threads[r.target.thread.index % threads.length];
    if (!t) throw new Error('the seed has threads');
    realThread = { id: t.id, agent: t.agent };
    path = `/api/v1/threads/${r.target.thread.encodeAll ? pct(t.id, true) : t.id}/messages`;
  } else {
    path = `/api/v1/threads/${r.target.thread.segment}/messages`;
  }
  path += r.query;

  const headers: Record<string, string> = { ...r.headers };
  if (r.contentType !== undefined) headers['content-type'] = r.contentType;
  let key: string | null = null;
  let usable: boolean | undefined = false;
  switch (r.auth.kind) {
    case 'key':
      key = r.auth.name === 'fuzz' ? fuzzSecret : r.auth.name;
      usable = r.auth.name in TIER;
      break;
    case 'secret':
      key = r.auth.secret;
      break;
    case 'header':
      headers.authorization = r.auth.value.replaceAll('<fuzz>', fuzzSecret);
      usable = r.auth.usable;
      break;
    case 'none':
      break;
  }

  const res = await mock.call(r.method, path, { key, headers, rawBody: r.body });
  const kind = classify(r.method, new URL(mock.server.baseUrl + path).pathname);
  const parsedBody = ((): Record<string, unknown> | undefined => {
    try {
      // Fastify's JSON parser (secure-json-parse) skips a leading byte-order mark, as JSON allows.
      const v: unknown = r.body === undefined ? undefined : JSON.parse(r.body.replace(/^\ufeff/, ''));
      return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
    } catch {
      return undefined;
    }
  })();
  const failingAgent =
    (kind === 'chat' || kind === 'createThread') && parsedBody
      ? FAILING_AGENTS.has(resolvesTo(parsedBody.agent) ?? '')
      : kind === 'append' && realThread !== undefined && FAILING_AGENTS.has(realThread.agent);

  count(String(res.status));
  expect(res.headers['x-request-id'], 'every reply carries a request id').toMatch(/^req_/);

  if (res.status >= 400) {
    const code = checkError(res, r.errorShape);
    if (res.status >= 500) {
      // Spec §3: an agent in `error` (and the mock's glitch agent) answers 502 AGENT_ERROR; nothing else may 5xx.
      expect({ status: res.status, code, failingAgent }, res.text).toEqual({
        status: 502,
        code: 'AGENT_ERROR',
        failingAgent: true,
      });
    }
    if (res.status === 429) {
      expect(Number(res.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      expect(res.headers['x-ratelimit-remaining']).toBe('0');
    }
    return;
  }

  // A success: only for a real endpoint, a usable key and a JSON body where one is read.
  expect(res.status).toBeGreaterThanOrEqual(200);
  expect(res.status).toBeLessThan(300);
  expect(kind, 'only real endpoints succeed').not.toBe('unknown');
  expect(usable, 'only a usable key succeeds').not.toBe(false);
  expect(res.headers['x-ratelimit-limit']).toMatch(/^\d+$/);
  expect(res.headers['x-ratelimit-remaining']).toMatch(/^\d+$/);
  expect(res.headers['x-ratelimit-reset']).toMatch(/^\d+$/);
  if (r.auth.kind === 'key') expect(Number(res.headers['x-ratelimit-limit'])).toBe(TIER[r.auth.name]);
  count('2xx');

  if (r.method === 'POST') {
    expect(r.contentType ?? '', 'a POST succeeds only with a JSON body').toMatch(/^application\/json/i);
    const msg = parsedBody?.message;
    expect(typeof msg).toBe('string');
    expect((msg as string).length).toBeGreaterThan(0);
    expect(utf8Bytes(msg as string)).toBeLessThanOrEqual(MAX_MESSAGE_BYTES);
  }

  if (kind === 'chat') {
    const agent = resolvesTo(parsedBody?.agent);
    let reply: string;
    if (parsedBody?.stream === true) {
      expect(res.headers['content-type']).toMatch(/^text\/event-stream/);
      const stream = checkStream(res.text);
      expect(stream.failed).toBe(agent === 'glitch');
      reply = stream.content;
      count('stream');
    } else {
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      const body = ChatReply.parse(res.json);
      expect(body.agent).toBe(agent);
      reply = body.response;
    }
    // The echo agent proves the message went through intact (unicode, surrogates, size).
    if (agent === 'echo')
      expect(reply === `Echo: ${String(parsedBody?.message)}`, 'echo is exact').toBe(true);
    return;
  }

  expect(res.headers['content-type']).toMatch(/^application\/json/);
  const body: unknown = SUCCESS[kind as keyof typeof SUCCESS].parse(res.json);
  if (kind === 'createThread') {
    const created = body as z.infer<typeof ThreadCreated>;
    expect(created.thread.message_count).toBe(2);
    expect(created.thread.agent).toBe(resolvesTo(parsedBody?.agent));
    const title = parsedBody?.title;
    expect(typeof title !== 'string' || title.length <= 200).toBe(true);
  }
  if (kind === 'append') {
    expect(realThread, 'only a real thread takes messages').toBeDefined();
    expect((body as z.infer<typeof ThreadMessageReply>).thread_id).toBe(realThread?.id);
  }
}

test('every endpoint answers random requests with a well-formed reply', { timeout: 90_000 }, async () => {
  await fc.assert(fc.asyncProperty(fuzzRequest, send), { numRuns: RUNS });

  // The fuzzing reached past validation, into the rate limit and every class of refusal.
  const n = (label: string): number => seen.get(label) ?? 0;
  expect(n('2xx')).toBeGreaterThanOrEqual(40);
  expect(n('stream')).toBeGreaterThanOrEqual(2);
  expect(n('400')).toBeGreaterThanOrEqual(20);
  expect(n('401')).toBeGreaterThanOrEqual(3);
  expect(n('403')).toBeGreaterThanOrEqual(1);
  expect(n('404')).toBeGreaterThanOrEqual(10);
  expect(n('429')).toBeGreaterThanOrEqual(1);

  // The server is still up and serving normally.
  await clock.advance(61_000);
  const health = await mock.call('GET', '/api/v1/health', { key: fuzzSecret });
  expect(health.status).toBe(200);
  expect(HealthReport.parse(health.json).status).toBe('healthy');
  const agents = await mock.call('GET', '/api/v1/agents?limit=100', { key: 'pro' });
  expect(agents.status).toBe(200);
  expect(AgentList.parse(agents.json).total).toBe(9);
});
