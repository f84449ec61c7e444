// The CLI end to end, as the README shows it: `npm run mock` in one process, `agent-console …` in
// others, on the same data dir. Real processes, real HTTPS, the real keychain.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { Agent, request } from 'undici';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { TranscriptStore } from '../../electron/core/transcript-store';
import { clearService, filesContaining, openRealKeychain, testService } from '../support/keychain';
import { removeDir, standaloneMockArgs, tempDir } from '../support/mock';

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
  /** Milliseconds after start when stdout first received data. */
  firstOutputMs: number | undefined;
  totalMs: number;
}

let dataDir: string;
let mockProcess: ChildProcessWithoutNullStreams;
let mockInfo: { baseUrl: string; caCertPath: string; keys: Record<string, string>; controlToken: string };
const service = testService('cli');
const outputs: string[] = [];

function cli(args: string[], options: { stdin?: string } = {}): Promise<Run> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, ['bin/agent-console.js', ...args], {
      env: { ...process.env, AGENT_CONSOLE_DATA_DIR: dataDir, AGENT_CONSOLE_KEYCHAIN_SERVICE: service },
    });
    let stdout = '';
    let stderr = '';
    let firstOutputMs: number | undefined;
    child.stdout.on('data', (d: Buffer) => {
      firstOutputMs ??= performance.now() - started;
      stdout += d.toString();
    });
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      outputs.push(stdout, stderr);
      resolve({ code, stdout, stderr, firstOutputMs, totalMs: performance.now() - started });
    });
    child.stdin.end(options.stdin ?? '');
  });
}

