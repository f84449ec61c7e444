import { readdirSync, readFileSync } from 'node:fs';
import { afterAll, afterEach, beforeEach, describe, expect, test } from 'vitest';
import { checkApiKey, KeyVault, KeyVaultError } from '../../electron/core/key-vault';
import { openSettingsStore } from '../../electron/core/settings-store';
import {
  clearService,
  filesContaining,
  keychainAccounts,
  keychainEntry,
  openRealKeychain,
  testService,
} from '../support/keychain';
import { removeDir, tempDir } from '../support/mock';

const service = testService('key-vault');
const real = await openRealKeychain(service);
const keychainTest = test.skipIf(real.skipReason !== undefined);
const suffix = real.skipReason ? ` (${real.skipReason})` : '';

// Shaped like real keys, with prefixes other than the mock's `ams_` (docs/decisions.md: no fixed prefix).
const SECRET = 'Tq7_9fK2mXa81LpQz3vB0cRn6YhW4eJd5sGu';
const OTHER = 'p0W_aaaabbbbccccddddeeeeffff00001111';
const NOW = Date.UTC(2026, 0, 15, 12, 0, 0);

let dataDir: string;
beforeEach(() => {
  dataDir = tempDir('agent-console-vault-');
});
afterEach(async () => {
  removeDir(dataDir);
  if (real.store) await clearService(service);
});
afterAll(async () => {
  if (real.store) await clearService(service);
});

function vaultIn(dir: string, withKeychain = true): KeyVault {
  const { store: settings } = openSettingsStore(dir);
  return new KeyVault({
    settings,
    keychain: withKeychain ? real.store : undefined,
    keychainUnavailableReason: 'No keychain is available in this test.',
    now: () => NOW,
  });
}

/** Runs `fn`, expecting a KeyVaultError; returns it. */
async function failure(fn: () => unknown): Promise<KeyVaultError> {
  try {
    await fn();
  } catch (error) {
    expect(error).toBeInstanceOf(KeyVaultError);
    return error as KeyVaultError;
  }
  throw new Error('expected a KeyVaultError');
}

describe('key shape', () => {
  const bad: Array<[string, string, RegExp]> = [
    ['empty', '   ', /Enter an API key/],
    ['too short', SECRET.slice(0, 30), /36 characters long .*this one has 30/],
    ['too long', `${SECRET}x`, /this one has 37/],
    ['no underscore at 4th place', `${SECRET.slice(0, 3)}X${SECRET.slice(4)}`, /"_" as its 4th character/],
    ['a symbol in it', `${SECRET.slice(0, 10)}-${SECRET.slice(11)}`, /only letters and digits/],
    ['a space inside', `${SECRET.slice(0, 10)} ${SECRET.slice(11)}`, /spaces or line breaks/],
    ['a line break inside', `${SECRET.slice(0, 10)}\n${SECRET.slice(11)}`, /spaces or line breaks/],
    ['a Bearer prefix', `Bearer ${SECRET}`, /without the "Bearer "/],
  ];
  test.each(bad)('%s gives a clear message that does not contain the key', async (_label, input, message) => {
    const error = await failure(() => checkApiKey(input));
    expect(error.code).toBe('KEY_FORMAT');
    expect(error.message).toMatch(message);
    // Not the key, nor any long piece of it.
    for (let i = 0; i + 8 <= input.trim().length; i++) {
      expect(error.message).not.toContain(input.trim().slice(i, i + 8));
    }
  });

  test('surrounding whitespace is trimmed, and any 3-character prefix is accepted', () => {
    expect(checkApiKey(`  ${SECRET}\n`)).toBe(SECRET);
    expect(checkApiKey(OTHER)).toBe(OTHER);
    expect(checkApiKey('ams_0123456789abcdef0123456789ABCDEF')).toBe('ams_0123456789abcdef0123456789ABCDEF');
  });
});

describe('session-only keys', () => {
  test('are usable at once and never touch disk', async () => {
    const vault = vaultIn(dataDir, false);
    const meta = await vault.add({ name: 'Scratch', secret: ` ${SECRET} `, sessionOnly: true });
    expect(meta).toEqual({
      id: expect.any(String),
      name: 'Scratch',
      last4: `…${SECRET.slice(-4)}`,
      createdAt: new Date(NOW).toISOString(),
      storage: 'session',
    });
    expect(await vault.secretFor(meta.id)).toBe(SECRET);
    expect(vault.list()).toEqual([meta]);
    expect(vault.learnTier(meta.id, 120)?.tier).toBe(120);
    // Neither the secret nor even the key's metadata is written anywhere.
    expect(readdirSync(dataDir)).toEqual([]);
    // A new process knows nothing of it.
    expect(vaultIn(dataDir, false).list()).toEqual([]);
    await vault.remove(meta.id);
    expect(vault.list()).toEqual([]);
  });

  keychainTest(`stay out of the keychain even when one is available${suffix}`, async () => {
    const vault = vaultIn(dataDir);
    const meta = await vault.add({ name: 'Scratch', secret: SECRET, sessionOnly: true });
    expect(await keychainAccounts(service)).toEqual([]);
    expect(keychainEntry(service, meta.id).getPassword()).toBeNull();
    expect(readdirSync(dataDir)).toEqual([]);
  });

  test('without a keychain, saving a key says so and points to session-only', async () => {
    const vault = vaultIn(dataDir, false);
    expect(vault.keychainAvailable).toBe(false);
    const error = await failure(() => vault.add({ name: 'Work', secret: SECRET }));
    expect(error.code).toBe('NO_KEYCHAIN');
    expect(error.message).toContain('No keychain is available in this test.');
    expect(error.message).toContain('session-only');
    expect(error.message).not.toContain(SECRET);
    expect(readdirSync(dataDir)).toEqual([]);
  });
});

