// The renderer's side of the hostile server (docs/security.md): an in-process core and bridge, as
// the app and the web host run them, with a profile per mode of the server. Every bridge call that
// reaches the server, every event, the Log's exports, the screens' CSV exports and every file in the
// data folder afterwards hold no 12-character run of the key — whether the server wrote the key
// plainly, with `\u005f`, with several characters escaped, or over HTTPS. A reply nested 100,000
// deep ends in an error that says so, and a 429 asking for a day's wait pauses the key for at
// most 10 minutes.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { BridgeHost } from '../../electron/bridge/bridge-host';
import { ConsoleCore } from '../../electron/core/console-core';
import type { BridgeResult, StreamEndEvent } from '../../shared/bridge';
import type { ReceivedConversationList, ReceivedUsageReport } from '../../shared/received';
import { conversationsCsv } from '../../renderer/screens/conversations/conversation-export';
import { agentsCsv, dailyCsv } from '../../renderer/screens/usage/usage-data';
import { testService } from '../support/keychain';
import { removeDir, tempDir } from '../support/mock';
import { startHostileServer, type HostileServer, type Mode } from './hostile-server';
import { makeTls } from './hostile-tls';
import { fileLeaks, leaks, type Secret } from './hostile-support';
import { plantKey } from './leak-check';

const KEY = plantKey('hk1');
/** The retry-after profile's own key: a key paused for a day would hold up every other test. */
const RATE_KEY = plantKey('hk2');
const SECRETS: Secret[] = [
  { name: 'KEY', value: KEY },
  { name: 'RATE_KEY', value: RATE_KEY },
];
const service = testService('hostile-bridge');
let dataDir: string;
let core: ConsoleCore;
let host: BridgeHost;
let http: HostileServer;
let https: HostileServer;
/** Profile ids by name. */
const profiles: Record<string, string> = {};
const events: { event: string; payload: unknown }[] = [];
/** What every call and event carried, for the sweep at the end. */
const traffic: { where: string; text: string }[] = [];
let lastConversations: ReceivedConversationList | undefined;
let lastUsage: ReceivedUsageReport | undefined;

/** A value as the transport would write it (JSON); one too deep for that says so. */
function serialised(value: unknown): string {
  try {
    return JSON.stringify(value) ?? '';
  } catch (error) {
    return `[not serialisable: ${(error as Error).message}]`;
  }
}

async function call(name: string, input: unknown = {}): Promise<BridgeResult<unknown>> {
  const result = await host.invoke(name, input);
  traffic.push({ where: name, text: serialised(result) });
  return result;
}

function valueOf<T>(result: BridgeResult<unknown>): T {
  if (!result.ok) throw new Error(`bridge call failed: ${serialised(result.error)}`);
  return result.value as T;
}

/** Starts a stream and waits for its end (or 20 s); its chunk and end events are in `events`. */
async function streamed(message: string, profileId?: string): Promise<{ id: string; end?: StreamEndEvent }> {
  const id = randomUUID();
  const started = await call('chat:stream', {
    streamId: id,
    message,
    session_id: `hostile${id.slice(0, 8)}`,
    startedHere: true,
    ...(profileId ? { profileId } : {}),
  });
  if (!started.ok) return { id };
  for (let waited = 0; waited < 20_000; waited += 20) {
    const end = events.find((e) => e.event === 'chat:end' && (e.payload as StreamEndEvent).streamId === id);
    if (end) return { id, end: end.payload as StreamEndEvent };
    await new Promise((r) => setTimeout(r, 20));
  }
  return { id };
}

const streamEvents = (id: string) =>
  events.filter((e) => (e.payload as { streamId?: string } | null)?.streamId === id);

