// The long-running front ends behind a company proxy, as a user starts them: the web host (the
// app's core, driven through its bridge) and the headless monitor (`agent-console monitor`) reach
// the real mock only through a real proxy when HTTPS_PROXY is set; the proxy sees the tunnels and
// never the key.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { keyRuns } from '../security/leak-check';
import { hostCall, startMonitorProcess, startWebHost } from '../security/hostile-processes';
import {
  clearService,
  filesContaining,
  keychainAccounts,
  keychainEntry,
  testService,
} from '../support/keychain';
import { removeDir, startTestMock, tempDir, type TestMock } from '../support/mock';
import { PROXY_PASSWORD, PROXY_USER, startProxy, type RealProxy } from '../support/real-proxy';
import { until } from '../support/until';

let mock: TestMock;
let proxy: RealProxy;
let dir: string;

beforeAll(async () => {
  [mock, proxy] = await Promise.all([startTestMock(), startProxy()]);
  dir = tempDir('agent-console-proxy-processes-');
});

afterAll(async () => {
  await Promise.all([mock.stop(), proxy.close()]);
  removeDir(mock.dataDir);
  removeDir(dir);
});

const mockHost = (): string => new URL(mock.server.baseUrl).host;

test('the web host: a profile on the service lists its agents through the proxy', async () => {
  const web = await startWebHost(join(dir, 'web'), {
    AGENT_CONSOLE_KEYCHAIN_SERVICE: testService('proxy-web'),
    HTTPS_PROXY: proxy.url(),
    NO_PROXY: undefined,
  });
  try {
    const before = proxy.tunnels.length;
    const key = await hostCall(web, 'keys:add', {
      name: 'Staging',
      secret: mock.server.keys.pro,
      baseUrl: mock.server.baseUrl,
      sessionOnly: true,
    });
    const profile = await hostCall(web, 'profiles:add', {
      name: 'Staging',
      baseUrl: mock.server.baseUrl,
      keyId: (key.value as { id: string }).id,
      caCertPem: readFileSync(mock.server.caCertPath, 'utf8'),
    });
    expect(profile.ok, profile.text).toBe(true);
    expect((await hostCall(web, 'profiles:use', { id: (profile.value as { id: string }).id })).ok).toBe(true);
    const agents = await hostCall(web, 'agents:list', {});
    expect(agents.ok, agents.text).toBe(true);
    expect(agents.text).toContain('"echo"');
    expect(proxy.tunnels.slice(before)).toContain(mockHost());
    expect(keyRuns(proxy.wire(), mock.server.keys.pro)).toEqual([]);
  } finally {
    await web.stop();
  }
}, 90_000);

test("the headless monitor: health polls go through the proxy, and the metrics carry the service's report", async () => {
  const config = join(dir, 'monitors.yaml');
  writeFileSync(
    config,
    JSON.stringify({
      monitors: [
        {
          name: 'Staging',
          service: { baseUrl: mock.server.baseUrl, ca: mock.server.caCertPath },
          health: { every: '10s' },
        },
      ],
    }),
  );
  const before = proxy.tunnels.length;
  const monitor = await startMonitorProcess(config, join(dir, 'monitor-data'), mock.server.keys.pro, {
    HTTPS_PROXY: proxy.url(),
    NO_PROXY: undefined,
  });
  try {
    await until(
      "the monitor's first health report in its metrics",
      async () => {
        const metrics = await (await fetch(`${monitor.metricsUrl}/metrics`)).text();
        return /health_component_status\{[^}]*monitor="Staging"[^}]*\} 1/.test(metrics) ? true : undefined;
      },
      30_000,
    );
    expect(proxy.tunnels.slice(before)).toContain(mockHost());
    expect(keyRuns(proxy.wire(), mock.server.keys.pro)).toEqual([]);
  } finally {
    await monitor.stop();
  }
}, 90_000);

test("a profile's own proxy: its password from the keychain, never in a file; `none` goes direct", async () => {
  const service = testService('proxy-profile');
  const dataDir = join(dir, 'web-own-proxy');
  // The environment's proxy leads nowhere: the profile's own setting is what is used.
  const web = await startWebHost(dataDir, {
    AGENT_CONSOLE_KEYCHAIN_SERVICE: service,
    HTTPS_PROXY: 'http://127.0.0.1:9',
    NO_PROXY: undefined,
  });
  try {
    const key = await hostCall(web, 'keys:add', {
      name: 'Staging',
      secret: mock.server.keys.pro,
      baseUrl: mock.server.baseUrl,
      sessionOnly: true,
    });
    const proxyUrl = proxy.url(PROXY_USER);
    const inUrl = await hostCall(web, 'profiles:add', {
      name: 'Leaky',
      baseUrl: mock.server.baseUrl,
      keyId: (key.value as { id: string }).id,
      proxy: proxy.url(),
    });
    expect(inUrl.ok).toBe(false);
    expect(inUrl.text).toContain("Leave the password out of the proxy's URL");
    expect(inUrl.text).not.toContain(PROXY_PASSWORD);

    const added = await hostCall(web, 'profiles:add', {
      name: 'Staging',
      baseUrl: mock.server.baseUrl,
      keyId: (key.value as { id: string }).id,
      caCertPem: readFileSync(mock.server.caCertPath, 'utf8'),
      proxy: proxyUrl,
      proxyPassword: PROXY_PASSWORD,
    });
    expect(added.ok, added.text).toBe(true);
    const profile = added.value as { id: string; proxy: string; proxyPasswordSavedAt?: number };
    expect(profile.proxy).toBe(proxyUrl);
    expect(profile.proxyPasswordSavedAt).toEqual(expect.any(Number));
    const account = `proxy-password:${profile.id}`;
    expect(keychainEntry(service, account).getPassword()).toBe(PROXY_PASSWORD);
    expect(filesContaining(dataDir, PROXY_PASSWORD)).toEqual([]);

    await hostCall(web, 'profiles:use', { id: profile.id });
    const before = proxy.tunnels.length;
    const agents = await hostCall(web, 'agents:list', {});
    expect(agents.ok, agents.text).toBe(true);
    expect(proxy.tunnels.slice(before)).toContain(mockHost());

    const direct = await hostCall(web, 'profiles:update', {
      id: profile.id,
      name: 'Staging',
      baseUrl: mock.server.baseUrl,
      keyId: (key.value as { id: string }).id,
      proxy: 'none',
    });
    expect(direct.ok, direct.text).toBe(true);
    expect((direct.value as { proxyPasswordSavedAt?: number }).proxyPasswordSavedAt).toBeUndefined();
    expect(await keychainAccounts(service)).not.toContain(account);
    const after = proxy.tunnels.length;
    expect((await hostCall(web, 'agents:list', {})).ok).toBe(true);
    expect(proxy.tunnels.length).toBe(after);
  } finally {
    await web.stop();
    await clearService(service);
  }
}, 90_000);
