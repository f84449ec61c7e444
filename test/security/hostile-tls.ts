// A private CA and a server certificate it signed for 127.0.0.1, made at test time (as mock/cert.ts
// makes the mock's): the hostile server's HTTPS, trusted by a profile's CA file and nothing else.
export interface TlsFiles {
  key: string;
  cert: string;
  ca: string;
}

/** A private CA and a server certificate for 127.0.0.1 it signed, made now (as mock/cert.ts does). */
export async function makeTls(): Promise<TlsFiles> {
  const { default: selfsigned } = await import('selfsigned');
  const notBeforeDate = new Date(Date.now() - 86_400_000);
  const notAfterDate = new Date(Date.now() + 30 * 86_400_000);
  const ca = await selfsigned.generate([{ name: 'commonName', value: 'Hostile test CA' }], {
    keyType: 'ec',
    algorithm: 'sha256',
    notBeforeDate,
    notAfterDate,
    extensions: [
      { name: 'basicConstraints', cA: true, critical: true },
      { name: 'keyUsage', keyCertSign: true, cRLSign: true, critical: true },
    ],
  });
  const server = await selfsigned.generate([{ name: 'commonName', value: 'localhost' }], {
    keyType: 'ec',
    algorithm: 'sha256',
    notBeforeDate,
    notAfterDate,
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
        ],
      },
    ],
  });
  return { key: server.private, cert: server.cert, ca: ca.cert };
}
