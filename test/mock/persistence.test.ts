// The mock keeps its state in its data dir (mock/state.ts): a restart on the same dir keeps
// conversations, threads, usage, keys and the TLS CA, and a corrupt state file is set aside (never
// silently wiped) with a warning while the mock starts afresh.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Agent, request } from 'undici';
import { afterEach, expect, test } from 'vitest';
import {
  ChatReply,
  ConversationList,
  ThreadCreated,
  ThreadList,
  ThreadMessageReply,
  UsageReport,
} from '../../shared/api';
import { startMockServer } from '../../mock/server';
import { removeDir, startTestMock, tempDir, type TestMock } from '../support/mock';

const STATE_FILE = 'mock-state.json';
const running: TestMock[] = [];
const dirs: string[] = [];

afterEach(async () => {
  for (const mock of running.splice(0)) await mock.stop().catch(() => undefined);
  for (const dir of dirs.splice(0)) removeDir(dir);
});

async function start(dataDir?: string): Promise<TestMock> {
  const mock = await startTestMock(dataDir ? { dataDir } : {});
  running.push(mock);
  if (!dirs.includes(mock.dataDir)) dirs.push(mock.dataDir);
  return mock;
}

async function stop(mock: TestMock): Promise<void> {
  running.splice(running.indexOf(mock), 1);
  await mock.stop();
}

async function usage(mock: TestMock) {
  const res = await mock.call('GET', '/api/v1/usage?days=90');
  expect(res.status).toBe(200);
  return UsageReport.parse(res.json).usage;
}

const helpdeskRequests = (u: Awaited<ReturnType<typeof usage>>): number =>
  u.by_agent.find((a) => a.agent === 'helpdesk')?.requests ?? 0;

