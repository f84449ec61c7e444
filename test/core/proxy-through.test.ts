// Behind a company proxy, through a real HTTP proxy (the `proxy` package: CONNECT tunnels, Basic
// proxy authentication) and the real mock over HTTPS: `agent-console test` in CI with HTTPS_PROXY
// reaches the service through the proxy, whose wire never carries the key (TLS runs end to end in
// the tunnel); no_proxy sends it direct; a proxy that refuses its password is said to be that; the
// request log names the proxy without its password; webhooks take the proxy too; the embedded
// mock, part of the app, never does.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { RequestLogEntry } from '../../shared/request-log-entry';
import { ApiClient } from '../../electron/core/api-client';
import { ConsoleCore } from '../../electron/core/console-core';
import { postWebhook } from '../../electron/core/monitors/channels/http-post';
import { proxyFromEnvironment } from '../../electron/core/proxy';
import { RateLimiter } from '../../electron/core/rate-limiter';
import { systemClock } from '../../shared/clock';
import { keyRuns } from '../security/leak-check';
import { removeDir, startTestMock, tempDir, type TestMock } from '../support/mock';
import {
  PROXY_PASSWORD as PASSWORD,
  PROXY_USER as USER,
  startProxy,
  type RealProxy,
} from '../support/real-proxy';
import { runNode } from '../support/run-process';

let mock: TestMock;
let proxy: RealProxy;
let dataDir: string;

beforeAll(async () => {
  [mock, proxy] = await Promise.all([startTestMock(), startProxy()]);
  dataDir = tempDir('agent-console-proxy-');
});

afterAll(async () => {
  await Promise.all([mock.stop(), proxy.close()]);
  removeDir(mock.dataDir);
  removeDir(dataDir);
});

const mockHost = (): string => new URL(mock.server.baseUrl).host;

/** `agent-console test` as a CI job behind the proxy runs it: the key in AGENT_API_KEY. */
const ciRun = (env: NodeJS.ProcessEnv) =>
  runNode(
    [
      'bin/agent-console.js',
      'test',
      'examples/agent-tests/echo.yaml',
      '--base-url',
      mock.server.baseUrl,
      '--ca',
      mock.server.caCertPath,
    ],
    {
      env: {
        AGENT_CONSOLE_DATA_DIR: dataDir,
        AGENT_API_KEY: mock.server.keys.pro,
        HTTPS_PROXY: undefined,
        https_proxy: undefined,
        ALL_PROXY: undefined,
        all_proxy: undefined,
        NO_PROXY: undefined,
        no_proxy: undefined,
        ...env,
      },
    },
  );

describe('agent-console test in CI behind the proxy', () => {
  test('goes through the proxy in a tunnel: passes, and the proxy never sees the key or its own password echoed', async () => {
    const before = proxy.tunnels.length;
    const result = await ciRun({ HTTPS_PROXY: proxy.url() });
    expect(result.code, result.stderr).toBe(0);
    expect(proxy.tunnels.slice(before)).toContain(mockHost());
    expect(keyRuns(proxy.wire(), mock.server.keys.pro)).toEqual([]);
    expect(proxy.wire()).not.toContain('Echo: hello');
    expect(`${result.stdout}${result.stderr}`).not.toContain(PASSWORD);
  }, 60_000);

  test('no_proxy with a CIDR range sends it direct: the proxy sees nothing', async () => {
    const before = proxy.tunnels.length;
    const result = await ciRun({ https_proxy: proxy.url(), no_proxy: 'agents.example.com, 127.0.0.0/8' });
    expect(result.code, result.stderr).toBe(0);
    expect(proxy.tunnels.length).toBe(before);
  }, 60_000);

  test('a wrong proxy password is said to be that, naming the proxy and never the password', async () => {
    const wrong = 'wrong-pw-0000000000';
    const result = await ciRun({ HTTPS_PROXY: proxy.url(`${USER}:${wrong}`) });
    expect(result.code).toBe(1);
    const output = `${result.stdout}${result.stderr}`;
    expect(output).toContain(
      `The proxy ${proxy.url('').replace('@', '')} did not connect this console to ${mock.server.baseUrl}: it asks for a user name and password`,
    );
    expect(output).not.toContain(wrong);
    expect(output).not.toContain('Could not reach');
  }, 60_000);

  test('a proxy variable that is not a proxy stops the run in words', async () => {
    const result = await ciRun({ HTTPS_PROXY: 'socks5://127.0.0.1:1080' });
    expect(result.code).not.toBe(0);
    expect(`${result.stdout}${result.stderr}`).toContain(
      'HTTPS_PROXY names a socks5 proxy; the console uses http:// and https:// proxies only.',
    );
  }, 60_000);
});

