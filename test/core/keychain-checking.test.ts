// The keychain's probe at start (a write, a read and a delete on the Secret Service) goes
// on beside the start, not before it. A keychain that has not answered yet — a system asking the
// user to unlock it, a busy keyring daemon — holds up neither the console nor the embedded mock;
// what needs the keychain waits for it, and nothing typed meanwhile is lost or kept elsewhere.
// The real keychain, opened when the test lets it.
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, expect, test, vi } from 'vitest';
import { BridgeHost } from '../../electron/bridge/bridge-host';
import { ConsoleCore, type CoreOptions } from '../../electron/core/console-core';
import { createMemorySecretStore, type KeychainOpening } from '../../electron/core/secret-store';
import type { HealthReport } from '../../shared/api';
import type { AppInfo, BridgeResult, KeyInfo, ProfileInfo } from '../../shared/bridge';
import {
  clearService,
  heldKeychain,
  keychainEntry,
  openRealKeychain,
  testService,
} from '../support/keychain';
import { removeDir, tempDir } from '../support/mock';

const service = testService('keychain-checking');
const real = await openRealKeychain(service);
const keychainTest = test.skipIf(real.skipReason !== undefined);
const suffix = real.skipReason ? ` (${real.skipReason})` : '';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  if (real.store) await clearService(service);
});

/** A new data folder, removed after the test. */
function newDataDir(): string {
  const dataDir = tempDir('agent-console-keychain-checking-');
  cleanups.push(() => removeDir(dataDir));
  return dataDir;
}

/** A core, closed after the test. */
async function openCore(options: CoreOptions): Promise<ConsoleCore> {
  const core = await ConsoleCore.open(options);
  cleanups.push(() => core.close());
  return core;
}

const NO_SECRET_SERVICE: KeychainOpening = {
  available: false,
  reason: 'No Secret Service answered on this session bus.',
  detail: 'org.freedesktop.DBus.Error.ServiceUnknown',
};

const valueOf = <T>(result: BridgeResult<unknown>): T => {
  if (!result.ok) throw new Error(`bridge call failed: ${JSON.stringify(result.error)}`);
  return result.value as T;
};

keychainTest(
  `with the keychain not answering yet, the console and its mock work, and a key added meanwhile goes to the keychain once it answers${suffix}`,
  async () => {
    const dataDir = newDataDir();
    const { openKeychain, answer } = heldKeychain();
    const core = await openCore({
      dataDir,
      embeddedMock: 'in-process',
      keychainService: service,
      openKeychain,
    });
    const host = new BridgeHost(core, { transport: 'web', version: 'test' });
    cleanups.push(() => host.close());
    const events: string[] = [];
    host.onEvent((event) => events.push(event));
    const call = async <T>(name: string, input: unknown = {}) => valueOf<T>(await host.invoke(name, input));

    // The console answers, and says the keychain is being checked.
    const info = await call<AppInfo>('app:info');
    expect(info.keychain).toMatchObject({ available: false, checking: true });
    expect(info.keychain.reason).toMatch(/still being checked/);
    // The embedded mock is the active profile and answers: its key is kept for the session.
    const profiles = await call<ProfileInfo[]>('profiles:list');
    expect(profiles.find((p) => p.active)?.builtIn).toBe(true);
    expect((await call<HealthReport>('health:get')).status).toBe('healthy');
    // A session-only key needs no keychain: added at once.
    const scratch = await call<KeyInfo>('keys:add', {
      name: 'Scratch',
      secret: `kc1_${randomBytes(16).toString('hex')}`,
      baseUrl: 'https://agents.example.com',
      sessionOnly: true,
    });
    expect(scratch.storage).toBe('session');

    // A key for the keychain waits for it: not refused, not quietly kept for the session only.
    const secret = `kc2_${randomBytes(16).toString('hex')}`;
    let added: KeyInfo | undefined;
    const adding = call<KeyInfo>('keys:add', {
      name: 'Kept',
      secret,
      baseUrl: 'https://agents.example.com',
    }).then((meta) => (added = meta));
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(added).toBeUndefined();
    expect((await call<AppInfo>('app:info')).keychain.checking).toBe(true);
    const changesBefore = events.filter((e) => e === 'keys:changed').length;

    answer();
    await adding;
    expect(added).toMatchObject({ name: 'Kept', storage: 'os-keychain' });
    expect(keychainEntry(service, added?.id as string).getPassword()).toBe(secret);
    expect((await call<AppInfo>('app:info')).keychain).toEqual({ available: true });
    // The window hears that where keys are kept changed (it asks app:info again then).
    expect(events.filter((e) => e === 'keys:changed').length).toBeGreaterThanOrEqual(changesBefore + 2);
    const keys = await call<KeyInfo[]>('keys:list');
    expect(keys.map((k) => `${k.name}:${k.storage}`)).toEqual(
      expect.arrayContaining(['Kept:os-keychain', 'Scratch:session']),
    );
  },
  30_000,
);

