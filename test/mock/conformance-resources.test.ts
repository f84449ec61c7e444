// The read endpoints and threads of spec §4 with the resource fields of §2 and the limits of §8:
// agents and conversations pagination, usage days, threads, health.
import { beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  AgentList,
  ConversationList,
  HealthReport,
  ThreadCreated,
  ThreadList,
  ThreadMessageReply,
  UsageReport,
  type Agent,
  type Conversation,
  type Thread,
} from '../../shared/api';
import { ManualClock } from '../../shared/clock';
import { withTestMock, type TestMock } from '../support/mock';
import { expectNestedError } from './conformance-support';

const clock = new ManualClock();
let mock: TestMock;

withTestMock((started) => (mock = started), { clock });
beforeEach(() => {
  mock.server.control.reset();
  // The manual clock would hold these agents' thinking time; their replies are unchanged.
  mock.server.control.setAgent('helpdesk', { latencyMs: 0 });
});

async function ok<T>(schema: z.ZodType<T>, path: string, body?: unknown): Promise<T> {
  const res = await mock.call(body === undefined ? 'GET' : 'POST', path, body === undefined ? {} : { body });
  expect(res.status, `${path}: ${res.text.slice(0, 300)}`).toBe(200);
  return schema.parse(res.json);
}

const BAD_LIMITS = ['0', '101', 'abc', '1.5', '-1', '', '1e2', ' 5'];
const BAD_OFFSETS = ['-1', 'abc', '1.5', ''];

function expectBoundsError(res: Awaited<ReturnType<TestMock['call']>>, param: string, bounds: RegExp): void {
  const error = expectNestedError(res, 400, 'BAD_REQUEST');
  expect(error.message).toContain(param);
  expect(error.message).toMatch(bounds);
}

describe('GET /agents', () => {
  let all: Agent[];
  beforeEach(async () => {
    all = (await ok(AgentList, '/api/v1/agents?limit=100')).agents;
  });

  it('lists agents with every field of spec §2 and UUID ids', async () => {
    expect(all.length).toBeGreaterThan(0);
    for (const agent of all) {
      expect(z.uuid().safeParse(agent.agent_id).success, agent.agent_id).toBe(true);
      expect(agent.slug).toMatch(/^[a-z0-9-]+$/);
    }
    expect(new Set(all.map((a) => a.status))).toEqual(new Set(['deployed', 'stopped', 'error']));
    expect(all.some((a) => a.model.fallback === null)).toBe(true);
    expect(new Set(all.map((a) => a.agent_id)).size).toBe(all.length);
  });

  it('defaults to limit 20 and offset 0', async () => {
    const page = await ok(AgentList, '/api/v1/agents');
    expect(page.agents).toEqual(all.slice(0, 20));
    expect(page.total).toBe(all.length);
    expect(page.has_more).toBe(all.length > 20);
  });

  it('pages with total and has_more right at every boundary', async () => {
    const n = all.length;
    expect(n).toBeGreaterThanOrEqual(3);
    const cases: Array<[number, number]> = [
      [1, 0],
      [n - 1, 0],
      [n, 0],
      [n + 1, 0],
      [100, 0],
      [1, n - 1],
      [2, n - 2],
      [2, n - 1],
      [3, 1],
      [1, n],
      [20, n + 5],
    ];
    for (const [limit, offset] of cases) {
      const page = await ok(AgentList, `/api/v1/agents?limit=${limit}&offset=${offset}`);
      const label = `limit=${limit} offset=${offset}`;
      expect(page.agents, label).toEqual(all.slice(offset, offset + limit));
      expect(page.total, label).toBe(n);
      expect(page.has_more, label).toBe(offset + limit < n);
    }
  });

  it.each(BAD_LIMITS)('refuses limit=%j with 400 naming limit and 1-100', async (value) => {
    expectBoundsError(
      await mock.call('GET', `/api/v1/agents?limit=${encodeURIComponent(value)}`),
      'limit',
      /1\D+100/,
    );
  });

  it.each(BAD_OFFSETS)('refuses offset=%j with 400 naming offset and its minimum 0', async (value) => {
    expectBoundsError(
      await mock.call('GET', `/api/v1/agents?offset=${encodeURIComponent(value)}`),
      'offset',
      /\b0\b/,
    );
  });
});