/** A control-path request as a script makes it, with the token from the mock's JSON line. */
async function rawControl(
  method: 'GET' | 'PATCH' | 'POST',
  path: string,
  body?: unknown,
  /** null: no Authorization header at all. */
  token: string | null = mockInfo.controlToken,
): Promise<{ status: number; text: string }> {
  const dispatcher = new Agent({ connect: { ca: readFileSync(mockInfo.caCertPath, 'utf8') } });
  const res = await request(`${mockInfo.baseUrl}/__control${path}`, {
    method,
    dispatcher,
    headers: {
      ...(token !== null ? { authorization: `Bearer ${token}` } : {}),
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const text = await res.body.text();
  await dispatcher.close();
  return { status: res.statusCode, text };
}

async function control(method: 'PATCH' | 'POST', path: string, body: unknown): Promise<void> {
  expect((await rawControl(method, path, body)).status).toBe(200);
}

beforeAll(async () => {
  dataDir = tempDir('agent-console-cli-');
  // As the README: `npm run -s mock -- --data-dir …` (the app's own mock folder of this data dir).
  mockProcess = spawn(process.execPath, standaloneMockArgs(join(dataDir, 'mock')));
  const [line] = (await new Promise((resolve) =>
    createInterface({ input: mockProcess.stdout }).once('line', (l) => resolve([l])),
  )) as [string];
  mockInfo = JSON.parse(line);
}, 30_000);

afterAll(async () => {
  mockProcess.kill('SIGTERM');
  await clearService(service).catch(() => undefined);
  removeDir(dataDir);
});

describe('against `npm run mock`', () => {
  test('chat streams the reply to stdout as it arrives', async () => {
    await control('PATCH', '/agents/storyteller', { chunkCount: 20, chunkDelayMs: 100, latencyMs: 0 });
    const run = await cli(['chat', '--agent', 'storyteller', 'tell me a story']);
    expect(run.code).toBe(0);
    expect(run.stdout.trim().split(' ')).toHaveLength(20);
    // 20 chunks 100 ms apart: the first words are on screen long before the last.
    expect(run.totalMs - (run.firstOutputMs ?? run.totalMs)).toBeGreaterThan(1_000);
    expect(run.stderr).toContain('20 chunks');
  });

  test('chat --agent echo "hi" prints the agent\'s reply and keeps a transcript', async () => {
    const run = await cli(['chat', '--agent', 'echo', '--session', 'cliSession1', 'hi']);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe('Echo: hi\n');
    // The chat's own summary only: no "experimental" warning from node:sqlite as the history opens.
    expect(run.stderr).toMatch(/^— 1 chunks, [^\n]*\n$/);
    const store = new TranscriptStore(join(dataDir, 'transcripts'));
    const transcript = await store.get({ profileId: 'embedded-mock', kind: 'session', id: 'cliSession1' });
    expect(transcript?.messages.map((m) => [m.role, m.content])).toEqual([
      ['user', 'hi'],
      ['agent', 'Echo: hi'],
    ]);
  });

  test('--no-stream and --json give one JSON document', async () => {
    const run = await cli(['chat', '--agent', 'echo', '--no-stream', '--json', 'hello']);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ response: 'Echo: hello', agent: 'echo' });
  });

  test('agents, conversations, usage and health', async () => {
    const agents = JSON.parse((await cli(['agents', '--json', '--limit', '3'])).stdout);
    expect(agents.agents).toHaveLength(3);
    expect(agents.has_more).toBe(true);
    const table = (await cli(['agents'])).stdout;
    expect(table).toMatch(/^Slug\s+Name\s+Status/);
    expect(table).toContain('archivist');
    const conversations = JSON.parse((await cli(['conversations', '--agent', 'echo', '--json'])).stdout);
    expect(conversations.conversations.every((c: { agent: string }) => c.agent === 'echo')).toBe(true);
    const usage = JSON.parse((await cli(['usage', '--days', '7', '--json'])).stdout);
    expect(usage.daily).toHaveLength(7);
    const health = await cli(['health']);
    expect(health.stdout).toContain('HEALTHY');
  });

  test('threads: create, send, list', async () => {
    const created = JSON.parse(
      (
        await cli([
          'threads',
          'create',
          '--agent',
          'helpdesk',
          '--title',
          'CLI thread',
          '--message',
          'First',
          '--json',
        ])
      ).stdout,
    );
    expect(created.thread.title).toBe('CLI thread');
    const sent = await cli(['threads', 'send', created.thread.id, 'Second']);
    expect(sent.code).toBe(0);
    expect(sent.stdout).toContain('Earlier you asked: "First"');
    expect((await cli(['threads', 'list'])).stdout).toContain('CLI thread');
    expect((await cli(['threads', 'send', 'thr_missing', 'x'])).code).toBe(5);
  });

  test('exit codes follow the error class, with the reason on stderr', async () => {
    const stopped = await cli(['chat', '--agent', 'archivist', '--session', 'failedOnce', 'hi']);
    expect(stopped.code).toBe(5);
    expect(stopped.stderr).toContain('AGENT_NOT_FOUND');
    // The message is not lost: the transcript keeps it, with the failure beside it.
    const store = new TranscriptStore(join(dataDir, 'transcripts'));
    const transcript = await store.get({ profileId: 'embedded-mock', kind: 'session', id: 'failedOnce' });
    expect(transcript?.messages.map((m) => [m.role, m.content, m.status])).toEqual([
      ['user', 'hi', 'complete'],
      ['agent', '', 'failed'],
    ]);
    expect(transcript?.messages[1]?.error).toContain('AGENT_NOT_FOUND');
    const broken = await cli(['chat', '--agent', 'ledger-bot', 'hi']);
    expect(broken.code).toBe(7);
    expect((await cli(['chat', '--session', 'not-valid!', 'hi'])).code).toBe(2);
    expect((await cli(['agents', '--limit', 'many'])).code).toBe(2);
    expect((await cli(['agents', '--bogus'])).code).toBe(2);
    expect((await cli(['agents', '--profile', 'nope'])).code).toBe(2);
  });
});

describe('keys and profiles in the real keychain', async () => {
  const keychain = await openRealKeychain(testService('cli-probe'));
  test.skipIf(keychain.skipReason !== undefined)(
    `add a key, use it through a profile, remove it; the secret is never written or printed ${keychain.skipReason ?? ''}`,
    async () => {
      const secret = mockInfo.keys.tier30 as string;
      const added = await cli(['keys', 'add', '--name', 'staging'], { stdin: `${secret}\n` });
      expect(added.code, added.stderr).toBe(0);
      expect(added.stdout).toContain(`…${secret.slice(-4)}`);
      const listed = await cli(['keys', 'list', '--json']);
      expect(JSON.parse(listed.stdout).find((k: { name: string }) => k.name === 'staging')).toMatchObject({
        storage: 'os-keychain',
        last4: `…${secret.slice(-4)}`,
      });
      const profile = await cli([
        'profiles',
        'add',
        '--name',
        'local',
        '--base-url',
        mockInfo.baseUrl,
        '--key',
        'staging',
        '--ca',
        mockInfo.caCertPath,
      ]);
      expect(profile.code, profile.stderr).toBe(0);
      // The key was added with no server: typed at the terminal, this profile binds it, out loud.
      expect(profile.stderr).toContain(`Key "staging" is now allowed to be sent to ${mockInfo.baseUrl}.`);
      const keyNow = JSON.parse((await cli(['keys', 'list', '--json'])).stdout).find(
        (k: { name: string }) => k.name === 'staging',
      );
      expect(keyNow.origins).toEqual([mockInfo.baseUrl]);
      // Another server for it still needs the user's own flag.
      const elsewhere = await cli([
        'profiles',
        'add',
        '--name',
        'elsewhere',
        '--base-url',
        'https://agents.example.com',
        '--key',
        'staging',
      ]);
      expect(elsewhere.code).toBe(2);
      expect(elsewhere.stderr).toContain('--allow-new-origin');
      expect((await cli(['profiles', 'use', 'local'])).code).toBe(0);
      const health = JSON.parse((await cli(['health', '--json'])).stdout);
      expect(health.status).toBe('healthy');
      // The tier learned from X-RateLimit-Limit.
      expect(JSON.parse((await cli(['keys', 'list', '--json'])).stdout)[0]).toMatchObject({ tier: 30 });

      await control('POST', '/keys/tier30/revoke', {});
      expect((await cli(['agents'])).code).toBe(3);

      expect(filesContaining(dataDir, secret).filter((f) => !f.includes(`${join(dataDir, 'mock')}`))).toEqual(
        [],
      );
      expect(outputs.some((o) => o.includes(secret))).toBe(false);

      expect((await cli(['profiles', 'use', 'Embedded mock'])).code).toBe(0);
      // A key a profile still uses is kept, and the refusal names the profile.
      const refused = await cli(['keys', 'remove', 'staging']);
      expect(refused.code).toBe(2);
      expect(refused.stderr).toContain('"local"');
      expect((await cli(['profiles', 'remove', 'local'])).code).toBe(0);
      expect((await cli(['keys', 'remove', 'staging'])).code).toBe(0);
      expect(
        JSON.parse((await cli(['keys', 'list', '--json'])).stdout).map((k: { name: string }) => k.name),
      ).not.toContain('staging');
    },
    60_000,
  );

  test('a malformed key is refused with a clear message that does not echo it', async () => {
    const run = await cli(['keys', 'add', '--name', 'bad'], { stdin: 'ams_tooshort\n' });
    expect(run.code).toBe(2);
    expect(run.stderr).not.toContain('ams_tooshort');
    expect(run.stderr.length).toBeGreaterThan(20);
  });
});

describe('agent-console mock …: the control room for scripts', () => {
  test('chaos, agents, health, keys, error shape and the request log of a running mock', async () => {
    expect((await cli(['mock', 'chaos', 'outage'])).stdout).toContain('on: outage');
    expect((await cli(['health'])).stdout).toContain('UNHEALTHY');
    expect((await cli(['chat', '--agent', 'echo', 'hi'])).code).toBe(7); // 503 while the outage lasts
    expect((await cli(['mock', 'chaos', '--undo', 'outage'])).stdout).toContain('No chaos is on.');
    expect((await cli(['mock', 'chaos', 'meteor'])).code).toBe(5);

    expect((await cli(['mock', 'agent', 'echo', '--status', 'error'])).code).toBe(0);
    expect((await cli(['chat', '--agent', 'echo', 'hi'])).stderr).toContain('AGENT_ERROR');
    expect((await cli(['mock', 'agent', 'echo', '--status', 'deployed', '--latency', '0'])).code).toBe(0);

    expect((await cli(['mock', 'health', '--vps', 'degraded'])).stdout).toBe('health: degraded\n');

    const created = JSON.parse(
      (await cli(['mock', 'key', 'create', '--name', 'ci', '--tier', '120', '--json'])).stdout,
    );
    expect(created).toMatchObject({ name: 'ci', tier: 120, revoked: false });
    expect((await cli(['mock', 'key', 'revoke', created.id, '--json'])).stdout).toContain('"revoked": true');

    expect((await cli(['mock', 'errors', 'flat'])).code).toBe(0);
    const state = JSON.parse((await cli(['mock', 'state', '--json'])).stdout);
    expect(state.faults.errorShape).toBe('flat');

    const requests = await cli(['mock', 'requests']);
    expect(requests.stdout).toContain('/api/v1/health');
    expect(requests.stdout).toMatch(/ams_…\w{4}/);
    for (const secret of Object.values(mockInfo.keys)) expect(requests.stdout).not.toContain(secret);

    expect((await cli(['mock', 'reset'])).code).toBe(0);
    const after = JSON.parse((await cli(['mock', 'state', '--json'])).stdout);
    expect(after).toMatchObject({
      chaos: [],
      faults: { errorShape: 'nested' },
      health: { status: 'healthy' },
    });
  }, 60_000);

  test('npm run mock prints its control token, kept 0600 in its folder; the control path wants it, `agent-console mock` sends it', async () => {
    const file = join(dataDir, 'mock', 'control-token');
    expect(mockInfo.controlToken).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(readFileSync(file, 'utf8').trim()).toBe(mockInfo.controlToken);
    if (process.platform !== 'win32') expect(statSync(file).mode & 0o777).toBe(0o600);
    expect((await rawControl('GET', '/state', undefined, null)).status).toBe(401);
    const wrong = await rawControl('PATCH', '/health', { api: 'down' }, 'x'.repeat(43));
    expect(wrong.status).toBe(401);
    expect(wrong.text).toContain('INVALID_CONTROL_TOKEN');
    expect((await cli(['health'])).stdout).not.toContain('UNHEALTHY');
    const state = JSON.parse((await cli(['mock', 'state', '--json'])).stdout);
    expect(state.health.status).toBe('healthy');
  });

  test('with no mock running it says how to start one', async () => {
    const run = await cli(['--data-dir', tempDir('agent-console-nomock-'), 'mock', 'state']);
    expect(run.code).toBe(8);
    expect(run.stderr).toContain('npm run mock');
  });
});

describe('record and replay from the command line', () => {
  test('chat --record saves a fixture; mock fixture assign makes an agent replay it', async () => {
    await control('PATCH', '/agents/storyteller', { chunkCount: 12, chunkDelayMs: 5, latencyMs: 0 });
    const recorded = await cli(['chat', '--agent', 'storyteller', '--record', 'Twelve words', 'tell me']);
    expect(recorded.code).toBe(0);
    const id = /fixture (\S+) \(12 chunks\)/.exec(recorded.stderr)?.[1];
    expect(id).toBeDefined();
    const list = JSON.parse((await cli(['mock', 'fixture', 'list', '--json'])).stdout);
    expect(list).toEqual([expect.objectContaining({ id, name: 'Twelve words', chunkCount: 12 })]);

    expect((await cli(['mock', 'fixture', 'assign', 'echo', id as string, '--mode', 'fast'])).code).toBe(0);
    const replayed = await cli(['chat', '--agent', 'echo', 'anything at all', '--json']);
    const summary = JSON.parse(replayed.stdout);
    expect(summary.response).toBe(recorded.stdout.trimEnd());
    expect(summary.chunks).toBe(12);
    expect((await cli(['mock', 'fixture', 'clear', 'echo'])).code).toBe(0);
    expect((await cli(['chat', '--agent', 'echo', 'hi'])).stdout).toBe('Echo: hi\n');
  }, 60_000);
});
