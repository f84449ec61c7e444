// The mock's certificates are made at its first start on a data folder (mock/cert.ts). A set cut
// short (the process stopped while it was written, a full disk) is made again: the mock starts, and
// a client that trusts the CA file on disk, as every profile of the Embedded mock does, reaches it.
// Before, an empty key stopped every start, and a half-written CA file left a mock that no client
// could verify.
import { readFileSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Agent, request } from 'undici';
import { afterEach, expect, test } from 'vitest';
import { startMockServer } from '../../mock/server';
import { removeDir, tempDir } from '../support/mock';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) removeDir(dir);
});

/** GET /api/v1/health from the mock at `baseUrl`, trusting only the CA file at `caCertPath`. */
async function healthTrustingCaFile(baseUrl: string, caCertPath: string, key: string): Promise<number> {
  const dispatcher = new Agent({ connect: { ca: readFileSync(caCertPath, 'utf8') } });
  try {
    const res = await request(`${baseUrl}/api/v1/health`, {
      dispatcher,
      headers: { authorization: `Bearer ${key}` },
    });
    await res.body.text();
    return res.statusCode;
  } finally {
    await dispatcher.close();
  }
}

for (const [what, cut] of [
  ['an empty server key', (tls: string) => writeFileSync(join(tls, 'server-key.pem'), '')],
  [
    'a CA file cut in half',
    (tls: string) => {
      const path = join(tls, 'ca.pem');
      truncateSync(path, Math.floor(readFileSync(path).length / 2));
    },
  ],
  [
    'a server certificate that is not the key’s',
    // The CA's own certificate in its place: a whole PEM, but not for this key.
    (tls: string) => writeFileSync(join(tls, 'server.pem'), readFileSync(join(tls, 'ca.pem'), 'utf8')),
  ],
] as const) {
  test(`${what} in the mock's TLS folder: the set is made again and clients trust it`, async () => {
    const dataDir = tempDir('agent-console-tls-');
    dirs.push(dataDir);
    const first = await startMockServer({ dataDir });
    await first.close();
    cut(join(dataDir, 'tls'));

    const again = await startMockServer({ dataDir });
    try {
      expect(await healthTrustingCaFile(again.baseUrl, again.caCertPath, again.keys.pro)).toBe(200);
      expect(readFileSync(again.caCertPath, 'utf8')).toContain('-----END CERTIFICATE-----');
    } finally {
      await again.close();
    }
  });
}
