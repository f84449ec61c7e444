// docs/decisions.md: the mock serves HTTPS with a certificate made once per data dir. A private CA
// signs the server certificate, so a client trusts the mock exactly as it would trust a staging
// server behind a private CA: by the CA file (`caCertPath`), never by turning verification off.
import { X509Certificate, createPrivateKey } from 'node:crypto';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import writeFileAtomic from 'write-file-atomic';

export interface TlsMaterial {
  key: string;
  cert: string;
  ca: string;
  caCertPath: string;
}

const YEAR_MS = 365 * 86_400_000;

/**
 * True when the files are a set the mock can serve and a client can trust: the key is the server
 * certificate's and the CA issued it. A set cut short (the process stopped while the first start
 * wrote it, a disk that filled) is made again rather than failing every start, or, worse, serving
 * a certificate no client can verify against a broken CA file.
 */
function wholeSet(tls: Omit<TlsMaterial, 'caCertPath'>): boolean {
  try {
    const cert = new X509Certificate(tls.cert);
    return cert.checkPrivateKey(createPrivateKey(tls.key)) && cert.checkIssued(new X509Certificate(tls.ca));
  } catch {
    return false;
  }
}

export async function loadOrCreateTls(dataDir: string): Promise<TlsMaterial> {
  const dir = join(dataDir, 'tls');
  const paths = {
    ca: join(dir, 'ca.pem'),
    cert: join(dir, 'server.pem'),
    key: join(dir, 'server-key.pem'),
  };
  try {
    const found = {
      ca: readFileSync(paths.ca, 'utf8'),
      cert: readFileSync(paths.cert, 'utf8'),
      key: readFileSync(paths.key, 'utf8'),
      caCertPath: paths.ca,
    };
    if (wholeSet(found)) return found;
  } catch {
    // Not made yet, or a file is missing: a fresh set is made below.
  }
  const made = await makeCertificates('Agent Console mock CA');
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  // Each file whole or not there, whatever stops the process (wholeSet checks they fit together).
  writeFileAtomic.sync(paths.key, made.key, { mode: 0o600 });
  writeFileAtomic.sync(paths.cert, made.cert, { mode: 0o644 });
  writeFileAtomic.sync(paths.ca, made.ca, { mode: 0o644 });
  return { ...made, caCertPath: paths.ca };
}

/**
 * A private CA named `caName` and a server certificate it signed for localhost, 127.0.0.1 and ::1:
 * what the mock serves, and what a test's own HTTPS server can serve the same way.
 */
export async function makeCertificates(caName: string): Promise<Omit<TlsMaterial, 'caCertPath'>> {
  // Loaded only here: the certificate library (with its ASN.1 stack) is most of the mock's start-up
  // when every start but the first finds its certificates made.
  const { default: selfsigned } = await import('selfsigned');
  const notBeforeDate = new Date(Date.now() - 86_400_000);
  const ca = await selfsigned.generate([{ name: 'commonName', value: caName }], {
    keyType: 'ec',
    algorithm: 'sha256',
    notBeforeDate,
    notAfterDate: new Date(notBeforeDate.getTime() + 10 * YEAR_MS),
    extensions: [
      { name: 'basicConstraints', cA: true, critical: true },
      { name: 'keyUsage', keyCertSign: true, cRLSign: true, critical: true },
    ],
  });
  const server = await selfsigned.generate([{ name: 'commonName', value: 'localhost' }], {
    keyType: 'ec',
    algorithm: 'sha256',
    notBeforeDate,
    // Browsers cap server certificates at 398 days; stay under it so Chromium accepts it too.
    notAfterDate: new Date(notBeforeDate.getTime() + 397 * 86_400_000),
    ca: { key: ca.private, cert: ca.cert },
    extensions: [
      { name: 'basicConstraints', cA: false, critical: true },
      { name: 'keyUsage', digitalSignature: true, keyEncipherment: true, critical: true },
      { name: 'extKeyUsage', serverAuth: true },
      {
        name: 'subjectAltName',
        altNames: [
          { type: 2, value: 'localhost' },
          { type: 7, ip: '127.0.0.1' },
          { type: 7, ip: '::1' },
        ],
      },
    ],
  });
  return { key: server.private, cert: server.cert, ca: ca.cert };
}
