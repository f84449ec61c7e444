// Client certificates as a company hands them out, made with the real `openssl` (`.ci/run`
// installs it): a private CA, a certificate it signed for "alice" as PEM (one file and key apart),
// the same as a PKCS#12 with a passphrase, one that expires in a few days, and one from a CA the
// service does not know.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const P12_PASSPHRASE = 'p12-Passphrase-7c41e9';

export interface ClientCerts {
  dir: string;
  /** The CA the service trusts for client certificates. */
  caPem: string;
  certPem: string;
  keyPem: string;
  /** certPem and keyPem in one file. */
  pairPem: string;
  /** The same certificate and key as PKCS#12, opened with P12_PASSPHRASE. */
  p12: Buffer;
  /** A certificate of the same CA valid for five more days (with its key). */
  soonPairPem: string;
  /** A certificate from a CA the service does not know (with its key). */
  strangerPairPem: string;
}

const openssl = (dir: string, ...args: string[]): void => {
  execFileSync('openssl', args, { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });
};

/** `req` arguments that make a new P-256 key, unencrypted, into `<name>-key.pem`. */
const newKey = (name: string): string[] => [
  '-newkey',
  'ec',
  '-pkeyopt',
  'ec_paramgen_curve:P-256',
  '-nodes',
  '-keyout',
  `${name}-key.pem`,
];

function issue(dir: string, name: string, ca: string, days: number): void {
  openssl(dir, 'req', ...newKey(name), '-out', `${name}.csr`, '-subj', `/CN=${name}/O=Acme Support`);
  openssl(
    dir,
    'x509',
    '-req',
    '-in',
    `${name}.csr`,
    '-CA',
    `${ca}.pem`,
    '-CAkey',
    `${ca}-key.pem`,
    '-CAcreateserial',
    '-days',
    String(days),
    '-out',
    `${name}.pem`,
  );
}

export function makeClientCerts(): ClientCerts {
  const dir = mkdtempSync(join(tmpdir(), 'agent-console-client-certs-'));
  for (const ca of ['company-ca', 'stranger-ca']) {
    openssl(dir, 'req', '-x509', ...newKey(ca), '-out', `${ca}.pem`, '-subj', `/CN=${ca}`, '-days', '30');
  }
  issue(dir, 'alice', 'company-ca', 365);
  issue(dir, 'soon', 'company-ca', 5);
  issue(dir, 'stranger', 'stranger-ca', 365);
  openssl(
    dir,
    'pkcs12',
    '-export',
    '-in',
    'alice.pem',
    '-inkey',
    'alice-key.pem',
    '-out',
    'alice.p12',
    '-passout',
    `pass:${P12_PASSPHRASE}`,
  );
  const read = (file: string): string => readFileSync(join(dir, file), 'utf8');
  const pair = (name: string): string => `${read(`${name}.pem`)}${read(`${name}-key.pem`)}`;
  return {
    dir,
    caPem: read('company-ca.pem'),
    certPem: read('alice.pem'),
    keyPem: read('alice-key.pem'),
    pairPem: pair('alice'),
    p12: readFileSync(join(dir, 'alice.p12')),
    soonPairPem: pair('soon'),
    strangerPairPem: pair('stranger'),
  };
}