describe('names', () => {
  test('are required, at most 100 characters, unique, and never a key', async () => {
    const vault = vaultIn(dataDir, false);
    const add = (name: string, secret = SECRET) => vault.add({ name, secret, sessionOnly: true });
    expect((await failure(() => add('  '))).message).toMatch(/Give the key a name/);
    expect((await failure(() => add('x'.repeat(101)))).message).toMatch(/at most 100 characters/);
    expect((await add(` ${'x'.repeat(100)} `)).name).toBe('x'.repeat(100));
    await add('Work');
    const duplicate = await failure(() => add('work', OTHER));
    expect(duplicate.code).toBe('DUPLICATE_NAME');
    const pasted = await failure(() => add(`my key ${SECRET}`));
    expect(pasted.code).toBe('INVALID_NAME');
    expect(pasted.message).not.toContain(SECRET);
  });
});

describe('keys in the OS keychain', () => {
  keychainTest(`add, list and secretFor go through the real keychain${suffix}`, async () => {
    const vault = vaultIn(dataDir);
    expect(vault.keychainAvailable).toBe(true);
    const meta = await vault.add({ name: 'Work', secret: `\t${SECRET}  ` });
    expect(meta).toEqual({
      id: expect.any(String),
      name: 'Work',
      last4: `…${SECRET.slice(-4)}`,
      createdAt: new Date(NOW).toISOString(),
      storage: 'os-keychain',
    });
    expect(vault.list()).toEqual([meta]);
    expect(await vault.secretFor(meta.id)).toBe(SECRET);
    expect(keychainEntry(service, meta.id).getPassword()).toBe(SECRET);
    // A later process (new settings store, new vault) finds it again.
    const later = vaultIn(dataDir);
    expect(later.list()).toEqual([meta]);
    expect(await later.secretFor(meta.id)).toBe(SECRET);
  });

  keychainTest(`the settings file holds the metadata and never the secret${suffix}`, async () => {
    const vault = vaultIn(dataDir);
    const first = await vault.add({ name: 'Work', secret: SECRET });
    await vault.add({ name: 'Staging', secret: OTHER });
    vault.learnTier(first.id, 300);
    const { store } = openSettingsStore(dataDir);
    const text = readFileSync(store.path, 'utf8');
    expect(text).toContain('Work');
    expect(text).toContain(`…${SECRET.slice(-4)}`);
    for (const secret of [SECRET, OTHER]) {
      expect(text).not.toContain(secret);
      expect(filesContaining(dataDir, secret)).toEqual([]);
    }
  });

  keychainTest(`remove deletes the secret from the keychain and the metadata${suffix}`, async () => {
    const vault = vaultIn(dataDir);
    const gone = await vault.add({ name: 'Old', secret: SECRET });
    const kept = await vault.add({ name: 'Kept', secret: OTHER });
    await vault.remove(gone.id);
    expect(keychainEntry(service, gone.id).getPassword()).toBeNull();
    expect(keychainEntry(service, kept.id).getPassword()).toBe(OTHER);
    expect(vault.list().map((k) => k.name)).toEqual(['Kept']);
    expect(readFileSync(openSettingsStore(dataDir).store.path, 'utf8')).not.toContain(gone.id);
    expect((await failure(() => vault.secretFor(gone.id))).code).toBe('NOT_FOUND');
    expect((await failure(() => vault.remove(gone.id))).code).toBe('NOT_FOUND');
  });

  keychainTest(`learnTier persists the limit, writes only on change, ignores nonsense${suffix}`, async () => {
    const vault = vaultIn(dataDir);
    const meta = await vault.add({ name: 'Work', secret: SECRET });
    expect(vault.learnTier(meta.id, 30)?.tier).toBe(30);
    expect(vaultIn(dataDir).list()[0]?.tier).toBe(30);
    for (const nonsense of [0, -5, 1.5, Number.NaN])
      expect(vault.learnTier(meta.id, nonsense)?.tier).toBe(30);
    expect(vault.learnTier('no-such-key', 60)).toBeUndefined();
  });

  keychainTest(`a bad key is refused before anything is stored${suffix}`, async () => {
    const vault = vaultIn(dataDir);
    const wrong = `${SECRET.slice(0, 3)}-${SECRET.slice(4)}`;
    const error = await failure(() => vault.add({ name: 'Work', secret: wrong }));
    expect(error.code).toBe('KEY_FORMAT');
    expect(error.message).not.toContain(wrong);
    expect(await keychainAccounts(service)).toEqual([]);
    expect(readdirSync(dataDir)).toEqual([]);
  });

  keychainTest(`a secret deleted outside the console gives a clear error${suffix}`, async () => {
    const vault = vaultIn(dataDir);
    const meta = await vault.add({ name: 'Work', secret: SECRET });
    keychainEntry(service, meta.id).deleteCredential();
    const error = await failure(() => vault.secretFor(meta.id));
    expect(error.code).toBe('SECRET_MISSING');
    expect(error.message).toMatch(/"Work" is no longer in the system keychain/);
  });
});