test('a keychain that turns out missing refuses a key for it, after the check, with its reason', async () => {
  const dataDir = newDataDir();
  const { openKeychain, answer } = heldKeychain(async () => NO_SECRET_SERVICE);
  const core = await openCore({ dataDir, embeddedMock: 'none', openKeychain });
  const refused = core.vault.add({ name: 'Work', secret: `kc3_${randomBytes(16).toString('hex')}` });
  refused.catch(() => undefined);
  expect(core.keychain.checking).toBe(true);
  answer();
  await expect(refused).rejects.toMatchObject({
    code: 'NO_KEYCHAIN',
    message: expect.stringContaining(NO_SECRET_SERVICE.reason),
  });
  expect(core.keychain).toEqual({ available: false, reason: NO_SECRET_SERVICE.reason });
  expect(core.vault.list()).toEqual([]);
});

// The app and the web host (a core that monitors health): the keychain is opened after the first
// screen's health check, not on the way to it, unless something needs it sooner.

test("the app's core opens the keychain once its first health check is over, not on the way to it", async () => {
  const dataDir = newDataDir();
  const { openKeychain, answer, asked } = heldKeychain(async () => NO_SECRET_SERVICE);
  answer();
  const core = await openCore({ dataDir, embeddedMock: 'in-process', monitorHealth: true, openKeychain });
  await core.health.firstPollOver();
  const first = core.health.state().last;
  expect(first?.status).toBe('healthy');
  await vi.waitFor(() => expect(asked).toHaveLength(1));
  expect(asked[0]).toBeGreaterThanOrEqual(first?.at as number);
  // Opened once, for everyone: the status is known now, and asking again opens nothing more.
  expect(core.keychain).toEqual({ available: false, reason: NO_SECRET_SERVICE.reason });
  expect(await core.vault.keychainChecked()).toEqual(core.keychain);
  expect(asked).toHaveLength(1);
});

test('a first health check that needs a key kept in the keychain opens the keychain at once', async () => {
  const dataDir = newDataDir();
  // A keychain of this test's own, kept across the two starts below.
  const kept = createMemorySecretStore();
  const keychain = async (): Promise<KeychainOpening> => ({ available: true, store: kept, backend: 'test' });
  // The service: says who sent which key, and refuses it.
  const sent: (string | undefined)[] = [];
  const service = createServer((req, res) => {
    sent.push(req.headers.authorization);
    res.writeHead(401, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ error: { code: 'INVALID_KEY', message: 'Unknown API key.' } }));
  });
  await new Promise<void>((listening) => service.listen(0, '127.0.0.1', listening));
  cleanups.push(() => new Promise<void>((closed) => service.close(() => closed())));
  const { port } = service.address() as AddressInfo;
  const first = await ConsoleCore.open({ dataDir, embeddedMock: 'none', openKeychain: keychain });
  const secret = `kc5_${randomBytes(16).toString('hex')}`;
  const key = await first.vault.add({ name: 'Work', secret, origins: [`http://127.0.0.1:${port}`] });
  expect(key.storage).toBe('os-keychain');
  const work = first.profiles.add({ name: 'Work', baseUrl: `http://127.0.0.1:${port}`, keyId: key.id });
  first.profiles.use(work.id);
  await first.close();

  const { openKeychain, answer, asked } = heldKeychain(keychain);
  const started = Date.now();
  const core = await openCore({ dataDir, embeddedMock: 'none', monitorHealth: true, openKeychain });
  // Asked by the check itself, well before the second the core would otherwise wait for it.
  await vi.waitFor(() => expect(asked).toHaveLength(1), { timeout: 500 });
  expect((asked[0] as number) - started).toBeLessThan(500);
  answer();
  await core.health.firstPollOver();
  expect(core.health.state().last).toMatchObject({ profileId: work.id, status: 'key-rejected' });
  expect(sent).toEqual([`Bearer ${secret}`]);
  expect(asked).toHaveLength(1);
});

test('a CLI call that needs no secret leaves the keychain alone; one that does opens it once', async () => {
  const dataDir = newDataDir();
  const { openKeychain, answer, asked } = heldKeychain(async () => NO_SECRET_SERVICE);
  answer();
  const core = await openCore({ dataDir, embeddedMock: 'in-process', openKeychain });
  // `agent-console agents` on the embedded mock: its key is a session key.
  const { agents } = await core.client(core.profile()).listAgents();
  expect(agents.length).toBeGreaterThan(0);
  await new Promise((resolve) => setTimeout(resolve, 100));
  expect(asked).toEqual([]);
  expect(core.keychain).toMatchObject({ checking: true });
  // `agent-console keys add` asks where keys can be kept.
  expect(await core.vault.keychainChecked()).toEqual({ available: false, reason: NO_SECRET_SERVICE.reason });
  expect(asked).toHaveLength(1);
});
