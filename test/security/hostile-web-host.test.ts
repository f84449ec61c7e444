// The web host (`npm run web`, its built bundle as a process of its own) through its bridge over
// HTTP, against replies no client should take in: a health report and an agents list nested
// 100,000 deep, and a 300 MB chat reply. Each ends in an error a user can read; the host stays up,
// answers afterwards, and holds under 200 MB of memory while the 300 MB arrive. One host per case,
// so that one host's end does not hide what the other does.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { testService } from '../support/keychain';
import { removeDir, tempDir } from '../support/mock';
import { ensureWebHostBuilt } from '../support/web-host';
import { startHostileServer, type HostileServer, type Mode } from './hostile-server';
import { hostCall, startWebHost, type WebHost } from './hostile-processes';
import { tail, watchRss } from './hostile-support';
import { plantKey } from './leak-check';

const KEY = plantKey('hk7');
let dir: string;
let http: HostileServer;
let nestedHost: WebHost;
let hugeHost: WebHost;
/** Profile ids by host and mode. */
const profiles = new Map<WebHost, Record<string, string>>();

/** A web host with a session key and a profile per mode, the plain one active. */
async function hostWith(name: string, modes: Mode[]): Promise<WebHost> {
  const host = await startWebHost(join(dir, name), {
    AGENT_CONSOLE_KEYCHAIN_SERVICE: testService('hostile-web'),
  });
  const key = await hostCall(host, 'keys:add', {
    name: 'Hostile',
    secret: KEY,
    baseUrl: http.url('plain'),
    sessionOnly: true,
  });
  if (!key.ok) throw new Error(`keys:add: ${key.text}`);
  const ids: Record<string, string> = {};
  for (const mode of ['plain', ...modes]) {
    const added = await hostCall(host, 'profiles:add', {
      name: mode,
      baseUrl: http.url(mode),
      keyId: (key.value as { id: string }).id,
    });
    if (!added.ok) throw new Error(`profiles:add ${mode}: ${added.text}`);
    ids[mode] = (added.value as { id: string }).id;
  }
  const used = await hostCall(host, 'profiles:use', { id: ids.plain });
  if (!used.ok) throw new Error(`profiles:use: ${used.text}`);
  profiles.set(host, ids);
  return host;
}

async function stillUp(host: WebHost): Promise<void> {
  const info = await hostCall(host, 'app:info');
  expect.soft(info.ok, `afterwards, app:info: ${info.text}`).toBe(true);
  expect.soft(host.ended(), `stderr: ${tail(host.stderr())}`).toBeNull();
}

beforeAll(async () => {
  await ensureWebHostBuilt();
  dir = tempDir('agent-console-hostile-web-');
  http = await startHostileServer();
  [nestedHost, hugeHost] = await Promise.all([hostWith('nested', ['nested']), hostWith('huge', ['huge'])]);
}, 150_000);

afterAll(async () => {
  await Promise.all([nestedHost?.stop(), hugeHost?.stop()]);
  await http?.close();
  if (dir) removeDir(dir);
});

describe('the web host meeting replies no client should take in', () => {
  test('a health report and an agents list nested 100,000 deep end in an error that says so; the host stays up', async () => {
    const host = nestedHost;
    const ids = profiles.get(host) as Record<string, string>;
    const tested = await hostCall(host, 'profiles:test', { id: ids.nested });
    expect.soft(tested.text, 'profiles:test').toMatch(/"ok":false/);
    expect.soft(tested.text, 'profiles:test').toMatch(/nested/i);
    // The active profile: the screens' calls, and the host's own health poll of it.
    await hostCall(host, 'profiles:use', { id: ids.nested });
    for (const name of ['agents:list', 'health:get']) {
      const answer = await hostCall(host, name);
      expect.soft(answer.ok, `${name}: ${answer.text}`).toBe(false);
      expect.soft(answer.message, `${name}: ${answer.text}`).toMatch(/nested/i);
    }
    await new Promise((r) => setTimeout(r, 1_500));
    await hostCall(host, 'profiles:use', { id: ids.plain });
    await stillUp(host);
  }, 60_000);

  test('a 300 MB chat reply ends in an error that says it is too large; the host stays up, under 200 MB', async () => {
    const host = hugeHost;
    const ids = profiles.get(host) as Record<string, string>;
    const rss = watchRss(host.child.pid as number);
    const before = rss.max();
    const answer = await hostCall(host, 'chat:send', { message: 'hello', profileId: ids.huge });
    rss.stop();
    expect.soft(answer.ok, `chat:send: ${answer.text}`).toBe(false);
    expect.soft(answer.message, 'chat:send').toMatch(/larger than|too large/i);
    expect
      .soft(rss.max(), `the most memory (VmRSS, MB) the web host held (${before.toFixed(0)} MB before)`)
      .toBeLessThan(200);
    await stillUp(host);
  }, 100_000);
});