test('a restart on the same data dir keeps conversations, threads, usage, keys and the CA', async () => {
  const first = await start();
  const dir = first.dataDir;
  first.server.control.setAgent('helpdesk', { latencyMs: 0, chunkDelayMs: 0 });
  const before = await usage(first);

  // Four agent exchanges: two chats in one session (one streamed), a new thread, a reply in it.
  const chat1 = await first.call('POST', '/api/v1/chat', {
    body: { message: 'first question', agent: 'helpdesk', session_id: 'persist42' },
  });
  expect(chat1.status).toBe(200);
  const chat2 = await first.call('POST', '/api/v1/chat', {
    body: { message: 'second question', agent: 'helpdesk', session_id: 'persist42', stream: true },
  });
  expect(chat2.status).toBe(200);
  expect(chat2.text).toMatch(/data: \[DONE\]\n\n$/);
  const created = await first.call('POST', '/api/v1/threads', {
    body: { title: 'Persisted thread', agent: 'helpdesk', message: 'thread opener' },
  });
  expect(created.status).toBe(200);
  const thread = ThreadCreated.parse(created.json).thread;
  expect(thread.message_count).toBe(2);
  const appended = await first.call('POST', `/api/v1/threads/${thread.id}/messages`, {
    body: { message: 'thread follow-up' },
  });
  expect(appended.status).toBe(200);
  // Refused requests and reads are not agent requests: usage does not count them.
  expect((await first.call('POST', '/api/v1/chat', { body: { message: '' } })).status).toBe(400);
  expect((await first.call('POST', '/api/v1/chat', { body: { message: 'x', agent: 'nope' } })).status).toBe(
    404,
  );

  const after = await usage(first);
  expect(after.total_requests).toBe(before.total_requests + 4);
  expect(helpdeskRequests(after)).toBe(helpdeskRequests(before) + 4);
  expect(after.total_tokens).toBeGreaterThan(before.total_tokens);

  const convs = await first.call('GET', '/api/v1/conversations?agent=helpdesk&limit=100');
  const conversation = ConversationList.parse(convs.json).conversations.find(
    (c) => c.session_id === 'persist42',
  );
  expect(conversation).toMatchObject({ agent: 'helpdesk', message_count: 4 });
  const threadsBefore = ThreadList.parse((await first.call('GET', '/api/v1/threads')).json).threads;
  const threadBefore = threadsBefore.find((t) => t.id === thread.id);
  expect(threadBefore).toMatchObject({ title: 'Persisted thread', agent: 'helpdesk', message_count: 4 });

  // Keys, as the dashboard manages them: a new key, a revoked key, a key whose tier changed.
  const control = first.server.control;
  const kept = control.createKey({ name: 'kept', tier: 120 });
  const gone = control.createKey({ name: 'gone' });
  const grown = control.createKey({ name: 'grown', tier: 30 });
  control.revokeKey(gone.id);
  control.updateKey(grown.id, { tier: 300 });
  const keptRes = await first.call('GET', '/api/v1/health', { key: kept.secret });
  expect(keptRes.status).toBe(200);
  expect(keptRes.headers['x-ratelimit-limit']).toBe('120');
  expect((await first.call('GET', '/api/v1/health', { key: gone.secret })).status).toBe(401);
  expect(
    (await first.call('GET', '/api/v1/health', { key: grown.secret })).headers['x-ratelimit-limit'],
  ).toBe('300');

  const demoKeys = { ...first.server.keys };
  const ca = first.server.ca;
  const caFile = readFileSync(first.server.caCertPath, 'utf8');
  const agentIds = first.server.service.state.agents.map((a) => a.agent_id);
  const usageAfter = after;
  await stop(first);

  // ---- restart on the same data dir ----
  const second = await start(dir);
  expect(second.dataDir).toBe(dir);

  // Not reseeded: the same agents and demo secrets, and the same CA on disk and in use.
  expect(second.server.service.state.agents.map((a) => a.agent_id)).toEqual(agentIds);
  expect(second.server.keys).toEqual(demoKeys);
  expect(readFileSync(second.server.caCertPath, 'utf8')).toBe(caFile);
  expect(second.server.ca).toBe(ca);
  const trustsOldCa = new Agent({ connect: { ca } });
  try {
    const res = await request(`${second.server.baseUrl}/api/v1/health`, {
      headers: { authorization: `Bearer ${demoKeys.pro}` },
      dispatcher: trustsOldCa,
    });
    expect(res.statusCode).toBe(200);
    await res.body.text();
  } finally {
    await trustsOldCa.close();
  }

  // Usage: the same totals as before the restart (reads since then do not add to it).
  const restored = await usage(second);
  expect(restored.total_requests).toBe(usageAfter.total_requests);
  expect(restored.total_tokens).toBe(usageAfter.total_tokens);
  expect(restored.by_agent).toEqual(usageAfter.by_agent);
  expect(restored.daily).toEqual(usageAfter.daily);

  // Conversations: the session is listed as before, and its history carries on.
  const convs2 = ConversationList.parse(
    (await second.call('GET', '/api/v1/conversations?agent=helpdesk&limit=100')).json,
  );
  const restoredConversation = convs2.conversations.find((c) => c.session_id === 'persist42');
  expect(restoredConversation).toEqual(conversation);
  const chat3 = await second.call('POST', '/api/v1/chat', {
    body: { message: 'third question', agent: 'helpdesk', session_id: 'persist42' },
  });
  expect(chat3.status).toBe(200);
  const reply3 = ChatReply.parse(chat3.json).response;
  expect(reply3).toContain('#3 in this conversation');
  expect(reply3).toContain('Earlier you asked: "second question"');

  // Threads: listed as before, and a new message continues the thread's history.
  const threadsAfter = ThreadList.parse((await second.call('GET', '/api/v1/threads')).json).threads;
  expect(threadsAfter).toEqual(threadsBefore);
  const appended2 = await second.call('POST', `/api/v1/threads/${thread.id}/messages`, {
    body: { message: 'after the restart' },
  });
  expect(appended2.status).toBe(200);
  const reply4 = ThreadMessageReply.parse(appended2.json);
  expect(reply4.thread_id).toBe(thread.id);
  expect(reply4.response).toContain('#3 in this conversation');
  expect(reply4.response).toContain('Earlier you asked: "thread follow-up"');
  const threadsLater = ThreadList.parse((await second.call('GET', '/api/v1/threads')).json).threads;
  expect(threadsLater.find((t) => t.id === thread.id)?.message_count).toBe(6);
  expect((await usage(second)).total_requests).toBe(usageAfter.total_requests + 2);

  // Keys: the created key still works at its tier, the revoked one stays revoked, the tier change holds.
  const keptRes2 = await second.call('GET', '/api/v1/health', { key: kept.secret });
  expect(keptRes2.status).toBe(200);
  expect(keptRes2.headers['x-ratelimit-limit']).toBe('120');
  const goneRes = await second.call('GET', '/api/v1/health', { key: gone.secret });
  expect(goneRes.status).toBe(401);
  expect(goneRes.json).toMatchObject({ error: { code: 'INVALID_KEY' } });
  const grownRes = await second.call('GET', '/api/v1/health', { key: grown.secret });
  expect(grownRes.status).toBe(200);
  expect(grownRes.headers['x-ratelimit-limit']).toBe('300');
  const keyViews = second.server.control.state().keys;
  expect(keyViews.find((k) => k.id === kept.id)).toMatchObject({ name: 'kept', tier: 120, revoked: false });
  expect(keyViews.find((k) => k.id === gone.id)).toMatchObject({ revoked: true });
  expect(keyViews.find((k) => k.id === grown.id)).toMatchObject({ tier: 300, revoked: false });
  // The demo keys answer as they did: pro works, free is refused by plan, revoked by key.
  expect((await second.call('GET', '/api/v1/health', { key: 'pro' })).status).toBe(200);
  expect((await second.call('GET', '/api/v1/health', { key: 'free' })).status).toBe(403);
  expect((await second.call('GET', '/api/v1/health', { key: 'revoked' })).status).toBe(401);
});