describe('offsets past the safe integer range', () => {
  it.each(['/api/v1/agents', '/api/v1/conversations'])('%s refuses them naming the bound', async (path) => {
    for (const value of ['9007199254740992', '99999999999999999999']) {
      const error = expectNestedError(await mock.call('GET', `${path}?offset=${value}`), 400, 'BAD_REQUEST');
      expect(error.message).toContain('offset');
      expect(error.message).toContain(String(Number.MAX_SAFE_INTEGER));
    }
    expect((await mock.call('GET', `${path}?offset=${Number.MAX_SAFE_INTEGER}`)).status).toBe(200);
  });
});

describe('GET /conversations', () => {
  let all: ConversationList;
  beforeEach(async () => {
    all = await ok(ConversationList, '/api/v1/conversations?limit=100');
    expect(all.total).toBeGreaterThan(20);
    expect(all.total).toBeLessThanOrEqual(100);
    expect(all.conversations).toHaveLength(all.total);
  });

  it('defaults to limit 20 and offset 0, and echoes them', async () => {
    const page = await ok(ConversationList, '/api/v1/conversations');
    expect(page).toMatchObject({ limit: 20, offset: 0, total: all.total });
    expect(page.conversations).toEqual(all.conversations.slice(0, 20));
  });

  it('walks every conversation once in pages of 7', async () => {
    const seen: Conversation[] = [];
    for (let offset = 0; offset < all.total + 7; offset += 7) {
      const page = await ok(ConversationList, `/api/v1/conversations?limit=7&offset=${offset}`);
      expect(page).toMatchObject({ limit: 7, offset, total: all.total });
      expect(page.conversations.length).toBe(Math.max(0, Math.min(7, all.total - offset)));
      seen.push(...page.conversations);
    }
    expect(seen).toEqual(all.conversations);
    expect(new Set(seen.map((c) => c.id)).size).toBe(all.total);
  });

  it('accepts limit 1 and 100', async () => {
    expect((await ok(ConversationList, '/api/v1/conversations?limit=1')).conversations).toHaveLength(1);
    expect((await ok(ConversationList, '/api/v1/conversations?limit=100')).limit).toBe(100);
  });

  it('filters by agent slug, with total counting the matches', async () => {
    const slugs = [...new Set(all.conversations.map((c) => c.agent))];
    expect(slugs.length).toBeGreaterThan(1);
    for (const slug of slugs) {
      const expected = all.conversations.filter((c) => c.agent === slug);
      const page = await ok(ConversationList, `/api/v1/conversations?agent=${slug}&limit=100`);
      expect(page.total).toBe(expected.length);
      expect(page.conversations).toEqual(expected);
      const second = await ok(ConversationList, `/api/v1/conversations?agent=${slug}&limit=2&offset=1`);
      expect(second.conversations).toEqual(expected.slice(1, 3));
      expect(second.total).toBe(expected.length);
    }
    const none = await ok(ConversationList, '/api/v1/conversations?agent=no-such-agent');
    expect(none).toMatchObject({ conversations: [], total: 0 });
  });

  it('shows `completed` on old conversations and counts new chats', async () => {
    expect(all.conversations.some((c) => c.status === 'completed')).toBe(true);
    await ok(z.unknown(), '/api/v1/chat', { message: 'new one', agent: 'echo', session_id: 'resourcesNew' });
    const after = await ok(ConversationList, '/api/v1/conversations?agent=echo&limit=100');
    const item = after.conversations.find((c) => c.session_id === 'resourcesNew');
    expect(item).toMatchObject({
      agent: 'echo',
      message_count: 2,
      started_at: new Date(clock.now()).toISOString(),
    });
  });

  it.each(BAD_LIMITS)('refuses limit=%j with 400 naming limit and 1-100', async (value) => {
    expectBoundsError(
      await mock.call('GET', `/api/v1/conversations?limit=${encodeURIComponent(value)}`),
      'limit',
      /1\D+100/,
    );
  });

  it.each(BAD_OFFSETS)('refuses offset=%j with 400 naming offset', async (value) => {
    expectBoundsError(
      await mock.call('GET', `/api/v1/conversations?offset=${encodeURIComponent(value)}`),
      'offset',
      /\b0\b/,
    );
  });
});

