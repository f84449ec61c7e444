// A chat stream that never ends: the hostile server sends a chunk every 5 s, forever, so no idle
// timeout ever fires. The console promises 65 s for a chat (docs/architecture.md: the service
// gives up at 60): every front end cuts such a stream by then and says so in words that name the
// 65 seconds — the bridge (an in-process core, as the app runs it), the web host, the CLI's `chat`
// and `test`, and the headless monitor's synthetic check. The processes stay up. Every front end
// meets the stream at once, in one test, so the suite waits for the 65 s only once.
import { randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { BridgeHost } from '../../electron/bridge/bridge-host';
import { ConsoleCore } from '../../electron/core/console-core';
import type { StreamEndEvent } from '../../shared/bridge';
import { clearService, testService } from '../support/keychain';
import { removeDir, tempDir } from '../support/mock';
import { ensureWebHostBuilt } from '../support/web-host';
import { startHostileServer, type HostileServer } from './hostile-server';
import {
  followBridgeEvents,
  hostCall,
  startMonitorProcess,
  startWebHost,
  type BridgeEventLog,
  type MonitorProcess,
  type WebHost,
} from './hostile-processes';
import { journal, runCli, tail } from './hostile-support';
import { plantKey } from './leak-check';

const KEY = plantKey('hk8');
/** How long each front end is given before the test calls it endless: the 65 s, and some. */
const GIVE_UP_MS = 85_000;
const service = testService('hostile-endless');
let dir: string;
let http: HostileServer;
let core: ConsoleCore;
let bridge: BridgeHost;
let keychainShared = false;
let profileId: string;
let web: WebHost;
let webEvents: BridgeEventLog;
let webProfile: string;
let monitor: MonitorProcess;
let monitorStarted: number;
const events: { event: string; payload: unknown }[] = [];

/** What one front end made of the stream: how it ended (or that it had not), in how long. */
interface Outcome {
  ended: boolean;
  ms: number;
  said: string;
}

async function waitFor<T>(probe: () => T | undefined, started: number): Promise<T | undefined> {
  while (Date.now() - started < GIVE_UP_MS) {
    const found = probe();
    if (found !== undefined) return found;
    await new Promise((r) => setTimeout(r, 250));
  }
  return undefined;
}

const endOf = (log: { event: string; payload: unknown }[], streamId: string) => () =>
  log.find((e) => e.event === 'chat:end' && (e.payload as StreamEndEvent).streamId === streamId)?.payload as
    StreamEndEvent | undefined;

async function viaBridge(): Promise<Outcome> {
  const started = Date.now();
  const streamId = randomUUID();
  const result = await bridge.invoke('chat:stream', { streamId, message: 'hello', profileId });
  if (!result.ok) return { ended: true, ms: 0, said: JSON.stringify(result.error) };
  const end = await waitFor(endOf(events, streamId), started);
  if (!end) await bridge.invoke('chat:cancel', { streamId });
  return {
    ended: end !== undefined,
    ms: Date.now() - started,
    said: JSON.stringify(end?.error ?? end?.status ?? null),
  };
}

async function viaWebHost(): Promise<Outcome> {
  const started = Date.now();
  const streamId = randomUUID();
  const result = await hostCall(web, 'chat:stream', { streamId, message: 'hello', profileId: webProfile });
  if (!result.ok) return { ended: true, ms: 0, said: result.text };
  const end = await waitFor(endOf(webEvents.events, streamId), started);
  const after = await hostCall(web, 'app:info');
  return {
    ended: end !== undefined,
    ms: Date.now() - started,
    said: `${JSON.stringify(end?.error ?? end?.status ?? null)}; afterwards app:info ${after.ok ? 'answered' : after.text}`,
  };
}

async function viaCli(args: string[], env: Record<string, string | undefined>): Promise<Outcome> {
  // `test` takes its options after the command, as every command does.
  const run = await runCli([...args, '--data-dir', join(dir, 'console')], {
    env: { AGENT_CONSOLE_KEYCHAIN_SERVICE: service, ...env },
    timeoutMs: GIVE_UP_MS,
  });
  return {
    ended: !run.timedOut,
    ms: run.ms,
    said: `exit ${run.code}: ${run.stdout.slice(-300)} ${run.stderr.slice(-300)}`,
  };
}

async function viaMonitor(): Promise<Outcome> {
  const file = join(dir, 'monitor-data', 'monitors', 'endless', 'synthetic.jsonl');
  const line = await waitFor(() => journal(file).lines[1], monitorStarted);
  const scraped = await fetch(`${monitor.metricsUrl}/metrics`).then(
    (r) => `/metrics ${r.status}`,
    (e: unknown) => `/metrics ${String(e)}; the monitor ${monitor.ended()}: ${tail(monitor.stderr())}`,
  );
  return {
    ended: line !== undefined,
    ms: Date.now() - monitorStarted,
    said: `${line ?? '(no result)'}; ${scraped}`,
  };
}

beforeAll(async () => {
  await ensureWebHostBuilt();
  dir = tempDir('agent-console-hostile-endless-');
  http = await startHostileServer();
  const suite = join(dir, 'endless.yaml');
  writeFileSync(suite, 'name: Endless\ncases:\n  - name: streams\n    message: hello\n');
  writeFileSync(
    join(dir, 'monitors.yaml'),
    JSON.stringify({
      monitors: [
        {
          name: 'Endless',
          service: { baseUrl: http.url('endless') },
          health: { every: '1h' },
          synthetic: { every: '1h', suite: 'endless.yaml' },
        },
      ],
    }),
  );
  // The core the app would run; its key in the keychain (when there is one) so the CLI shares it.
  core = await ConsoleCore.open({
    dataDir: join(dir, 'console'),
    embeddedMock: 'none',
    keychainService: service,
  });
  bridge = new BridgeHost(core, { transport: 'web', version: 'test' });
  bridge.onEvent((event, payload) => events.push({ event, payload }));
  keychainShared = (await core.vault.keychainChecked()).available;
  const key = await core.vault.add({
    name: 'Hostile',
    secret: KEY,
    sessionOnly: !keychainShared,
    origins: [new URL(http.url('endless')).origin],
  });
  profileId = core.profiles.add({ name: 'endless', baseUrl: http.url('endless'), keyId: key.id }).id;

  web = await startWebHost(join(dir, 'web'), {
    AGENT_CONSOLE_KEYCHAIN_SERVICE: testService('hostile-endless-web'),
  });
  webEvents = await followBridgeEvents(web.url);
  const webKey = await hostCall(web, 'keys:add', {
    name: 'Hostile',
    secret: KEY,
    baseUrl: http.url('endless'),
    sessionOnly: true,
  });
  const added = await hostCall(web, 'profiles:add', {
    name: 'endless',
    baseUrl: http.url('endless'),
    keyId: (webKey.value as { id: string } | undefined)?.id ?? '',
  });
  if (!added.ok) throw new Error(`profiles:add: ${added.text}`);
  webProfile = (added.value as { id: string }).id;

  monitorStarted = Date.now();
  monitor = await startMonitorProcess(join(dir, 'monitors.yaml'), join(dir, 'monitor-data'), KEY);
}, 150_000);

afterAll(async () => {
  webEvents?.close();
  bridge?.close();
  await Promise.all([web?.stop(), monitor?.stop(), core?.close()]);
  await http?.close();
  await clearService(service).catch(() => undefined);
  if (dir) removeDir(dir);
});

describe('a chat stream that never ends', () => {
  test('is cut by 65 s in every front end, with words that say so; the processes stay up', async () => {
    const runs: Promise<readonly [string, Outcome]>[] = [
      viaBridge().then((o) => ['bridge chat:stream', o] as const),
      viaWebHost().then((o) => ['web host chat:stream', o] as const),
      viaCli(['test', join(dir, 'endless.yaml'), '--base-url', http.url('endless')], {
        AGENT_API_KEY: KEY,
      }).then((o) => ['cli test', o] as const),
      viaMonitor().then((o) => ['monitor synthetic check', o] as const),
    ];
    // `chat` needs the key in the keychain the in-process core put it in.
    if (keychainShared)
      runs.push(viaCli(['chat', '--profile', 'endless', 'hello'], {}).then((o) => ['cli chat', o] as const));
    const outcomes = await Promise.all(runs);
    // One list: each front end that kept the stream open, or ended it without naming the 65 s.
    const problems = outcomes.flatMap(([who, o]) => {
      if (!o.ended) return [`${who}: still open after ${o.ms} ms: ${o.said.slice(0, 300)}`];
      if (!/\b65\b/.test(o.said))
        return [`${who}: ended after ${o.ms} ms without naming the 65 s: ${o.said.slice(0, 300)}`];
      return [];
    });
    expect.soft(problems).toEqual([]);
    expect.soft(web.ended(), `the web host: ${tail(web.stderr())}`).toBeNull();
    expect(monitor.ended(), `the monitor: ${tail(monitor.stderr())}`).toBeNull();
  }, 115_000);
});