test.each([
  ['not JSON', '{"version": 1, "keys": ['],
  ['empty (a truncated write)', ''],
  ['JSON of the wrong shape', JSON.stringify({ version: 2, keys: 'none' })],
])(
  'a state file that is %s is set aside with a warning and the mock starts afresh',
  async (_label, content) => {
    const dir = tempDir();
    dirs.push(dir);
    const path = join(dir, STATE_FILE);
    writeFileSync(path, content);

    const warnings: string[] = [];
    const server = await startMockServer({ dataDir: dir, onWarning: (m) => warnings.push(m) });
    try {
      // The fresh seed answers.
      const res = await request(`${server.baseUrl}/api/v1/health`, {
        headers: { authorization: `Bearer ${server.keys.pro}` },
        dispatcher: new Agent({ connect: { ca: server.ca } }),
      });
      expect(res.statusCode).toBe(200);
      await res.body.dump();
    } finally {
      await server.close();
    }
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain(path);
    // Never silently wiped: the old file is kept, byte for byte, under the name the warning gives.
    const backups = readdirSync(dir).filter((f) => f.startsWith(`${STATE_FILE}.corrupt-`));
    expect(backups).toHaveLength(1);
    expect(warnings[0]).toContain(backups[0]);
    expect(readFileSync(join(dir, backups[0] as string), 'utf8')).toBe(content);
    // And the fresh state was written in its place.
    expect(JSON.parse(readFileSync(path, 'utf8'))).toMatchObject({ version: 1 });
  },
);

test('a second mock in the same process starts from the seed, not from the first one’s agent edits', async () => {
  const first = await start();
  first.server.control.setAgent('storyteller', { chunkCount: 25, chunkDelayMs: 10 });
  const second = await start();
  const storyteller = second.server.control.state().agents.find((a) => a.slug === 'storyteller');
  expect(storyteller).toMatchObject({ chunkCount: 160, chunkDelayMs: 25 });
});

test('a long streamed reply does not grow the saved state by its text: what was asked is kept, and counted', async () => {
  // No endpoint returns a reply's text again; every save of the state used to carry it.
  const mock = await start();
  mock.server.control.setAgent('storyteller', { chunkCount: 5000, chunkDelayMs: 0, latencyMs: 0 });
  await mock.server.service.flush();
  const before = readFileSync(join(mock.dataDir, STATE_FILE), 'utf8').length;
  const res = await mock.call('POST', '/api/v1/chat', {
    body: { agent: 'storyteller', message: 'Tell me the long one.', stream: true, session_id: 'longStory1' },
  });
  expect(res.status).toBe(200);
  expect(res.text.length).toBeGreaterThan(100_000);
  await stop(mock);
  const saved = readFileSync(join(mock.dataDir, STATE_FILE), 'utf8');
  expect(saved.length - before).toBeLessThan(2_000);
  const again = await start(mock.dataDir);
  const listed = ConversationList.parse(
    (await again.call('GET', '/api/v1/conversations?limit=100')).json,
  ).conversations.find((c) => c.session_id === 'longStory1');
  expect(listed).toMatchObject({ agent: 'storyteller', message_count: 2 });
});

test('a state saved before the test helpers were seeded gains them, and keeps an agent of its own by that name', async () => {
  const first = await start();
  const dataDir = first.dataDir;
  await stop(first);
  const file = join(dataDir, STATE_FILE);
  const saved = JSON.parse(readFileSync(file, 'utf8')) as { agents: { slug: string; name: string }[] };
  saved.agents = saved.agents.filter((a) => a.slug !== 'customer');
  (saved.agents.find((a) => a.slug === 'grader') as { name: string }).name = 'Our own grader';
  writeFileSync(file, JSON.stringify(saved));
  const again = await start(dataDir);
  const agents = (await again.call('GET', '/api/v1/agents?limit=100')).json as {
    agents: { slug: string; name: string }[];
  };
  expect(
    agents.agents
      .filter((a) => ['grader', 'customer'].includes(a.slug))
      .map((a) => a.name)
      .sort(),
  ).toEqual(['Customer', 'Our own grader']);
  const reply = await again.call('POST', '/api/v1/chat', {
    body: {
      message: '<goal>A refund for order 4711.</goal><conversation></conversation>',
      agent: 'customer',
    },
  });
  expect(ChatReply.parse(reply.json).response).toBe(
    'Hello. A refund for order 4711. My order number is 4711.',
  );
});
