// Monitors with the real mock on two profiles — two mock servers, two keys, two
// limiters: one degraded while the other is healthy, a synthetic check that fails while health
// stays healthy, notifications once per confirmed change and once on recovery, and the webhook
// received by a local receiver with the documented payloads.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { MonitorNotification } from '../../shared/monitor';
import { ConsoleCore } from '../../electron/core/console-core';
import type { Monitor } from '../../electron/core/monitors/monitor';
import { removeDir, startTestMock, tempDir, type TestMock } from '../support/mock';
import { addMockProfile } from '../support/watched-service';

let dataDir: string;
let core: ConsoleCore;
let staging: TestMock;
let production: TestMock;
let receiver: Server;
let receiverUrl: string;
const received: { path: string; body: unknown }[] = [];
const notifications: MonitorNotification[] = [];

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    let text = '';
    req.on('data', (d: Buffer) => (text += d.toString()));
    req.on('end', () => resolve(text));
  });
}

async function until(what: string, cond: () => boolean, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

beforeAll(async () => {
  dataDir = tempDir('agent-console-monitors-');
  staging = await startTestMock();
  production = await startTestMock();
  for (const mock of [staging, production]) {
    mock.server.control.setAgent('echo', { latencyMs: 0, chunkDelayMs: 0 });
  }
  receiver = createServer((req, res) => {
    void readBody(req).then((text) => {
      received.push({ path: req.url ?? '', body: JSON.parse(text) });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const address = receiver.address();
  receiverUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;

  core = await ConsoleCore.open({
    dataDir,
    embeddedMock: 'none',
    keychainService: `agent-console-monitors-${process.pid}`,
  });
  for (const [name, mock] of [
    ['Staging', staging],
    ['Production', production],
  ] as const) {
    await addMockProfile(core, name, mock);
  }
  await core.openMonitors();
  core.monitors.subscribe((event) => {
    if (event.type === 'notification') notifications.push(event.notification);
  });
}, 30_000);

afterAll(async () => {
  // Removing a monitor deletes its webhook URLs from the secret store (the keychain under npm test).
  for (const monitor of core.monitors.all()) await core.monitors.remove(monitor.id);
  await core.close();
  await staging.stop();
  await production.stop();
  await new Promise((resolve) => receiver.close(resolve));
  removeDir(dataDir);
});

describe('two environments at once', () => {
  let stagingMonitor: Monitor;
  let productionMonitor: Monitor;

  test('each profile is watched through its own key: staging degraded while production is healthy', async () => {
    const added = [
      await core.monitors.add({ name: 'Staging', profile: 'Staging' }),
      await core.monitors.add({
        name: 'Production',
        profile: 'Production',
        synthetic: { every: '1m', agents: ['echo'], message: 'ping', assert: [{ contains: 'ping' }] },
        newChannels: [
          { kind: 'webhook', url: `${receiverUrl}/json`, format: 'json' },
          { kind: 'webhook', url: `${receiverUrl}/slack`, format: 'slack' },
        ],
      }),
    ];
    stagingMonitor = core.monitors.get(added[0]?.id as string) as Monitor;
    productionMonitor = core.monitors.get(added[1]?.id as string) as Monitor;
    staging.server.control.setHealth({ vps: 'degraded' });

    await Promise.all([stagingMonitor.health.checkNow(), productionMonitor.health.checkNow()]);
    await productionMonitor.checkSyntheticNow();

    const rows = core.monitors.list();
    expect(rows.find((r) => r.name === 'Staging')).toMatchObject({ status: 'degraded' });
    expect(rows.find((r) => r.name === 'Production')).toMatchObject({
      status: 'healthy',
      synthetic: { failing: false, passed24h: { passed: 1, runs: 1 } },
    });
    expect(core.monitors.worst()).toBe('degraded');
    // Each poll went to its own service with its own key.
    expect(staging.server.control.requests().filter((r) => r.path === '/api/v1/health')).toHaveLength(1);
    expect(production.server.control.requests().filter((r) => r.path === '/api/v1/health')).toHaveLength(1);
    // The monitors file names profiles and keeps no secret: the webhook URLs are in the secret store.
    const file = readFileSync(join(dataDir, 'monitors.yaml'), 'utf8');
    expect(file).toContain('profile: Production');
    expect(file).not.toContain(receiverUrl);
    expect(file).not.toContain(production.server.keys.pro);
  });

  test('an agent switched to error fails the synthetic check while health stays healthy; told once, recovery once', async () => {
    const before = notifications.length;
    const hooksBefore = received.length;
    production.server.control.setAgent('echo', { status: 'error' });
    await productionMonitor.checkSyntheticNow();
    // One failed run is not yet news: it must hold for two runs.
    expect(productionMonitor.currentStatus()).toBe('healthy');
    await productionMonitor.checkSyntheticNow();
    await productionMonitor.health.checkNow();
    expect(productionMonitor.currentStatus()).toBe('synthetic-failing');
    expect(productionMonitor.health.state().confirmed).toBe('healthy');
    const row = core.monitors.list().find((r) => r.name === 'Production');
    expect(row?.synthetic?.last?.[0]).toMatchObject({ agent: 'echo', passed: false });
    expect(row?.synthetic?.last?.[0]?.failure).toMatch(/AGENT_ERROR|502/);

    // More failing runs are no more news.
    await productionMonitor.checkSyntheticNow();
    const failing = notifications.slice(before);
    expect(failing).toHaveLength(1);
    expect(failing[0]).toMatchObject({
      to: 'synthetic-failing',
      from: 'healthy',
      title: 'Synthetic check failing',
    });
    await until('both webhooks', () => received.length >= hooksBefore + 2);

    production.server.control.setAgent('echo', { status: 'deployed' });
    await productionMonitor.checkSyntheticNow();
    await productionMonitor.checkSyntheticNow();
    expect(productionMonitor.currentStatus()).toBe('healthy');
    await productionMonitor.checkSyntheticNow();
    const told = notifications.slice(before);
    expect(told.map((n) => n.to)).toEqual(['synthetic-failing', 'healthy']);
    expect(told[1]?.title).toBe('Synthetic check passing again');
    await until('the recovery webhooks', () => received.length >= hooksBefore + 4);
    expect(received.length).toBe(hooksBefore + 4);
  });

  test('the webhook payloads: our JSON and a Slack-compatible one', () => {
    const json = received.find(
      (r) => r.path === '/json' && (r.body as { status: string }).status === 'synthetic-failing',
    );
    expect(json?.body).toMatchObject({
      source: 'agent-console',
      monitor: { name: 'Production' },
      status: 'synthetic-failing',
      previous: 'healthy',
      title: 'Synthetic check failing',
    });
    expect((json?.body as { at: string }).at).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    const slack = received.find((r) => r.path === '/slack');
    expect(slack?.body).toMatchObject({ text: expect.stringContaining('Synthetic check failing') });
    expect((slack?.body as { blocks: unknown[] }).blocks[0]).toMatchObject({
      type: 'section',
      text: { type: 'mrkdwn' },
    });
  });

  test('"Send test notification" reaches every channel of the monitor', async () => {
    const hooksBefore = received.length;
    const result = await core.monitors.sendTest(productionMonitor.id);
    expect(result).toEqual({ desktop: true, webhooks: 2, failures: [] });
    expect(
      received
        .slice(hooksBefore)
        .map((r) => r.path)
        .sort(),
    ).toEqual(['/json', '/slack']);
    expect(received.at(-2)?.body).toMatchObject({ title: 'Test notification' });
  });

  test('a confirmed health change notifies once; muted, it notifies nobody', async () => {
    const before = notifications.length;
    staging.server.control.setHealth({ vps: 'operational' });
    await stagingMonitor.health.checkNow();
    expect(stagingMonitor.currentStatus()).toBe('degraded');
    await stagingMonitor.health.checkNow();
    expect(stagingMonitor.currentStatus()).toBe('healthy');
    await stagingMonitor.health.checkNow();
    expect(notifications.slice(before).map((n) => [n.monitorName, n.to, n.desktop])).toEqual([
      ['Staging', 'healthy', true],
    ]);

    const view = await core.monitors.update(stagingMonitor.id, {
      name: 'Staging',
      profile: 'Staging',
      notify: { muted: true },
    });
    expect(view.settings.muted).toBe(true);
    const muted = core.monitors.get(stagingMonitor.id) as Monitor;
    staging.server.control.setHealth({ api: 'down' });
    await muted.health.checkNow();
    await muted.health.checkNow();
    await muted.health.checkNow();
    expect(muted.currentStatus()).toBe('unhealthy');
    const last = notifications.at(-1);
    expect(last).toMatchObject({ monitorName: 'Staging', desktop: false });
  });
});
