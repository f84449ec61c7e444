// DESIGN.md §2: the mock serves HTTPS with a certificate made once per data dir. A private CA
// signs the server certificate, so a client trusts the mock exactly as it would trust a staging
// server behind a private CA: by the CA file (`caCertPath`), never by turning verification off.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface TlsMaterial {
  key: string;
  cert: string;
  ca: string;
  caCertPath: string;
}

const YEAR_MS = 365 * 86_400_000;

export async function loadOrCreateTls(dataDir: string): Promise<TlsMaterial> {
  const dir = join(dataDir, 'tls');
  const paths = {
    ca: join(dir, 'ca.pem'),
    cert: join(dir, 'server.pem'),
    key: join(dir, 'server-key.pem'),
  };
  try {
    return {
      ca: readFileSync(paths.ca, 'utf8'),
      cert: readFileSync(paths.cert, 'utf8'),
      key: readFileSync(paths.key, 'utf8'),
      caCertPath: paths.ca,
    };
  } catch {
    // Not made yet (or incomplete): make a fresh set below.
  }
  // Loaded only here: the certificate library (with its ASN.1 stack) is most of the mock's start-up
  // when every start but the first finds its certificates made.
  const { default: selfsigned } = await import('selfsigned');
  const notBeforeDate = new Date(Date.now() - 86_400_000);
  const ca = await selfsigned.generate([{ name: 'commonName', value: 'Agent Console mock CA' }], {
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
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  writeFileSync(paths.key, server.private, { mode: 0o600 });
  writeFileSync(paths.cert, server.cert);
  writeFileSync(paths.ca, ca.cert);
  return { key: server.private, cert: server.cert, ca: ca.cert, caCertPath: paths.ca };
}
