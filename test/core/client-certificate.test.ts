// A profile's client certificate, as a person behind mutual TLS uses it: given as PEM or PKCS#12
// (its passphrase in the real keychain), checked when given, shown by subject and expiry, and
// shown to a service that refuses every connection without it — the mock started with the
// company's client CA.
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { Agent, request } from 'undici';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { readClientCertificate } from '../../electron/core/client-certificate';
import { startMockServer, type MockServer } from '../../mock/server';
import { hostCall, startWebHost } from '../security/hostile-processes';
import { makeClientCerts, P12_PASSPHRASE, type ClientCerts } from '../support/client-certs';
import {
  clearService,
  filesContaining,
  keychainAccounts,
  keychainEntry,
  testService,
} from '../support/keychain';
import { removeDir, tempDir } from '../support/mock';
import { runNode } from '../support/run-process';

let certs: ClientCerts;
let mock: MockServer;
let dir: string;

beforeAll(async () => {
  certs = makeClientCerts();
  dir = tempDir('agent-console-client-cert-');
  mock = await startMockServer({ dataDir: join(dir, 'mock'), clientCa: certs.caPem });
});

afterAll(async () => {
  await mock.close();
  removeDir(dir);
  removeDir(certs.dir);
});

describe('a client certificate as the user gives it', () => {
  test('PEM with its key in one file, or apart, or PKCS#12 with its passphrase: the same subject and expiry', () => {
    const pair = readClientCertificate({ material: Buffer.from(certs.pairPem) });
    const apart = readClientCertificate({ material: Buffer.from(certs.certPem), key: certs.keyPem });
    const p12 = readClientCertificate({ material: certs.p12, passphrase: P12_PASSPHRASE });
    expect(pair.subject).toBe('CN=alice, O=Acme Support');
    expect(pair.issuer).toBe('CN=company-ca');
    expect(pair.validTo).toBeGreaterThan(Date.now() + 360 * 86_400_000);
    for (const other of [apart, p12]) {
      expect([other.subject, other.issuer, other.validTo]).toEqual([pair.subject, pair.issuer, pair.validTo]);
    }
    expect(p12.format).toBe('pkcs12');
    expect(apart.format).toBe('pem');
  });

  test.each([
    ['a PKCS#12 without its passphrase', { material: 'p12' }, 'The PKCS#12 file needs its passphrase.'],
    [
      'a PKCS#12 with a wrong passphrase',
      { material: 'p12', passphrase: 'wrong' },
      'The passphrase does not open the PKCS#12 file.',
    ],
    ['a certificate without its key', { material: 'cert' }, 'The file holds no private key'],
    [
      'a key that is not the certificate’s',
      { material: 'cert', key: 'stranger' },
      'The private key does not belong to the certificate.',
    ],
    ['an empty file', { material: 'empty' }, 'The client certificate file is empty.'],
    ['a file that is no certificate', { material: 'junk' }, 'neither PEM nor a PKCS#12'],
  ] as const)('%s is refused in words that quote nothing of the file', (_, given, words) => {
    const material = {
      p12: certs.p12,
      cert: Buffer.from(certs.certPem),
      empty: Buffer.alloc(0),
      junk: Buffer.from('just some words, nothing more'),
    }[given.material];
    const key =
      'key' in given
        ? certs.strangerPairPem.slice(certs.strangerPairPem.indexOf('-----BEGIN PRIVATE'))
        : undefined;
    let message = '';
    try {
      readClientCertificate({
        material,
        ...(key ? { key } : {}),
        ...('passphrase' in given ? { passphrase: given.passphrase } : {}),
      });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toContain(words);
    expect(message).not.toContain('BEGIN');
    expect(message).not.toContain(P12_PASSPHRASE);
  });
});

test('the service that requires a client certificate: refused without it, answered with it from a PKCS#12 whose passphrase is in the keychain', async () => {
  const service = testService('client-cert');
  const dataDir = join(dir, 'web');
  const web = await startWebHost(dataDir, { AGENT_CONSOLE_KEYCHAIN_SERVICE: service });
  try {
    const key = await hostCall(web, 'keys:add', {
      name: 'Secured',
      secret: mock.keys.pro,
      baseUrl: mock.baseUrl,
      sessionOnly: true,
    });
    const keyId = (key.value as { id: string }).id;
    const caCertPem = readFileSync(mock.caCertPath, 'utf8');
    const added = await hostCall(web, 'profiles:add', {
      name: 'Secured',
      baseUrl: mock.baseUrl,
      keyId,
      caCertPem,
    });
    const id = (added.value as { id: string }).id;

    const without = await hostCall(web, 'profiles:test', { id });
    expect(without.ok, without.text).toBe(true);
    expect((without.value as { ok: boolean }).ok).toBe(false);
    expect(without.text).toContain('asked for a client certificate');

    const edit = { id, name: 'Secured', baseUrl: mock.baseUrl, keyId };
    const wrong = await hostCall(web, 'profiles:update', {
      ...edit,
      clientCert: certs.p12.toString('base64'),
      clientCertPassphrase: 'not it',
    });
    expect(wrong.ok).toBe(false);
    expect(wrong.text).toContain('The passphrase does not open the PKCS#12 file.');
    expect(readdirOrEmpty(join(dataDir, 'client-certs'))).toEqual([]);

    const withCert = await hostCall(web, 'profiles:update', {
      ...edit,
      clientCert: certs.p12.toString('base64'),
      clientCertPassphrase: P12_PASSPHRASE,
    });
    expect(withCert.ok, withCert.text).toBe(true);
    const shown = (withCert.value as { clientCert: { subject: string; validTo: number; file?: string } })
      .clientCert;
    expect(shown.subject).toBe('CN=alice, O=Acme Support');
    expect(shown).not.toHaveProperty('file');
    const account = `client-cert-passphrase:${id}`;
    expect(keychainEntry(service, account).getPassword()).toBe(P12_PASSPHRASE);
    expect(filesContaining(dataDir, P12_PASSPHRASE)).toEqual([]);
    const [copy] = readdirOrEmpty(join(dataDir, 'client-certs'));
    expect(statSync(join(dataDir, 'client-certs', copy ?? '')).mode & 0o077).toBe(0);

    const answered = await hostCall(web, 'profiles:test', { id });
    expect((answered.value as { ok: boolean }).ok, answered.text).toBe(true);
    await hostCall(web, 'profiles:use', { id });
    const agents = await hostCall(web, 'agents:list', {});
    expect(agents.ok, agents.text).toBe(true);

    // A certificate from a CA the service does not know is refused as well, in the same words.
    const stranger = await hostCall(web, 'profiles:update', { ...edit, clientCert: certs.strangerPairPem });
    expect(stranger.ok, stranger.text).toBe(true);
    expect(await keychainAccounts(service)).not.toContain(account);
    const refused = await hostCall(web, 'profiles:test', { id });
    expect((refused.value as { ok: boolean }).ok).toBe(false);
    expect(refused.text).toContain('refused the client certificate');

    // Taken away: our copy goes with it.
    const none = await hostCall(web, 'profiles:update', { ...edit, noClientCert: true });
    expect(none.ok, none.text).toBe(true);
    expect(none.value).not.toHaveProperty('clientCert');
    expect(readdirOrEmpty(join(dataDir, 'client-certs'))).toEqual([]);
  } finally {
    await web.stop();
    await clearService(service);
  }
}, 90_000);

function readdirOrEmpty(path: string): string[] {
  try {
    return readdirSync(path);
  } catch {
    return [];
  }
}

test('`agent-console mock serve --client-ca`: the mock a person tries mutual TLS with refuses a connection without the certificate', async () => {
  const mockDir = join(dir, 'standalone');
  const child = spawn(process.execPath, [
    'bin/agent-console.js',
    'mock',
    'serve',
    '--data-dir',
    mockDir,
    '--client-ca',
    join(certs.dir, 'company-ca.pem'),
    '--quiet',
  ]);
  try {
    const line = await new Promise<string>((done) =>
      createInterface({ input: child.stdout }).once('line', done),
    );
    const { baseUrl, caCertPath } = JSON.parse(line) as { baseUrl: string; caCertPath: string };
    const ca = readFileSync(caCertPath, 'utf8');
    const health = (tls: object) =>
      request(`${baseUrl}/api/v1/health`, { dispatcher: new Agent({ connect: { ca, ...tls } }) }).then(
        (res) => res.statusCode,
        (error: Error) => error.message,
      );
    expect(await health({})).toMatch(/closed|certificate/);
    // With it, the handshake passes and the service itself answers (401: no key was sent).
    expect(await health({ cert: certs.pairPem, key: certs.pairPem })).toBe(401);
  } finally {
    child.kill('SIGTERM');
  }
}, 60_000);

test('`agent-console profiles add --client-cert` from a terminal: the PKCS#12 file as given, its passphrase from the environment into the keychain, and the service answers', async () => {
  const service = testService('cli-client-cert');
  const dataDir = join(dir, 'cli');
  const cli = (args: string[], env: NodeJS.ProcessEnv = {}, stdin = '') =>
    runNode(['bin/agent-console.js', '--data-dir', dataDir, ...args], {
      env: { AGENT_CONSOLE_KEYCHAIN_SERVICE: service, ...env },
      stdin,
    });
  try {
    expect((await cli(['keys', 'add', '--name', 'secured'], {}, `${mock.keys.pro}\n`)).code).toBe(0);
    const common = ['--base-url', mock.baseUrl, '--key', 'secured', '--ca', mock.caCertPath];

    await cli(['profiles', 'add', '--name', 'without', ...common]);
    const refused = await cli(['--profile', 'without', 'agents']);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain('asked for a client certificate');

    const missing = await cli([
      'profiles',
      'add',
      '--name',
      'typo',
      ...common,
      '--client-cert',
      join(certs.dir, 'nope.p12'),
    ]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain(`Could not read --client-cert ${join(certs.dir, 'nope.p12')}: ENOENT.`);

    const p12 = join(certs.dir, 'alice.p12');
    const wrong = await cli(['profiles', 'add', '--name', 'secured', ...common, '--client-cert', p12], {
      AGENT_CONSOLE_CLIENT_CERT_PASSPHRASE: 'not it',
    });
    expect(wrong.code).not.toBe(0);
    expect(wrong.stderr).toContain('The passphrase does not open the PKCS#12 file.');

    const added = await cli(['profiles', 'add', '--name', 'secured', ...common, '--client-cert', p12], {
      AGENT_CONSOLE_CLIENT_CERT_PASSPHRASE: P12_PASSPHRASE,
    });
    expect(added.code, added.stderr).toBe(0);
    expect(added.stdout).toMatch(
      /Added profile "secured" \(.*, client certificate CN=alice, O=Acme Support valid until \d{4}-\d{2}-\d{2}\)\./,
    );
    const listed = await cli(['profiles']);
    expect(listed.stdout).toContain('CN=alice, O=Acme Support (until');

    const agents = await cli(['--profile', 'secured', 'agents']);
    expect(agents.code, agents.stderr).toBe(0);
    // The passphrase is in the keychain only: in no file of the data folder, in no output.
    expect(filesContaining(dataDir, P12_PASSPHRASE)).toEqual([]);
    for (const run of [added, listed, agents]) expect(run.stdout + run.stderr).not.toContain(P12_PASSPHRASE);
    expect(await keychainAccounts(service)).toContainEqual(expect.stringMatching(/^client-cert-passphrase:/));
  } finally {
    await clearService(service);
  }
}, 120_000);
