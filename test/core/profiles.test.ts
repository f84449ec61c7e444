import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { KeyVault } from '../../electron/core/key-vault';
import { installEmbeddedMock, ProfileStore } from '../../electron/core/profile-store';
import {
  checkCaCertFile,
  EMBEDDED_MOCK_PROFILE_ID,
  embeddedMockProfile,
  isLoopbackHost,
  normaliseBaseUrl,
  ProfileError,
} from '../../electron/core/profiles';
import { openSettingsStore, type SettingsStore } from '../../electron/core/settings-store';
import { filesContaining } from '../support/keychain';
import { removeDir, tempDir, withTestMock, type TestMock } from '../support/mock';

// The real mock: its CA file is a real PEM certificate, and its demo key a real key.
let mock: TestMock;
withTestMock((started) => (mock = started));

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

describe('a CA given as PEM text (kept in <data>/ca)', () => {
  const caDir = (): string => join(dataDir, 'ca');
  /** The ca/ folder's files, or null when there is no folder. */
  const caFiles = (): string[] | null => (existsSync(caDir()) ? readdirSync(caDir()).sort() : null);
  // The key has no server yet: these profiles are added as at the terminal, whose first binds it.
  const asTyped = { bindFirstOrigin: true };
  const withCa = (): ProfileStore =>
    new ProfileStore(settings, {
      keyExists: (id) => vault.has(id),
      caDir: caDir(),
      keyOrigins: {
        status: (id, origin) => vault.originStatus(id, origin),
        allow: (id, origin) => vault.allowOrigin(id, origin),
      },
    });
  const pem = (): string => readFileSync(mock.server.caCertPath, 'utf8');

  test('a refused profile leaves the ca/ folder as it was: not made, or with the same files', () => {
    const profiles = withCa();
    // A name the settings file refuses only when it is written, after the certificate was copied.
    const keyShaped = `${'k'.repeat(3)}_${'0'.repeat(32)}`;
    const refusals: [string, () => unknown][] = [
      [
        'bad PEM',
        () =>
          profiles.add({ name: 'A', baseUrl: 'https://a.example.com', keyId, caCertPem: 'nope' }, asTyped),
      ],
      [
        'unknown key',
        () =>
          profiles.add(
            { name: 'A', baseUrl: 'https://a.example.com', keyId: 'gone', caCertPem: pem() },
            asTyped,
          ),
      ],
      [
        'bad URL',
        () => profiles.add({ name: 'A', baseUrl: 'http://a.example.com', keyId, caCertPem: pem() }, asTyped),
      ],
      [
        'refused when saved',
        () =>
          profiles.add(
            { name: keyShaped, baseUrl: 'https://a.example.com', keyId, caCertPem: pem() },
            asTyped,
          ),
      ],
    ];
    for (const [why, add] of refusals) {
      expect(add, why).toThrow();
      expect(caFiles(), why).toBeNull();
    }
    const first = profiles.add(
      { name: 'Staging', baseUrl: 'https://staging.example.com', keyId, caCertPem: pem() },
      asTyped,
    );
    const kept = caFiles();
    expect(kept).toHaveLength(1);
    expect(readFileSync(first.caCertPath as string, 'utf8')).toBe(pem());
    const more: [string, () => unknown][] = [
      [
        'duplicate name',
        () =>
          profiles.add(
            { name: 'staging', baseUrl: 'https://b.example.com', keyId, caCertPem: pem() },
            asTyped,
          ),
      ],
      // The key was added for staging.example.com: another origin needs the user's confirmation.
      [
        'origin not confirmed',
        () => profiles.add({ name: 'B', baseUrl: 'https://b.example.com', keyId, caCertPem: pem() }, asTyped),
      ],
      [
        'refused when saved',
        () =>
          profiles.add(
            { name: keyShaped, baseUrl: 'https://staging.example.com', keyId, caCertPem: pem() },
            asTyped,
          ),
      ],
    ];
    for (const [why, add] of more) {
      expect(add, why).toThrow();
      expect(caFiles(), why).toEqual(kept);
    }
  });

  test('a bad PEM is refused in words about the certificate, naming no file of ours', () => {
    const error = failure(() =>
      withCa().add(
        { name: 'A', baseUrl: 'https://a.example.com', keyId, caCertPem: 'not a certificate' },
        asTyped,
      ),
    );
    expect(error.code).toBe('INVALID_CA');
    expect(error.message).toMatch(/^The CA certificate contains no PEM certificate/);
    expect(error.message).not.toContain(dataDir);
  });

  test('its file goes when the profile goes or stops using it; a CA file of the user’s stays', () => {
    const profiles = withCa();
    const a = profiles.add({ name: 'A', baseUrl: 'https://a.example.com', keyId, caCertPem: pem() }, asTyped);
    const b = profiles.add({ name: 'B', baseUrl: 'https://a.example.com', keyId, caCertPem: pem() }, asTyped);
    expect(caFiles()).toHaveLength(2);
    profiles.remove(a.id);
    expect(caFiles()).toEqual([basename(b.caCertPath as string)]);
    profiles.update(b.id, { caCertPath: mock.server.caCertPath });
    expect(caFiles()).toEqual([]);
    profiles.update(b.id, { caCertPath: null });
    expect(existsSync(mock.server.caCertPath)).toBe(true);
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

describe('where a key may be sent', () => {
  const withOrigins = (): ProfileStore =>
    new ProfileStore(settings, {
      keyExists: (id) => vault.has(id),
      keyOrigins: {
        status: (id, origin) => vault.originStatus(id, origin),
        allow: (id, origin) => vault.allowOrigin(id, origin),
      },
    });

  test('a key with no server yet is bound by a profile only when the user asked for it at the terminal, or confirmed it', () => {
    const profiles = withOrigins();
    const a = { name: 'A', baseUrl: 'https://a.example.com', keyId };
    // What the bridge does: nothing said, so nothing bound.
    const refused = failure(() => profiles.add(a));
    expect(refused.code).toBe('ORIGIN_NOT_CONFIRMED');
    expect(refused.message).toContain('added without a server');
    expect(vault.get(keyId)?.origins).toBeUndefined();
    expect(profiles.list()).toEqual([]);
    // What the CLI does (`profiles add`, typed by the user): the first server is bound.
    profiles.add(a, { bindFirstOrigin: true });
    expect(vault.get(keyId)?.origins).toEqual(['https://a.example.com']);
    // From then on another server needs the confirmation, whoever asks.
    const b = { name: 'B', baseUrl: 'https://b.example.com', keyId };
    expect(failure(() => profiles.add(b, { bindFirstOrigin: true })).code).toBe('ORIGIN_NOT_CONFIRMED');
    profiles.add(b, { originConfirmed: true });
    expect(vault.get(keyId)?.origins).toEqual(['https://a.example.com', 'https://b.example.com']);
  });

  test('an edit is held to the same rule: a new name passes, a new server for the key needs the confirmation', () => {
    const profiles = withOrigins();
    const a = profiles.add({ name: 'A', baseUrl: 'https://a.example.com', keyId }, { bindFirstOrigin: true });
    expect(profiles.update(a.id, { name: 'Renamed' }).name).toBe('Renamed');
    const moved = failure(() => profiles.update(a.id, { baseUrl: 'https://c.example.com' }));
    expect(moved.code).toBe('ORIGIN_NOT_CONFIRMED');
    expect(profiles.get(a.id)?.baseUrl).toBe('https://a.example.com');
    expect(vault.get(keyId)?.origins).toEqual(['https://a.example.com']);
    profiles.update(a.id, { baseUrl: 'https://c.example.com' }, { originConfirmed: true });
    expect(profiles.get(a.id)).toMatchObject({ name: 'Renamed', baseUrl: 'https://c.example.com' });
    expect(vault.get(keyId)?.origins).toEqual(['https://a.example.com', 'https://c.example.com']);
  });
});