beforeAll(async () => {
  dataDir = tempDir('agent-console-hostile-bridge-');
  const tls = await makeTls();
  [http, https] = await Promise.all([startHostileServer(), startHostileServer({ tls })]);
  core = await ConsoleCore.open({ dataDir, embeddedMock: 'none', keychainService: service });
  host = new BridgeHost(core, { transport: 'web', version: 'test' });
  host.onEvent((event, payload) => {
    events.push({ event, payload });
    traffic.push({ where: `event ${event}`, text: serialised(payload) });
  });
  const sessionOnly = !(await core.vault.keychainChecked()).available;
  const keyId = valueOf<{ id: string }>(
    await call('keys:add', {
      name: 'Hostile',
      secret: KEY,
      baseUrl: http.url('plain'),
      ...(sessionOnly ? { sessionOnly } : {}),
    }),
  ).id;
  const rateKeyId = valueOf<{ id: string }>(
    await call('keys:add', {
      name: 'Hostile rate',
      secret: RATE_KEY,
      baseUrl: http.url('retry-after'),
      sessionOnly: true,
    }),
  ).id;
  const add = async (name: string, input: Record<string, unknown>) => {
    profiles[name] = valueOf<{ id: string }>(await call('profiles:add', { name, ...input })).id;
  };
  for (const mode of ['plain', 'u005f', 'escaped', 'nested'] as Mode[]) {
    await add(mode, { baseUrl: http.url(mode), keyId });
  }
  // Another origin for the same key: confirmed by typing the key again, as the screen asks.
  await add('https', { baseUrl: https.url('plain'), keyId, caCertPem: tls.ca, confirmKey: KEY });
  await add('retry-after', { baseUrl: http.url('retry-after'), keyId: rateKeyId });
  valueOf(await call('profiles:use', { id: profiles.plain }));
}, 60_000);

afterAll(async () => {
  host?.close();
  await core?.close();
  for (const key of core?.vault.list() ?? []) await core.vault.remove(key.id).catch(() => undefined);
  await Promise.all([http?.close(), https?.close()]);
  if (dataDir) removeDir(dataDir);
});

describe('every bridge call that reaches the hostile server', () => {
  test.each(['plain', 'u005f', 'escaped', 'https'])(
    '%s: results and events hold no part of the key',
    async (name) => {
      const profileId = profiles[name] as string;
      valueOf(await call('profiles:use', { id: profileId }));
      const server = name === 'https' ? https : http;
      const mode = name === 'https' ? 'plain' : name;
      const before = server.requests.length;
      const results: [string, BridgeResult<unknown>][] = [];
      const run = async (call_: string, input: unknown = {}) => {
        const result = await call(call_, input);
        results.push([call_, result]);
        return result;
      };
      const agents = await run('agents:list', {});
      const conversations = await run('conversations:list', {});
      await run('threads:list');
      await run('threads:create', { message: 'hello', title: 'A thread' });
      await run('threads:send', { threadId: 'thr_hostile1', message: 'again', agent: 'hostile' });
      const usage = await run('usage:get', {});
      await run('health:get');
      await run('health:check', {});
      await run('health:status', {});
      await run('profiles:test', { id: profileId });
      await run('chat:send', {
        message: 'hello',
        session_id: `send${name.replace(/\W/g, '')}`,
        startedHere: true,
      });
      const done = await streamed('hello');
      const failed = await streamed('stream-error');
      for (const { id } of [done, failed]) await run('chat:frames', { streamId: id });
      if (conversations.ok) lastConversations = conversations.value as ReceivedConversationList;
      if (usage.ok) lastUsage = usage.value as ReceivedUsageReport;

      // The setup holds: every call reached the server and was answered in a shape the client takes.
      const paths = server.requests.slice(before).filter((r) => r.mode === mode);
      expect.soft(paths.length).toBeGreaterThanOrEqual(12);
      expect.soft(paths.every((r) => r.bearer === KEY)).toBe(true);
      expect.soft(results.filter(([, r]) => !r.ok).map(([c, r]) => `${c}: ${serialised(r)}`)).toEqual([]);
      expect.soft((agents.ok && (agents.value as { agents: unknown[] }).agents.length) || 0).toBe(1);
      expect.soft([done.end?.status, failed.end?.status]).toEqual(['done', 'failed']);

      const found = [
        ...results.flatMap(([c, r]) => leaks(c, serialised(r), SECRETS)),
        ...[...streamEvents(done.id), ...streamEvents(failed.id)].flatMap((e) =>
          leaks(`event ${e.event}`, serialised(e.payload), SECRETS),
        ),
      ];
      expect(found).toEqual([]);
    },
    30_000,
  );

  test("the service's own refusals, 401 and 502 bodies that echo the key, are masked (as they are today)", async () => {
    valueOf(await call('profiles:use', { id: profiles.plain }));
    const refused = await call('chat:send', { message: 'unauthorized' });
    expect(refused).toMatchObject({ ok: false, error: { code: 'INVALID_KEY', status: 401 } });
    expect(serialised(refused)).toContain(`***…${KEY.slice(-4)}`);
    const failed = await call('chat:send', { message: 'fail' });
    expect(failed).toMatchObject({ ok: false, error: { status: 502 } });
    expect(leaks('refusals', serialised([refused, failed]), SECRETS)).toEqual([]);
  });
});

