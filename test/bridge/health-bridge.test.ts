// The health monitor over the bridge: its calls validate their input (an interval under 10 s is
// refused before the core sees it), a check answers with its sample and is pushed as
// `health:update`, the interval is kept in settings.json, and a profile switch is followed.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { BridgeEvents } from '../../shared/bridge';
import type { HealthUpdate } from '../../shared/health';
import { BridgeHost } from '../../electron/bridge/bridge-host';
import { ConsoleCore } from '../../electron/core/console-core';
import { removeDir, tempDir } from '../support/mock';

let core: ConsoleCore;
let host: BridgeHost;
let dataDir: string;
const updates: HealthUpdate[] = [];

beforeAll(async () => {
  dataDir = tempDir('agent-console-health-bridge-');
  core = await ConsoleCore.open({
    dataDir,
    embeddedMock: 'in-process',
    keychainService: `agent-console-health-bridge-${randomBytes(4).toString('hex')}`,
  });
  host = new BridgeHost(core, { transport: 'web', version: 'test' });
  host.onEvent((event: keyof BridgeEvents, payload: unknown) => {
    if (event === 'health:update') updates.push(payload as HealthUpdate);
  });
});
afterAll(async () => {
  host.close();
  for (const key of core.vault.list()) await core.vault.remove(key.id).catch(() => undefined);
  await core.close();
  removeDir(dataDir);
});

test('an interval under 10 s, or a range that does not exist, is refused with BAD_INPUT', async () => {
  expect(await host.invoke('health:configure', { intervalMs: 5_000 })).toMatchObject({
    ok: false,
    error: { code: 'BAD_INPUT' },
  });
  expect(await host.invoke('health:timeline', { range: '30d' })).toMatchObject({
    ok: false,
    error: { code: 'BAD_INPUT' },
  });
  expect(core.health.intervalMs).toBe(60_000);
});

test('the interval is changed through the bridge and kept in settings.json', async () => {
  const result = await host.invoke('health:configure', { intervalMs: 30_000 });
  expect(result).toMatchObject({ ok: true, value: { intervalMs: 30_000 } });
  expect(core.settings.read().healthIntervalMs).toBe(30_000);
});

test('a check answers with its sample and is pushed as health:update, first status confirmed', async () => {
  const result = await host.invoke('health:check', {});
  expect(result).toMatchObject({
    ok: true,
    value: { sample: { status: 'healthy', version: '1.0.0-mock', manual: true }, state: { checking: false } },
  });
  const last = updates.at(-1);
  expect(last?.sample?.status).toBe('healthy');
  expect(last?.transition).toMatchObject({ from: 'unknown', to: 'healthy', notify: false });
  const status = await host.invoke('health:status', {});
  expect(status).toMatchObject({ ok: true, value: { profileId: 'embedded-mock', confirmed: 'healthy' } });
  const timeline = await host.invoke('health:timeline', { range: '1h' });
  expect(timeline.ok && (timeline.value as { points: unknown[] }).points).toHaveLength(1);
});

test('a profile switch is followed: the new profile starts unknown', async () => {
  const key = await core.vault.add({
    name: 'other',
    secret: core.mock?.keys.ultra as string,
    sessionOnly: true,
    origins: [new URL(core.mock?.baseUrl as string).origin],
  });
  const other = core.profiles.add({
    name: 'Other',
    baseUrl: core.mock?.baseUrl as string,
    keyId: key.id,
    caCertPath: core.mock?.caCertPath as string,
  });
  const before = updates.length;
  expect(await host.invoke('profiles:use', { id: other.id })).toMatchObject({ ok: true });
  expect(updates.length).toBeGreaterThan(before);
  expect(updates.at(-1)?.state).toMatchObject({ profileId: other.id, confirmed: 'unknown' });
  expect(updates.at(-1)?.state.last).toBeUndefined();
  expect(await host.invoke('health:check', {})).toMatchObject({
    ok: true,
    value: { sample: { profileId: other.id } },
  });
});

test('a hand-edited interval out of bounds in settings.json falls back to the default instead of stopping the start', async () => {
  const folder = tempDir('agent-console-health-interval-');
  const { writeFileSync } = await import('node:fs');
  const { join } = await import('node:path');
  for (const intervalMs of [90_000_000, 1_000]) {
    writeFileSync(join(folder, 'settings.json'), JSON.stringify({ healthIntervalMs: intervalMs }));
    const opened = await ConsoleCore.open({
      dataDir: folder,
      embeddedMock: 'none',
      monitorHealth: true,
      keychainService: `agent-console-health-interval-${randomBytes(4).toString('hex')}`,
    });
    try {
      expect(opened.health.intervalMs).toBe(60_000);
    } finally {
      await opened.close();
    }
  }
  removeDir(folder);
});
