import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { KeyVault } from '../../electron/core/key-vault';
import {
  checkCaCertFile,
  EMBEDDED_MOCK_PROFILE_ID,
  embeddedMockProfile,
  installEmbeddedMock,
  isLoopbackHost,
  normaliseBaseUrl,
  ProfileError,
  ProfileStore,
} from '../../electron/core/profiles';
import { openSettingsStore, type SettingsStore } from '../../electron/core/settings-store';
import { filesContaining } from '../support/keychain';
import { removeDir, startTestMock, tempDir, type TestMock } from '../support/mock';

// The real mock: its CA file is a real PEM certificate, and its demo key a real key.
let mock: TestMock;
beforeAll(async () => {
  mock = await startTestMock();
});
afterAll(async () => {
  await mock.stop();
  removeDir(mock.dataDir);
});

let dataDir: string;
let settings: SettingsStore;
let vault: KeyVault;
let keyId: string;
beforeEach(async () => {
  dataDir = tempDir('agent-console-profiles-');
  settings = openSettingsStore(dataDir).store;
  // Session keys keep these tests off the keychain; key-vault.test.ts covers the keychain.
  vault = new KeyVault({ settings });
  keyId = (await vault.add({ name: 'Work', secret: mock.server.keys.pro, sessionOnly: true })).id;
});
afterEach(() => removeDir(dataDir));

function profilesIn(): ProfileStore {
  return new ProfileStore(settings, { keyExists: (id) => vault.has(id) });
}

function failure(fn: () => unknown): ProfileError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(ProfileError);
    return error as ProfileError;
  }
  throw new Error('expected a ProfileError');
}