describe('what a user exports or finds on disk afterwards', () => {
  test('the Log (JSON and HAR), the CSV exports, transcripts and every file in the data folder', async () => {
    const exports: [string, string][] = [];
    for (const format of ['json', 'har'] as const) {
      const exported = await call('log:export', { format });
      exports.push([`log:export ${format}`, valueOf<{ text: string }>(exported).text]);
    }
    const log = valueOf<{ id: string }[]>(await call('log:list'));
    for (const entry of log)
      exports.push([`log:get ${entry.id}`, serialised(await call('log:get', { id: entry.id }))]);
    // Transcripts are listed per profile: each profile's, in turn.
    let transcripts = 0;
    for (const name of ['plain', 'u005f', 'escaped', 'https']) {
      valueOf(await call('profiles:use', { id: profiles[name] }));
      const listed = valueOf<{ summaries: { kind: 'session' | 'thread'; id: string }[] }>(
        await call('transcripts:list', {}),
      );
      transcripts += listed.summaries.length;
      for (const s of listed.summaries) {
        exports.push([
          `transcripts:get ${name} ${s.id}`,
          serialised(await call('transcripts:get', { kind: s.kind, id: s.id })),
        ]);
      }
    }
    valueOf(await call('profiles:use', { id: profiles.plain }));
    // The Conversations and Usage screens write their CSV from what the bridge gave them.
    if (lastConversations)
      exports.push(['conversations CSV', conversationsCsv(lastConversations.conversations)]);
    if (lastUsage) {
      exports.push(['usage daily CSV', dailyCsv(lastUsage.usage)]);
      exports.push(['usage by-agent CSV', agentsCsv(lastUsage.usage)]);
    }
    expect.soft(log.length).toBeGreaterThan(40);
    expect.soft(transcripts, 'transcripts').toBeGreaterThanOrEqual(12);
    expect.soft(lastConversations && lastUsage).toBeTruthy();
    expect.soft(exports.flatMap(([where, text]) => leaks(where, text, SECRETS))).toEqual([]);
    expect(fileLeaks(dataDir, SECRETS)).toEqual([]);
  });

  test('everything that crossed the bridge, every call and event', () => {
    expect([...new Set(traffic.flatMap(({ where, text }) => leaks(where, text, SECRETS)))]).toEqual([]);
  });
});

describe('replies no client should take in', () => {
  test('a health report and an agents list nested 100,000 deep end in an error that says so', async () => {
    const tested = await call('profiles:test', { id: profiles.nested });
    expect.soft(tested).toMatchObject({ ok: true, value: { ok: false } });
    expect.soft(serialised(tested)).toMatch(/nested/i);
    valueOf(await call('profiles:use', { id: profiles.nested }));
    try {
      for (const name of ['agents:list', 'health:get', 'chat:send']) {
        const result = await call(name, name === 'chat:send' ? { message: 'hello' } : {});
        expect.soft(result.ok, `${name}: ${serialised(result).slice(0, 300)}`).toBe(false);
        expect.soft(result.ok ? '' : result.error.message, name).toMatch(/nested/i);
      }
    } finally {
      valueOf(await call('profiles:use', { id: profiles.plain }));
    }
  });

  test('a 429 asking to wait a day (Retry-After: 86400) pauses the key for at most 10 minutes, and says so', async () => {
    const profileId = profiles['retry-after'] as string;
    valueOf(await call('profiles:use', { id: profileId }));
    try {
      const asked = Date.now();
      const refused = await Promise.race([
        call('chat:send', { message: 'hello', profileId }),
        new Promise<BridgeResult<unknown>>((r) =>
          setTimeout(
            () => r({ ok: false, error: { code: 'TEST_TIMEOUT', message: 'no answer in 20 s' } }),
            20_000,
          ),
        ),
      ]);
      expect.soft(refused).toMatchObject({ ok: false, error: { status: 429 } });
      expect.soft(refused.ok ? '' : refused.error.message).toMatch(/10 minutes/);
      const rate = valueOf<{ pausedUntil?: number } | null>(await call('rate:state'));
      expect(rate?.pausedUntil, 'the key is paused after the 429').toBeDefined();
      const pausedForMin = ((rate?.pausedUntil ?? 0) - asked) / 60_000;
      expect(pausedForMin, `paused for ${pausedForMin.toFixed(1)} minutes`).toBeLessThanOrEqual(10.1);
      expect(leaks('429', serialised([refused, rate]), SECRETS)).toEqual([]);
    } finally {
      valueOf(await call('profiles:use', { id: profiles.plain }));
    }
  }, 30_000);
});
