// One exchange path for every front end: the same chat sent through the bridge (the
// app's windows) and through the CLI (a real process) leaves the same transcript; a thread keeps
// its real agent whoever continues it; and conditions the user can fix reach the window as their
// own code, never as an internal failure.
import { randomBytes, randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { StreamEndEvent } from '../../shared/bridge';
import type { Transcript } from '../../shared/transcript';
import { announceEndpoint, withdrawEndpoint } from '../../mock/endpoint-file';
import { startMockServer, type MockServer } from '../../mock/server';
import { BridgeHost } from '../../electron/bridge/bridge-host';
import { ConsoleCore } from '../../electron/core/console-core';
import { EMBEDDED_MOCK_PROFILE_ID } from '../../electron/core/profiles';
import { TranscriptStore } from '../../electron/core/transcript-store';
import { removeDir, tempDir } from '../support/mock';
import { runNode, type ProcessRun } from '../support/run-process';
import { until } from '../support/until';

let dataDir: string;
let mock: MockServer;
let core: ConsoleCore;
let host: BridgeHost;
const keychainService = `agent-console-exchanges-${randomBytes(4).toString('hex')}`;
const ended = new Map<string, StreamEndEvent>();

/** The CLI as a user runs it, on the same data dir (so on the same running mock). */
function cli(args: string[]): Promise<ProcessRun> {
  return runNode(['bin/agent-console.js', ...args], {
    env: { AGENT_CONSOLE_DATA_DIR: dataDir, AGENT_CONSOLE_KEYCHAIN_SERVICE: keychainService },
  });
}

async function bridge<T>(call: string, input: unknown): Promise<T> {
  const result = await host.invoke(call, input);
  if (!result.ok) throw new Error(`${call}: ${result.error.code} ${result.error.message}`);
  return result.value as T;
}

async function streamThroughBridge(input: Record<string, unknown>): Promise<StreamEndEvent> {
  const streamId = randomUUID();
  await bridge('chat:stream', { ...input, streamId });
  return until('the stream to end', () => ended.get(streamId), 18_000);
}

async function transcript(kind: 'session' | 'thread', id: string): Promise<Transcript> {
  // Read from disk by a fresh store: what a restart would show, whichever process wrote it.
  await core.transcripts.flush();
  const found = await new TranscriptStore(join(dataDir, 'transcripts')).get({
    profileId: EMBEDDED_MOCK_PROFILE_ID,
    kind,
    id,
  });
  if (!found) throw new Error(`no transcript for ${kind} ${id}`);
  return found;
}

/** What may differ between two records of the same exchange: ids, times and request ids. */
function comparable(t: Transcript) {
  return {
    kind: t.kind,
    agent: t.agent,
    knownFrom: t.knownFrom,
    title: t.title,
    messages: t.messages.map(({ at: _at, requestId, ...m }) => ({
      ...m,
      hasRequestId: requestId !== undefined,
      ...(m.error ? { error: m.error.replace(/req_[A-Za-z0-9]+/g, 'req_…') } : {}),
    })),
  };
}

beforeAll(async () => {
  dataDir = tempDir('agent-console-exchanges-');
  // A standalone mock on the app's data dir, announced as `npm run mock` announces itself, so the
  // bridge's core and every CLI process use this one mock.
  mock = await startMockServer({ dataDir: join(dataDir, 'mock') });
  announceEndpoint(join(dataDir, 'mock'), {
    baseUrl: mock.baseUrl,
    caCertPath: mock.caCertPath,
    pid: process.pid,
    keys: { ...mock.keys },
  });
  core = await ConsoleCore.open({ dataDir, embeddedMock: 'discover', keychainService });
  host = new BridgeHost(core, { transport: 'web', version: 'test' });
  host.onEvent((event, payload) => {
    if (event === 'chat:end') ended.set((payload as StreamEndEvent).streamId, payload as StreamEndEvent);
  });
  mock.control.setAgent('storyteller', { latencyMs: 0, chunkDelayMs: 1, chunkCount: 40 });
}, 30_000);

afterAll(async () => {
  host.close();
  await core.close();
  withdrawEndpoint(join(dataDir, 'mock'));
  await mock.close();
  removeDir(dataDir);
});

describe('the CLI and the app record the same exchange the same way', () => {
  test('a streamed chat in a new session', async () => {
    const uiSession = randomBytes(8).toString('hex');
    const end = await streamThroughBridge({
      message: 'tell me a story',
      agent: 'storyteller',
      session_id: uiSession,
      startedHere: true,
    });
    expect(end.status).toBe('done');

    const run = await cli(['chat', '--agent', 'storyteller', '--json', 'tell me a story']);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const cliSession = (JSON.parse(run.stdout) as { session_id: string }).session_id;

    const fromUi = await transcript('session', uiSession);
    const fromCli = await transcript('session', cliSession);
    expect(fromUi.messages.map((m) => m.role)).toEqual(['user', 'agent']);
    expect(fromUi.messages[1]?.content.length).toBeGreaterThan(40);
    expect(comparable(fromCli)).toEqual(comparable(fromUi));
  });

  test('a chat refused by the service keeps what was typed, in both', async () => {
    const uiSession = randomBytes(8).toString('hex');
    const refused = await host.invoke('chat:send', {
      message: 'are you there?',
      agent: 'archivist',
      session_id: uiSession,
    });
    expect(refused).toMatchObject({ ok: false, error: { code: 'AGENT_NOT_FOUND' } });

    const cliSession = randomBytes(8).toString('hex');
    const run = await cli([
      'chat',
      '--agent',
      'archivist',
      '--session',
      cliSession,
      '--no-stream',
      'are you there?',
    ]);
    expect(run.code).toBe(5);
    expect(run.stderr).toContain('AGENT_NOT_FOUND');

    const fromUi = await transcript('session', uiSession);
    const fromCli = await transcript('session', cliSession);
    expect(fromUi.messages).toMatchObject([
      { role: 'user', content: 'are you there?', status: 'complete' },
      { role: 'agent', content: '', status: 'failed' },
    ]);
    expect(comparable(fromCli)).toEqual(comparable(fromUi));
  });
});

describe('a thread keeps its real agent', () => {
  test('continued from the CLI after the app created it', async () => {
    const created = await bridge<{ thread: { id: string; agent: string } }>('threads:create', {
      message: 'Where is my refund?',
      agent: 'helpdesk',
    });
    const run = await cli(['threads', 'send', created.thread.id, 'Any news?']);
    expect(run.code).toBe(0);
    const record = await transcript('thread', created.thread.id);
    expect(record.agent).toBe('helpdesk');
    expect(record.messages.map((m) => m.content)).toContain('Any news?');
  });

  test('a thread this client never saw is recorded under the agent the service lists for it', async () => {
    const listed = await bridge<{ threads: { id: string; agent: string }[] }>('threads:list', {});
    const seeded = listed.threads.find((t) => t.agent !== 'echo') ?? listed.threads[0];
    if (!seeded) throw new Error('the mock seeds threads');
    await bridge('threads:send', { threadId: seeded.id, message: 'Hello again' });
    const record = await transcript('thread', seeded.id);
    expect(record.agent).toBe(seeded.agent);
    expect(record.knownFrom).toBe('partial');
  });
});

describe('conditions the user can fix come back as their own code', () => {
  test('no active profile is NO_PROFILE, with words, not INTERNAL', async () => {
    const before = core.settings.read().activeProfileId;
    core.settings.update((draft) => {
      draft.activeProfileId = 'a-profile-that-was-removed';
    });
    try {
      const result = await host.invoke('agents:list', {});
      expect(result).toMatchObject({ ok: false, error: { code: 'NO_PROFILE' } });
      expect(result.ok ? '' : result.error.message).toMatch(/No profile is active/);
    } finally {
      core.settings.update((draft) => {
        if (before === undefined) delete draft.activeProfileId;
        else draft.activeProfileId = before;
      });
    }
  });

  test('removing a key a profile uses is KEY_IN_USE, from the window and from the CLI', async () => {
    const embedded = core.profiles.get(EMBEDDED_MOCK_PROFILE_ID);
    if (!embedded) throw new Error('the embedded mock profile is wired');
    const result = await host.invoke('keys:remove', { id: embedded.keyId });
    expect(result).toMatchObject({ ok: false, error: { code: 'KEY_IN_USE' } });
    expect(result.ok ? '' : result.error.message).toContain('"Embedded mock"');
    expect(core.vault.has(embedded.keyId)).toBe(true);

    const run = await cli(['keys', 'remove', 'Embedded mock demo key']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('used by the profile "Embedded mock"');
  });
});