test('the embedded mock is part of the app: reached directly with a proxy set', async () => {
  const before = proxy.tunnels.length;
  const ownData = tempDir('agent-console-proxy-embedded-');
  try {
    const result = await runNode(['bin/agent-console.js', 'agents', '--json'], {
      env: { AGENT_CONSOLE_DATA_DIR: ownData, HTTPS_PROXY: proxy.url(), NO_PROXY: undefined },
    });
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout).agents).toEqual(
      expect.arrayContaining([expect.objectContaining({ slug: 'echo' })]),
    );
  } finally {
    removeDir(ownData);
  }
  expect(proxy.tunnels.length).toBe(before);
}, 60_000);

test('the request log names the proxy a call went through, without its password', async () => {
  const entries: RequestLogEntry[] = [];
  const env = { HTTPS_PROXY: proxy.url() };
  const client = new ApiClient({
    profileId: 'p',
    baseUrl: mock.server.baseUrl,
    ca: mock.server.ca,
    proxy: proxyFromEnvironment(new URL(mock.server.baseUrl), env),
    keyId: 'k',
    secret: async () => mock.server.keys.pro,
    limiter: new RateLimiter({ clock: systemClock, limit: 300 }),
    clock: systemClock,
    log: (entry) => entries.push(entry),
  });
  try {
    await client.listAgents();
  } finally {
    await client.close();
  }
  expect(entries[0]?.status).toBe(200);
  expect(entries[0]?.proxy).toBe(proxy.url('').replace('@', ''));
  expect(JSON.stringify(entries)).not.toContain(PASSWORD);
});

test('a webhook goes through the proxy the environment names', async () => {
  const bodies: string[] = [];
  const receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (d: Buffer) => (body += d.toString()));
    req.on('end', () => {
      bodies.push(body);
      res.end('ok');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
  const saved = { ...process.env };
  Object.assign(process.env, { HTTP_PROXY: proxy.url() });
  const before = proxy.tunnels.length;
  try {
    await postWebhook(
      url,
      'json',
      {
        monitorId: 'm',
        monitorName: 'Production',
        from: 'healthy',
        to: 'unhealthy',
        at: Date.now(),
        title: 'Production is unhealthy',
        body: 'GET /health answered 503',
        desktop: false,
      },
      { sleep: async () => {} },
    );
  } finally {
    process.env = saved;
    await new Promise((resolve) => receiver.close(resolve));
  }
  expect(bodies[0]).toContain('Production is unhealthy');
  expect(proxy.tunnels.slice(before)).toContain(new URL(url).host);
});

test("the desktop app's system proxy (its settings, PAC files): a profile without its own goes through it, unless proxy variables are set", async () => {
  const asked: string[] = [];
  const open = await startProxy({ open: true });
  const core = await ConsoleCore.open({
    dataDir: tempDir('agent-console-proxy-system-'),
    embeddedMock: 'none',
    openKeychain: async () => ({ available: false, reason: 'not needed here', detail: 'session keys only' }),
    // As Electron's session.resolveProxy answers where a PAC file names the company proxy.
    systemProxy: async (url) => (asked.push(url), `PROXY ${new URL(open.url()).host}; DIRECT`),
  });
  const saved = {
    HTTPS_PROXY: process.env.HTTPS_PROXY,
    https_proxy: process.env.https_proxy,
    NO_PROXY: process.env.NO_PROXY,
  };
  try {
    const key = await core.vault.add({ name: 'k', secret: mock.server.keys.pro, sessionOnly: true });
    const profile = core.profiles.add(
      { name: 'Office', baseUrl: mock.server.baseUrl, keyId: key.id, caCertPem: mock.server.ca },
      { bindFirstOrigin: true },
    );
    const before = open.tunnels.length;
    await core.client(profile).listAgents();
    expect(asked).toEqual([mock.server.baseUrl]);
    expect(open.tunnels.slice(before)).toEqual([mockHost()]);
    expect(core.requestLog.list().at(-1)?.proxy).toBe(`http://${new URL(open.url()).host}`);

    // Proxy variables set (here: one that sends this service direct): they decide, the system is not asked.
    Object.assign(process.env, {
      HTTPS_PROXY: 'http://127.0.0.1:9',
      https_proxy: undefined,
      NO_PROXY: '127.0.0.1',
    });
    const direct = core.profiles.add(
      { name: 'Direct', baseUrl: mock.server.baseUrl, keyId: key.id, caCertPem: mock.server.ca },
      { bindFirstOrigin: true },
    );
    const tunnels = open.tunnels.length;
    await core.client(direct).listAgents();
    expect(asked).toHaveLength(1);
    expect(open.tunnels.length).toBe(tunnels);
  } finally {
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
    await core.close();
    await open.close();
  }
}, 60_000);
