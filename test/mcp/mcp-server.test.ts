// `agent-console mcp` as a coding agent's MCP client runs it: the CLI from its production layout
// (the built bundle with the production dependencies only) as a child process, driven over stdio
// by the SDK's own Client against `npm run mock` in another process, with keys in the real keychain.
import { spawn, spawnSync, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { cpSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { Agent, request } from 'undici';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { clearService, openRealKeychain, testService } from '../support/keychain';
import { removeDir, standaloneMockArgs, tempDir } from '../support/mock';
import { keyRuns } from '../security/leak-check';

const service = testService('mcp');
const keychain = await openRealKeychain(testService('mcp-probe'));

let dataDir: string;
let mockProcess: ChildProcessWithoutNullStreams;
let mockInfo: { baseUrl: string; caCertPath: string; keys: Record<string, string>; controlToken: string };
let client: Client;
let transport: StdioClientTransport;
/** Every message the server sent, and its stderr: what the leak check reads. */
const heard: string[] = [];

function cli(cliPath: string, args: string[], stdin = ''): { code: number | null; stderr: string } {
  const run = spawnSync(process.execPath, [cliPath, ...args], {
    input: stdin,
    encoding: 'utf8',
    env: { ...process.env, AGENT_CONSOLE_DATA_DIR: dataDir, AGENT_CONSOLE_KEYCHAIN_SERVICE: service },
  });
  return { code: run.status, stderr: run.stderr };
}

/** The built CLI with only the production dependencies beside it, as a package or image holds it. */
function productionLayout(): string {
  // Builds the bundle first when it is missing or older than the sources.
  expect(cli('bin/agent-console.js', ['--help']).code).toBe(0);
  const app = join(dataDir, 'app');
  mkdirSync(join(app, 'node_modules'), { recursive: true });
  cpSync('out/node', join(app, 'out', 'node'), { recursive: true });
  writeFileSync(join(app, 'package.json'), readFileSync('package.json'));
  symlinkSync(resolve('node_modules/@napi-rs'), join(app, 'node_modules', '@napi-rs'));
  return join(app, 'out', 'node', 'cli.js');
}

async function control(method: 'PATCH' | 'POST', path: string, body: unknown): Promise<void> {
  const dispatcher = new Agent({ connect: { ca: readFileSync(mockInfo.caCertPath, 'utf8') } });
  const res = await request(`${mockInfo.baseUrl}/__control${path}`, {
    method,
    dispatcher,
    headers: { authorization: `Bearer ${mockInfo.controlToken}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  await res.body.text();
  await dispatcher.close();
  expect(res.statusCode).toBe(200);
}

/** Another client of the same key spends its whole window, as a teammate's script would. */
async function spendWindow(secret: string, requests: number): Promise<void> {
  const dispatcher = new Agent({ connect: { ca: readFileSync(mockInfo.caCertPath, 'utf8') } });
  for (let i = 0; i < requests; i++) {
    const res = await request(`${mockInfo.baseUrl}/api/v1/agents`, {
      dispatcher,
      headers: { authorization: `Bearer ${secret}` },
    });
    await res.body.text();
  }
  await dispatcher.close();
}

const call = (name: string, args: Record<string, unknown>) =>
  client.callTool({ name, arguments: args }) as Promise<CallToolResult>;

const text = (result: CallToolResult): string =>
  result.content.map((part) => (part.type === 'text' ? part.text : '')).join('');

beforeAll(async () => {
  if (keychain.skipReason !== undefined) return;
  dataDir = tempDir('agent-console-mcp-');
  mockProcess = spawn(process.execPath, standaloneMockArgs(join(dataDir, 'mock')));
  const [line] = (await new Promise((done) =>
    createInterface({ input: mockProcess.stdout }).once('line', (l) => done([l])),
  )) as [string];
  mockInfo = JSON.parse(line);
  const cliPath = productionLayout();
  // Two keys, each in the keychain under a profile: one for the calls, one for the burst.
  for (const [name, demoKey] of [
    ['main', 'pro'],
    ['burst', 'tier30'],
  ] as const) {
    expect(cli(cliPath, ['keys', 'add', '--name', name], `${mockInfo.keys[demoKey]}\n`).code).toBe(0);
    const added = cli(cliPath, [
      'profiles',
      'add',
      '--name',
      name,
      '--base-url',
      mockInfo.baseUrl,
      '--key',
      name,
      '--ca',
      mockInfo.caCertPath,
    ]);
    expect(added.code, added.stderr).toBe(0);
  }
  expect(cli(cliPath, ['profiles', 'use', 'main']).code).toBe(0);

  transport = new StdioClientTransport({
    command: process.execPath,
    args: [cliPath, 'mcp'],
    cwd: process.cwd(),
    env: {
      ...(process.env as Record<string, string>),
      AGENT_CONSOLE_DATA_DIR: dataDir,
      AGENT_CONSOLE_KEYCHAIN_SERVICE: service,
    },
    stderr: 'pipe',
  });
  transport.stderr?.on('data', (d: Buffer) => heard.push(d.toString()));
  client = new Client({ name: 'agent-console-test', version: '1.0.0' });
  await client.connect(transport);
  const deliver = transport.onmessage;
  transport.onmessage = (message) => {
    heard.push(JSON.stringify(message));
    deliver?.(message);
  };
}, 90_000);

afterAll(async () => {
  if (keychain.skipReason !== undefined) return;
  await client?.close();
  mockProcess?.kill('SIGTERM');
  await clearService(service).catch(() => undefined);
  removeDir(dataDir);
});

describe.skipIf(keychain.skipReason !== undefined)(
  `agent-console mcp over stdio ${keychain.skipReason ?? ''}`,
  () => {
    test('lists its tools: those that send a message are marked as side effects, the rest read only; none takes a key', async () => {
      const { tools } = await client.listTools();
      const byName = new Map(tools.map((t) => [t.name, t]));
      expect([...byName.keys()].sort()).toEqual([
        'chat',
        'create_thread',
        'get_health',
        'get_usage',
        'list_agents',
        'list_conversations',
        'list_threads',
        'read_history',
        'run_suite',
        'send_thread_message',
      ]);
      for (const name of ['chat', 'create_thread', 'send_thread_message', 'run_suite']) {
        expect(byName.get(name)?.annotations, name).toMatchObject({
          readOnlyHint: false,
          destructiveHint: false,
          openWorldHint: true,
        });
      }
      for (const name of [
        'list_agents',
        'list_threads',
        'list_conversations',
        'get_usage',
        'get_health',
        'read_history',
      ]) {
        expect(byName.get(name)?.annotations?.readOnlyHint, name).toBe(true);
      }
      for (const tool of tools) {
        expect(
          Object.keys(tool.inputSchema.properties ?? {}).filter((p) => /key|secret|token/i.test(p)),
        ).toEqual([]);
      }
    });

    test('list_agents and get_health answer through the active profile', async () => {
      const agents = await call('list_agents', {});
      expect(agents.isError).toBeFalsy();
      expect(
        (agents.structuredContent as { agents: { slug: string }[] }).agents.map((a) => a.slug),
      ).toContain('echo');
      const health = await call('get_health', { profile: 'main' });
      expect(health.structuredContent).toMatchObject({ status: 'healthy' });
    });

    test('chat streams the reply as progress notifications before the result, which holds the reply and its timing', async () => {
      await control('PATCH', '/agents/storyteller', { chunkCount: 12, chunkDelayMs: 60, latencyMs: 0 });
      const progress: { at: number; message: string | undefined }[] = [];
      const result = (await client.callTool(
        { name: 'chat', arguments: { agent: 'storyteller', message: 'tell me a story' } },
        undefined,
        { onprogress: (p) => progress.push({ at: performance.now(), message: p.message }) },
      )) as CallToolResult;
      const answeredAt = performance.now();
      expect(result.isError).toBeFalsy();
      const reply = result.structuredContent as {
        reply: string;
        session_id: string;
        chunks: number;
        first_chunk_ms: number;
        total_ms: number;
      };
      expect(reply.chunks).toBe(12);
      expect(reply.total_ms).toBeGreaterThanOrEqual(reply.first_chunk_ms);
      expect(progress.length).toBeGreaterThan(1);
      expect(progress.every((p) => p.at <= answeredAt)).toBe(true);
      expect(progress.map((p) => p.message).join('')).toBe(reply.reply);

      // The same session continues, and the console's history holds both turns.
      const again = await call('chat', {
        agent: 'echo',
        message: 'hello again',
        session_id: reply.session_id,
      });
      expect((again.structuredContent as { reply: string }).reply).toBe('Echo: hello again');
      const history = await call('read_history', { session_id: reply.session_id });
      expect(JSON.stringify(history.structuredContent)).toContain('hello again');
      // A page, never the whole record: the latest message alone, then the first, with the count.
      const latest = (await call('read_history', { session_id: reply.session_id, limit: 1 }))
        .structuredContent as { from: number; total: number; messages: { content: string }[] };
      expect(latest).toMatchObject({ from: 3, total: 4, messages: [{ content: 'Echo: hello again' }] });
      const first = (await call('read_history', { session_id: reply.session_id, from: 0, limit: 1 }))
        .structuredContent as { messages: { content: string }[] };
      expect(first.messages.map((m) => m.content)).toEqual(['tell me a story']);
      const listed = (await call('read_history', { limit: 1 })).structuredContent as {
        summaries: { id: string }[];
        next?: string;
        total: number;
      };
      expect(listed.summaries.map((s) => s.id)).toEqual([reply.session_id]);
      expect(listed.total).toBeGreaterThanOrEqual(1);
      expect(listed.next).toEqual(expect.any(String));
    });

    test('a thread: started with a first message, then continued', async () => {
      const created = await call('create_thread', { agent: 'echo', message: 'first', title: 'From MCP' });
      expect(created.isError).toBeFalsy();
      const { thread, response } = created.structuredContent as { thread: { id: string }; response: string };
      expect(response).toBe('Echo: first');
      const next = await call('send_thread_message', { thread_id: thread.id, message: 'second' });
      expect(next.structuredContent).toMatchObject({ thread_id: thread.id, response: 'Echo: second' });
      const threads = await call('list_threads', {});
      expect(
        (threads.structuredContent as { threads: { id: string; message_count: number }[] }).threads,
      ).toContainEqual(expect.objectContaining({ id: thread.id, message_count: 4 }));
    });

    test('run_suite runs a file and says which case failed and why; one case runs alone', async () => {
      const file = join(dataDir, 'mixed.yaml');
      writeFileSync(
        file,
        [
          'name: Mixed',
          'targets:',
          '  agents: [echo]',
          'cases:',
          '  - name: echoes',
          '    message: hi',
          '    assert:',
          '      - contains: "Echo: hi"',
          '  - name: answers in French',
          '    message: hello',
          '    assert:',
          '      - contains: Bonjour',
          '',
        ].join('\n'),
      );
      const result = await call('run_suite', { path: file });
      expect(result.isError).toBeFalsy();
      const run = result.structuredContent as {
        status: string;
        totals: { passed: number; failed: number };
        cases: { case: string; status: string; target: string; failures: { description: string }[] }[];
      };
      expect(run.status).toBe('failed');
      expect(run.totals).toMatchObject({ passed: 1, failed: 1 });
      expect(run.cases).toEqual([
        expect.objectContaining({ case: 'echoes', status: 'passed', target: 'main / echo', failures: [] }),
        expect.objectContaining({
          case: 'answers in French',
          status: 'failed',
          failures: [
            expect.objectContaining({
              check: 'contains',
              line: 12,
              description: 'line 12 contains: expected contains "Bonjour", actual "Echo: hello"',
            }),
          ],
        }),
      ]);

      const one = await call('run_suite', { path: file, case: 'echoes' });
      expect(one.structuredContent).toMatchObject({ status: 'passed', totals: { passed: 1, failed: 0 } });

      // A path that does not load is refused before anything is sent, as `agent-console test` refuses it.
      const missing = await call('run_suite', { path: join(dataDir, 'nowhere.yaml') });
      expect(missing.isError).toBe(true);
      expect(text(missing)).toContain('No such file or folder.');
    }, 60_000);

    test('a 429 in a burst is a tool error that says how long to wait', async () => {
      // Another client of the key has spent its minute: the console's limiter could not know.
      await spendWindow(mockInfo.keys.tier30 as string, 30);
      const stop = new AbortController();
      const burst = [1, 2, 3].map((n) =>
        client
          .callTool(
            { name: 'chat', arguments: { agent: 'echo', message: `burst ${n}`, profile: 'burst' } },
            undefined,
            {
              signal: stop.signal,
            },
          )
          .then(
            (result) => result as CallToolResult,
            () => undefined,
          ),
      );
      const first = await Promise.race(burst);
      // The rest wait in the key's queue for the pause the 429 asked for; the test need not.
      stop.abort();
      const results = (await Promise.all(burst)).filter((r) => r !== undefined);
      expect(first?.isError).toBe(true);
      // The wait is said once: the service's own words when they give it, else the console's.
      const said = text(first as CallToolResult);
      expect(said).toMatch(/Retry after \d+ (?:s|seconds?)\. \(RATE_LIMITED, HTTP 429/);
      expect(said.match(/Retry after/g)).toHaveLength(1);
      expect(first?.structuredContent).toMatchObject({ code: 'RATE_LIMITED', status: 429 });
      expect((first?.structuredContent as { retry_after_s: number }).retry_after_s).toBeGreaterThan(0);
      expect(results.filter((r) => !r.isError)).toEqual([]);
    }, 60_000);

    test('no result, notification or line on stderr holds 12 characters of a key in a row', () => {
      expect(heard.length).toBeGreaterThan(10);
      const all = heard.join('\n');
      for (const secret of [mockInfo.keys.pro as string, mockInfo.keys.tier30 as string]) {
        expect(keyRuns(all, secret)).toEqual([]);
      }
    });
  },
);