describe('GET /usage', () => {
  const today = (): string => new Date(clock.now()).toISOString().slice(0, 10);

  function checkReport(report: UsageReport, days: number): void {
    const u = report.usage;
    expect(u.daily).toHaveLength(days);
    // Consecutive calendar days ending today.
    u.daily.forEach((d, i) => {
      const expected = new Date(Date.parse(`${today()}T00:00:00Z`) - (days - 1 - i) * 86_400_000);
      expect(d.date).toBe(expected.toISOString().slice(0, 10));
    });
    expect(u.total_requests).toBe(u.daily.reduce((n, d) => n + d.requests, 0));
    expect(u.total_tokens).toBe(u.daily.reduce((n, d) => n + d.tokens, 0));
    expect(u.by_agent.reduce((n, a) => n + a.requests, 0)).toBe(u.total_requests);
    expect(u.by_agent.reduce((n, a) => n + a.tokens, 0)).toBe(u.total_tokens);
    expect(u.period_start.slice(0, 10)).toBe(u.daily[0]?.date);
    expect(Date.parse(u.period_end)).toBe(clock.now());
  }

  it('defaults to 30 days', async () => {
    checkReport(await ok(UsageReport, '/api/v1/usage'), 30);
  });

  it.each([1, 2, 7, 89, 90])('gives exactly %i daily entries for days=%i', async (days) => {
    checkReport(await ok(UsageReport, `/api/v1/usage?days=${days}`), days);
  });

  it('counts a chat in today’s entry and its agent', async () => {
    const before = (await ok(UsageReport, '/api/v1/usage?days=1')).usage;
    await ok(z.unknown(), '/api/v1/chat', { message: 'count me', agent: 'helpdesk' });
    const after = (await ok(UsageReport, '/api/v1/usage?days=1')).usage;
    expect(after.daily[0]?.requests).toBeGreaterThan(before.daily[0]?.requests ?? 0);
    expect(after.daily[0]?.tokens).toBeGreaterThan(before.daily[0]?.tokens ?? 0);
    const helpdesk = (u: UsageReport['usage']) =>
      u.by_agent.find((a) => a.agent === 'helpdesk')?.requests ?? 0;
    expect(helpdesk(after)).toBeGreaterThan(helpdesk(before));
  });

  it.each(['0', '91', 'abc', '1.5', '-1', ''])(
    'refuses days=%j with 400 naming days and 1-90',
    async (value) => {
      expectBoundsError(
        await mock.call('GET', `/api/v1/usage?days=${encodeURIComponent(value)}`),
        'days',
        /1\D+90/,
      );
    },
  );
});