describe('base URLs', () => {
  test.each([
    ['https://agents.example.com', 'https://agents.example.com'],
    ['  https://Agents.Example.com/  ', 'https://agents.example.com'],
    ['https://agents.example.com:443//', 'https://agents.example.com'],
    ['https://agents.example.com:8443/gateway/', 'https://agents.example.com:8443/gateway'],
    ['https://agents.example.com/api/v1/', 'https://agents.example.com'],
    ['http://localhost:8080/', 'http://localhost:8080'],
    ['http://127.0.0.1:3000', 'http://127.0.0.1:3000'],
    ['http://127.45.6.7', 'http://127.45.6.7'],
    ['http://[::1]:9000/', 'http://[::1]:9000'],
  ])('%s → %s', (input, expected) => {
    expect(normaliseBaseUrl(input)).toBe(expected);
  });

  test.each([
    ['', 'INVALID_URL', /Enter the base URL/],
    ['agents.example.com', 'INVALID_URL', /not a valid URL/],
    ['ftp://agents.example.com', 'INVALID_URL', /must start with https:\/\//],
    ['http://agents.example.com', 'INSECURE_URL', /Use https:\/\//],
    ['http://10.0.0.5:8080', 'INSECURE_URL', /only for this computer/],
    ['http://localhost.example.com', 'INSECURE_URL', /only for this computer/],
    ['http://127.0.0.1.nip.io', 'INSECURE_URL', /only for this computer/],
    ['https://user:pw@agents.example.com', 'INVALID_URL', /user name or password/],
    ['https://agents.example.com/?tenant=a', 'INVALID_URL', /query/],
    ['https://agents.example.com/?', 'INVALID_URL', /query/],
    ['https://agents.example.com/#top', 'INVALID_URL', /fragment/],
  ])('%j is refused clearly', (input, code, message) => {
    const error = failure(() => normaliseBaseUrl(input));
    expect(error.code).toBe(code);
    expect(error.message).toMatch(message);
  });

  test('messages never quote what was typed (it may be a key in the wrong field)', () => {
    const key = mock.server.keys.pro;
    for (const input of [key, `http://${key}`, `https://${key}@x.example.com`]) {
      expect(failure(() => normaliseBaseUrl(input)).message).not.toContain(key);
    }
  });

  test('loopback means 127.0.0.0/8, ::1 and localhost', () => {
    for (const host of ['localhost', 'LOCALHOST', '127.0.0.1', '127.255.0.9', '[::1]', '::1']) {
      expect(isLoopbackHost(host)).toBe(true);
    }
    for (const host of ['128.0.0.1', '10.0.0.1', '[::2]', 'localhost.example.com', '127.0.0.1.example.com']) {
      expect(isLoopbackHost(host)).toBe(false);
    }
  });
});

describe('custom CA certificates', () => {
  test('a PEM certificate is accepted and its path made absolute', () => {
    expect(checkCaCertFile(mock.server.caCertPath)).toBe(mock.server.caCertPath);
  });

  test('missing files, folders, non-PEM and broken PEM are refused clearly', () => {
    const missing = join(dataDir, 'nope.pem');
    expect(failure(() => checkCaCertFile(missing)).message).toMatch(/does not exist/);
    const folder = join(dataDir, 'certs');
    mkdirSync(folder);
    expect(failure(() => checkCaCertFile(folder)).message).toMatch(/is not a file/);
    const notPem = join(dataDir, 'ca.der');
    writeFileSync(notPem, Buffer.from([0x30, 0x82, 0x01, 0x0a, 0x02]));
    expect(failure(() => checkCaCertFile(notPem)).message).toMatch(/contains no PEM certificate/);
    const broken = join(dataDir, 'broken.pem');
    writeFileSync(broken, '-----BEGIN CERTIFICATE-----\nbm90IGEgY2VydA==\n-----END CERTIFICATE-----\n');
    expect(failure(() => checkCaCertFile(broken)).message).toMatch(/not a valid certificate/);
    for (const path of [missing, folder, notPem, broken]) {
      expect(failure(() => checkCaCertFile(path)).code).toBe('INVALID_CA');
    }
  });
});

describe('ProfileStore', () => {
  test('add, list, use, active, update and remove', () => {
    const profiles = profilesIn();
    expect(profiles.list()).toEqual([]);
    expect(profiles.active()).toBeUndefined();
    const staging = profiles.add({
      name: ' Staging ',
      baseUrl: 'https://staging.example.com/',
      keyId,
      caCertPath: mock.server.caCertPath,
    });
    expect(staging).toEqual({
      id: expect.any(String),
      name: 'Staging',
      baseUrl: 'https://staging.example.com',
      keyId,
      caCertPath: mock.server.caCertPath,
      builtIn: false,
    });
    const prod = profiles.add({
      name: 'Production',
      baseUrl: 'https://agents.example.com',
      keyId,
      caCertPath: '',
    });
    expect(prod.caCertPath).toBeUndefined();
    expect(profiles.list().map((p) => p.name)).toEqual(['Staging', 'Production']);
    // With no choice made, the first one.
    expect(profiles.active()?.id).toBe(staging.id);
    expect(profiles.use(prod.id).id).toBe(prod.id);
    expect(profilesIn().active()?.id).toBe(prod.id);

    const renamed = profiles.update(staging.id, { name: 'Stage', caCertPath: null });
    expect(renamed).toMatchObject({ name: 'Stage', baseUrl: 'https://staging.example.com' });
    expect(renamed.caCertPath).toBeUndefined();

    profiles.remove(prod.id);
    expect(profiles.list().map((p) => p.name)).toEqual(['Stage']);
    // The chosen profile is gone, so the choice is too.
    expect(settings.read().activeProfileId).toBeUndefined();
    expect(failure(() => profiles.use(prod.id)).code).toBe('NOT_FOUND');
    expect(failure(() => profiles.remove(prod.id)).code).toBe('NOT_FOUND');
  });

  test('names are required, unique and short; keys must exist; bad fields say which', () => {
    const profiles = profilesIn();
    const base = { name: 'Staging', baseUrl: 'https://staging.example.com', keyId };
    profiles.add(base);
    expect(failure(() => profiles.add({ ...base, name: ' ' })).code).toBe('INVALID_NAME');
    expect(failure(() => profiles.add({ ...base, name: 'y'.repeat(101) })).code).toBe('INVALID_NAME');
    expect(failure(() => profiles.add({ ...base, name: 'STAGING' })).code).toBe('DUPLICATE_NAME');
    expect(failure(() => profiles.add({ ...base, name: 'Embedded mock' })).code).toBe('DUPLICATE_NAME');
    expect(failure(() => profiles.add({ ...base, name: 'B', keyId: 'no-such-key' })).code).toBe(
      'UNKNOWN_KEY',
    );
    expect(failure(() => profiles.add({ ...base, name: 'C', baseUrl: 'http://example.com' })).code).toBe(
      'INSECURE_URL',
    );
    expect(failure(() => profiles.add({ ...base, name: 'D', caCertPath: join(dataDir, 'x.pem') })).code).toBe(
      'INVALID_CA',
    );
    expect(profiles.list()).toHaveLength(1);
  });

  test('the settings file holds profiles but never the key', () => {
    const profiles = profilesIn();
    profiles.add({ name: 'Staging', baseUrl: 'https://staging.example.com', keyId });
    const text = readFileSync(settings.path, 'utf8');
    expect(text).toContain('https://staging.example.com');
    expect(text).not.toContain(mock.server.keys.pro);
  });
});

describe('the built-in "Embedded mock" profile', () => {
  test('is wired to the running mock, comes first, is active by default, and cannot be edited or removed', () => {
    const profiles = profilesIn();
    const own = profiles.add({ name: 'Staging', baseUrl: 'https://staging.example.com', keyId });
    profiles.setEmbeddedMock(
      embeddedMockProfile({ baseUrl: mock.server.baseUrl, caCertPath: mock.server.caCertPath, keyId }),
    );
    expect(profiles.list().map((p) => p.id)).toEqual([EMBEDDED_MOCK_PROFILE_ID, own.id]);
    expect(profiles.active()).toMatchObject({
      id: EMBEDDED_MOCK_PROFILE_ID,
      name: 'Embedded mock',
      baseUrl: mock.server.baseUrl,
      caCertPath: mock.server.caCertPath,
      builtIn: true,
    });
    expect(failure(() => profiles.remove(EMBEDDED_MOCK_PROFILE_ID)).code).toBe('BUILT_IN');
    expect(failure(() => profiles.update(EMBEDDED_MOCK_PROFILE_ID, { name: 'Mine' })).code).toBe('BUILT_IN');
    // Not stored: its port changes at every start.
    expect(readFileSync(settings.path, 'utf8')).not.toContain(EMBEDDED_MOCK_PROFILE_ID);
  });

  test('a chosen profile that this process does not run is not swapped for another', () => {
    const profiles = profilesIn();
    profiles.add({ name: 'Staging', baseUrl: 'https://staging.example.com', keyId });
    profiles.setEmbeddedMock(
      embeddedMockProfile({ baseUrl: mock.server.baseUrl, caCertPath: mock.server.caCertPath, keyId }),
    );
    profiles.use(EMBEDDED_MOCK_PROFILE_ID);
    // E.g. the CLI, which runs no embedded mock.
    expect(profilesIn().active()).toBeUndefined();
  });

  test('installEmbeddedMock brings the demo key in as a session key, once, and never to disk', async () => {
    const profiles = profilesIn();
    const demo = {
      baseUrl: mock.server.baseUrl,
      caCertPath: mock.server.caCertPath,
      demoKey: mock.server.keys.pro,
    };
    const first = await installEmbeddedMock(vault, profiles, demo);
    const second = await installEmbeddedMock(vault, profiles, demo);
    const demoKeys = vault.list().filter((k) => k.name === 'Embedded mock demo key');
    expect(demoKeys).toEqual([expect.objectContaining({ id: second.keyId, storage: 'session' })]);
    expect(vault.has(first.keyId)).toBe(false);
    expect(await vault.secretFor(profiles.active()!.keyId)).toBe(mock.server.keys.pro);
    profiles.add({ name: 'Staging', baseUrl: 'https://staging.example.com', keyId: second.keyId });
    expect(filesContaining(dataDir, mock.server.keys.pro)).toEqual([]);
  });
});
