import { spawnSync } from 'node:child_process';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, describe, expect, test } from 'vitest';
import { CoreError } from '../../electron/core/core-error';
import {
  createMemorySecretStore,
  KeychainError,
  keychainFailureMessage,
  openOsKeychain,
  type KeychainOpening,
} from '../../electron/core/secret-store';
import {
  clearService,
  keychainAccounts,
  keychainEntry,
  openRealKeychain,
  testService,
} from '../support/keychain';

const service = testService('secret-store');
const real = await openRealKeychain(service);
const keychainTest = test.skipIf(real.skipReason !== undefined);
const suffix = real.skipReason ? ` (${real.skipReason})` : '';

afterAll(async () => {
  if (real.store) await clearService(service);
});

describe('the OS keychain', () => {
  keychainTest(`answers the probe and reports which store it is${suffix}`, async () => {
    const opened = await openOsKeychain(service);
    expect(opened.available).toBe(true);
    if (!opened.available) return;
    expect(opened.store.kind).toBe('os-keychain');
    if (process.platform === 'linux') expect(opened.backend).toBe('Secret Service');
    // The probe entry is gone again.
    expect(await keychainAccounts(service)).toEqual([]);
  });

  keychainTest(`stores, reads and deletes secrets in the real keychain${suffix}`, async () => {
    const store = real.store!;
    const secret = 'kc1_0123456789abcdefABCDEF0123456789';
    expect(await store.get('acct-1')).toBeUndefined();
    await store.set('acct-1', secret);
    expect(await store.get('acct-1')).toBe(secret);
    // Seen by a fresh binding entry: it is really in the keychain, not cached by us.
    expect(keychainEntry(service, 'acct-1').getPassword()).toBe(secret);
    expect(await store.delete('acct-1')).toBe(true);
    expect(keychainEntry(service, 'acct-1').getPassword()).toBeNull();
    expect(await store.delete('acct-1')).toBe(false);
  });

  keychainTest(
    `keeps answering through 600 reads in a process allowed 80 open files, and sees a change made elsewhere${suffix}`,
    () => {
      // Every API request reads its key. On Linux a fresh binding entry per read held a D-Bus
      // connection until garbage collection: ~1 open file per request, so a busy console (or the
      // session bus serving it) ran out of file descriptors and the keychain stopped answering.
      const module = pathToFileURL(
        fileURLToPath(new URL('../../electron/core/secret-store.ts', import.meta.url)),
      );
      const code = `const { openOsKeychain } = await import(${JSON.stringify(module.href)});
        const opened = await openOsKeychain(${JSON.stringify(service)});
        if (!opened.available) throw new Error(opened.detail);
        await opened.store.set('busy', 'first');
        let same = 0;
        for (let i = 0; i < 600; i++) if ((await opened.store.get('busy')) === 'first') same++;
        process.stdout.write(String(same) + '\\n');
        // Another program changes the entry: the next read says so (nothing cached but the entry).
        const { AsyncEntry } = await import('@napi-rs/keyring');
        await new AsyncEntry(${JSON.stringify(service)}, 'busy', { linux: { store: 'secret-service' } }).setPassword('second');
        process.stdout.write(String(await opened.store.get('busy')) + '\\n');
        await opened.store.delete('busy');`;
      const child = spawnSync(
        'sh',
        [
          '-c',
          'ulimit -n 80 && exec "$0" "$@"',
          process.execPath,
          '--import',
          'tsx',
          '--input-type=module',
          '-e',
          code,
        ],
        { encoding: 'utf8', timeout: 60_000 },
      );
      expect(child.stderr).not.toMatch(/Too many open files/);
      expect(child.status, child.stderr).toBe(0);
      expect(child.stdout.split('\n').slice(0, 2)).toEqual(['600', 'second']);
    },
    90_000,
  );
});

describe('without a keychain', () => {
  test.skipIf(process.platform !== 'linux')(
    'reports available:false with a plain reason when no Secret Service is reachable',
    () => {
      const module = pathToFileURL(
        fileURLToPath(new URL('../../electron/core/secret-store.ts', import.meta.url)),
      );
      const code = `const { openOsKeychain } = await import(${JSON.stringify(module.href)});
        const opened = await openOsKeychain(${JSON.stringify(testService('no-keychain'))});
        process.stdout.write(JSON.stringify({ ...opened, store: opened.store ? 'present' : undefined }));`;
      const child = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code], {
        env: { ...process.env, DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent' },
        encoding: 'utf8',
        timeout: 15_000,
      });
      expect(child.status, child.stderr).toBe(0);
      const opened = JSON.parse(child.stdout) as KeychainOpening & { store?: string };
      expect(opened.available).toBe(false);
      expect(opened.store).toBeUndefined();
      if (opened.available) return;
      // A sentence a person can act on, not the D-Bus error (which stays in `detail`).
      expect(opened.reason).toMatch(/^No keychain is available: .*Secret Service.*\.$/);
      expect(opened.reason).toMatch(/session only/);
      expect(opened.reason).not.toMatch(/dbus|socket|nonexistent/i);
      expect(opened.detail).toMatch(/nonexistent|dbus/i);
    },
  );
});

describe('a keychain failing after start', () => {
  test("is told with what did not happen and what to do first, the platform's words last and short", () => {
    const detail = `Platform failure: DBus error: ${'Did not receive a reply. '.repeat(20)}`;
    const linux = keychainFailureMessage('save', detail, 'linux');
    expect(linux).toMatch(
      /^The system keychain could not save the API key, so it was not added\. Check that your Secret Service \(GNOME Keyring, KWallet or KeePassXC\) is running and unlocked, then add it again, or add it as a session-only key\. \(The keychain said: Platform failure: DBus error: Did not/,
    );
    expect(linux.length).toBeLessThan(400);
    expect(keychainFailureMessage('read', 'locked', 'darwin')).toMatch(
      /nothing was sent\. Check that the macOS Keychain is unlocked, then try again\./,
    );
    expect(keychainFailureMessage('delete', 'x', 'win32')).toMatch(
      /so the key was kept\. Check that Windows Credential Manager/,
    );
    const error = new KeychainError(linux, detail);
    expect(error).toBeInstanceOf(CoreError);
    expect(error.code).toBe('KEYCHAIN_UNAVAILABLE');
  });
});

describe('the session-only store', () => {
  test('holds secrets in memory, per instance', async () => {
    const store = createMemorySecretStore();
    const other = createMemorySecretStore();
    expect(store.kind).toBe('memory');
    await store.set('a', 'one');
    expect(await store.get('a')).toBe('one');
    expect(await other.get('a')).toBeUndefined();
    expect(await store.delete('a')).toBe(true);
    expect(await store.delete('a')).toBe(false);
    expect(await store.get('a')).toBeUndefined();
  });
});