describe('threads', () => {
  const list = async (): Promise<Thread[]> => (await ok(ThreadList, '/api/v1/threads')).threads;

  it('creates a thread: {thread: {id, title, agent, message_count, created_at}, response}, no updated_at', async () => {
    const created = await ok(ThreadCreated, '/api/v1/threads', {
      title: 'Invoices',
      agent: 'echo',
      message: 'Where is my invoice?',
    });
    expect(Object.keys(created.thread).sort()).toEqual([
      'agent',
      'created_at',
      'id',
      'message_count',
      'title',
    ]);
    expect(created.thread).toMatchObject({
      title: 'Invoices',
      agent: 'echo',
      message_count: 2,
      created_at: new Date(clock.now()).toISOString(),
    });
    expect(created.response).toContain('Where is my invoice?');
  });

  it('lists a new thread with updated_at', async () => {
    const before = await list();
    const { thread } = await ok(ThreadCreated, '/api/v1/threads', {
      title: 'Listed',
      agent: 'echo',
      message: 'hi',
    });
    const after = await list();
    expect(after).toHaveLength(before.length + 1);
    expect(after.find((t) => t.id === thread.id)).toEqual({ ...thread, updated_at: thread.created_at });
  });

  it('derives a title when none is given, and uses the first deployed agent when none is named', async () => {
    const firstDeployed = (await ok(AgentList, '/api/v1/agents?limit=100')).agents.find(
      (a) => a.status === 'deployed',
    );
    const { thread } = await ok(ThreadCreated, '/api/v1/threads', {
      message: 'Refund for order 9912\nDetails…',
    });
    expect(thread.title.length).toBeGreaterThan(0);
    expect('Refund for order 9912').toContain(thread.title.replace(/…$/, ''));
    expect(thread.agent).toBe(firstDeployed?.slug);
  });

  it('appends: {message_id, response, thread_id}; message_count grows by 2 and updated_at moves', async () => {
    const { thread } = await ok(ThreadCreated, '/api/v1/threads', { agent: 'echo', message: 'one' });
    await clock.advance(5_000);
    const first = await ok(ThreadMessageReply, `/api/v1/threads/${thread.id}/messages`, { message: 'two' });
    expect(first.thread_id).toBe(thread.id);
    expect(first.response).toContain('two');
    await clock.advance(5_000);
    const second = await ok(ThreadMessageReply, `/api/v1/threads/${thread.id}/messages`, {
      message: 'three',
    });
    expect(second.message_id).not.toBe(first.message_id);
    const listed = (await list()).find((t) => t.id === thread.id);
    expect(listed).toMatchObject({
      message_count: 6,
      created_at: thread.created_at,
      updated_at: new Date(clock.now()).toISOString(),
    });
  });

  it('lets the agent see the whole thread', async () => {
    const { thread } = await ok(ThreadCreated, '/api/v1/threads', {
      agent: 'helpdesk',
      message: 'My name is Ada.',
    });
    const reply = await ok(ThreadMessageReply, `/api/v1/threads/${thread.id}/messages`, {
      message: 'Who am I?',
    });
    expect(reply.response).toContain('My name is Ada.');
  });

  it('keeps seeded threads appendable', async () => {
    const seeded = (await list())[0] as Thread;
    const reply = await ok(ThreadMessageReply, `/api/v1/threads/${seeded.id}/messages`, { message: 'more' });
    expect(reply.thread_id).toBe(seeded.id);
    expect((await list()).find((t) => t.id === seeded.id)?.message_count).toBe(seeded.message_count + 2);
  });

  it('answers 404 for an unknown thread', async () => {
    const res = await mock.call('POST', '/api/v1/threads/thr_nope/messages', { body: { message: 'hello?' } });
    expect(res.status).toBe(404);
    expectNestedError(res, 404, (res.json as { error: { code: string } }).error.code);
  });

  it('refuses a thread without a message, or with a message that is not a string', async () => {
    expectNestedError(
      await mock.call('POST', '/api/v1/threads', { body: { title: 'x' } }),
      400,
      'BAD_REQUEST',
    );
    const { thread } = await ok(ThreadCreated, '/api/v1/threads', { agent: 'echo', message: 'one' });
    expectNestedError(
      await mock.call('POST', `/api/v1/threads/${thread.id}/messages`, { body: { message: 5 } }),
      400,
      'BAD_REQUEST',
    );
  });

  it('applies the agent states to threads: stopped or unknown 404, error 502', async () => {
    const post = (agent: string) => mock.call('POST', '/api/v1/threads', { body: { agent, message: 'x' } });
    expectNestedError(await post('archivist'), 404, 'AGENT_NOT_FOUND');
    expectNestedError(await post('no-such-agent'), 404, 'AGENT_NOT_FOUND');
    expectNestedError(await post('ledger-bot'), 502, 'AGENT_ERROR');
  });
});

describe('GET /health', () => {
  it('is healthy with all components operational, with uptime and version', async () => {
    const health = await ok(HealthReport, '/api/v1/health');
    expect(health.status).toBe('healthy');
    expect(Object.values(health.components)).toEqual([
      'operational',
      'operational',
      'operational',
      'operational',
    ]);
    expect(health.version.length).toBeGreaterThan(0);
    expect(health.timestamp).toBe(new Date(clock.now()).toISOString());
  });

  it('counts uptime in seconds', async () => {
    const before = (await ok(HealthReport, '/api/v1/health')).uptime_seconds;
    await clock.advance(5_000);
    expect((await ok(HealthReport, '/api/v1/health')).uptime_seconds).toBe(before + 5);
  });

  it.each([
    [{ vps: 'degraded' }, 'degraded'],
    [{ agents: 'degraded' }, 'degraded'],
    [{ api: 'degraded' }, 'degraded'],
    [{ gateway: 'degraded' }, 'degraded'],
    [{ vps: 'down' }, 'degraded'],
    [{ agents: 'down' }, 'degraded'],
    [{ api: 'down' }, 'unhealthy'],
    [{ gateway: 'down' }, 'unhealthy'],
    [{ vps: 'degraded', gateway: 'down' }, 'unhealthy'],
  ] as const)('derives the status from components %j → %s', async (patch, status) => {
    mock.server.control.setHealth(patch);
    const health = await ok(HealthReport, '/api/v1/health');
    expect(health.status).toBe(status);
    expect(health.components).toMatchObject(patch);
    mock.server.control.setHealth({
      api: 'operational',
      vps: 'operational',
      agents: 'operational',
      gateway: 'operational',
    });
    expect((await ok(HealthReport, '/api/v1/health')).status).toBe('healthy');
  });
});
