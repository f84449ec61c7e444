// "Copy diagnostics": the core's own log is written (start, profile switches, warnings,
// failed requests, the bridge's internal errors) and the diagnostics text carries the version,
// the platform, the settings and the last log lines, and never a key.
import { randomBytes } from 'node:crypto';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { BridgeHost } from '../../electron/bridge/bridge-host';
import { ConsoleCore } from '../../electron/core/console-core';
import { removeDir, tempDir } from '../support/mock';

const KEY = `ams_${randomBytes(16).toString('hex')}`;
const settle = () => new Promise((r) => setTimeout(r, 50));

let core: ConsoleCore;
let host: BridgeHost;
let dataDir: string;
const warnings: string[] = [];

beforeAll(async () => {
  dataDir = tempDir('agent-console-diagnostics-');
  core = await ConsoleCore.open({
    dataDir,
    embeddedMock: 'in-process',
    appVersion: '9.8.7-test',
    keychainService: `agent-console-diagnostics-${randomBytes(4).toString('hex')}`,
    onWarning: (message) => warnings.push(message),
  });
  host = new BridgeHost(core, { transport: 'web', version: '9.8.7-test' });
});
afterAll(async () => {
  host.close();
  await core.close();
  removeDir(dataDir);
});

describe('the app log', () => {
  test('lives in <data dir>/logs and records the start', async () => {
    await core.vault.keychainChecked();
    await settle();
    expect(core.appLog.path.startsWith(dataDir)).toBe(true);
    expect(core.appLog.path).toMatch(/[/\\]logs[/\\]agent-console\.log$/);
    const text = readFileSync(core.appLog.path, 'utf8');
    expect(text).toContain('Agent Console 9.8.7-test starting');
    expect(text).toContain('Started: active profile');
    expect(text).toMatch(/Keychain (available|unavailable)/);
    if (process.platform !== 'win32') expect(statSync(core.appLog.path).mode & 0o777).toBe(0o600);
  });

  test('records profile switches and failed requests (status 0), keys masked', async () => {
    const added = await host.invoke('keys:add', {
      name: 'planted',
      secret: KEY,
      baseUrl: 'http://127.0.0.1:9',
      sessionOnly: true,
    });
    expect(added).toMatchObject({ ok: true });
    const keyId = added.ok ? (added.value as { id: string }).id : '';
    const profile = await host.invoke('profiles:add', {
      name: 'Nowhere',
      baseUrl: 'http://127.0.0.1:9',
      keyId,
    });
    expect(profile).toMatchObject({ ok: true });
    const id = profile.ok ? (profile.value as { id: string }).id : '';
    expect(await host.invoke('profiles:use', { id })).toMatchObject({ ok: true });
    await host.invoke('chat:send', { message: `my key is ${KEY}` });
    await settle();
    const text = readFileSync(core.appLog.path, 'utf8');
    expect(text).toContain('Active profile: Nowhere');
    expect(text).toMatch(/Request failed: POST http:\/\/127\.0\.0\.1:9\S* -> /);
    expect(text).not.toContain(KEY);
  });

  test('records the core’s warnings, and still tells the caller', async () => {
    const dir = tempDir('agent-console-diagnostics-warn-');
    writeFileSync(join(dir, 'settings.json'), `{ not json ${KEY}`);
    const told: string[] = [];
    const other = await ConsoleCore.open({
      dataDir: dir,
      embeddedMock: 'none',
      keychainService: `agent-console-diagnostics-${randomBytes(4).toString('hex')}`,
      onWarning: (message) => told.push(message),
    });
    try {
      await settle();
      expect(told.join('\n')).toContain('could not be read');
      const text = readFileSync(other.appLog.path, 'utf8');
      expect(text).toMatch(/\[warn\].*could not be read/);
      expect(text).not.toContain(KEY);
    } finally {
      await other.close();
      removeDir(dir);
    }
  });
});

describe('diagnostics', () => {
  test('carry the version, platform, data dir, keychain, settings and the last log lines', async () => {
    core.appLog.info('a line to find in the tail');
    await core.vault.keychainChecked();
    await settle();
    const text = core.diagnostics();
    expect(text).toContain('Agent Console 9.8.7-test');
    expect(text).toContain(`Platform: ${process.platform}`);
    expect(text).toContain(`Node ${process.versions.node}`);
    expect(text).toContain(`Data: ${dataDir}`);
    expect(text).toMatch(/Keychain: (available|unavailable)/);
    expect(text).toContain('"profiles"');
    expect(text).toContain('Nowhere');
    expect(text).toContain('a line to find in the tail');
    expect(text).not.toContain(KEY);
  });

  test('keep only the last lines asked for', async () => {
    for (let i = 0; i < 250; i++) core.appLog.info(`filler ${i}`);
    await settle();
    const tail = core.diagnostics().split('Last log lines:\n')[1] ?? '';
    expect(tail.split('\n').length).toBe(200);
    expect(tail).toContain('filler 249');
    expect(tail).not.toContain('filler 49\n');
  });

  test('never carry a key, even one planted in the log and the settings file', async () => {
    core.appLog.info(`Bearer ${KEY}`);
    // Written behind the store's back: diagnostics mask what the file holds, whatever it holds.
    const settings = JSON.parse(readFileSync(core.settings.path, 'utf8')) as Record<string, unknown>;
    writeFileSync(core.settings.path, JSON.stringify({ ...settings, note: `pasted ${KEY}` }));
    await settle();
    const text = core.diagnostics({ electron: '45.0.0' });
    expect(text).toContain('Electron 45.0.0');
    expect(text).toContain(`"note": "pasted ***…${KEY.slice(-4)}"`);
    expect(text).not.toContain(KEY);
    writeFileSync(core.settings.path, JSON.stringify(settings));
  });

  test('cross the bridge as app:diagnostics', async () => {
    const result = await host.invoke('app:diagnostics', {});
    expect(result).toMatchObject({ ok: true });
    const text = result.ok ? (result.value as { text: string }).text : '';
    expect(text).toContain('Agent Console 9.8.7-test');
    expect(text).not.toContain(KEY);
  });
});
