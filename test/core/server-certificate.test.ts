// A service whose certificate is not trusted: the client says so (UNTRUSTED_CERT, not NETWORK),
// and its chain can be read without sending anything, the CA at its top offered with the
// fingerprint the user checks. Against the real mock over HTTPS (its private CA, mock/cert.ts).
import { X509Certificate } from 'node:crypto';
import { beforeAll, describe, expect, test } from 'vitest';
import { systemClock } from '../../shared/clock';
import { ApiClient } from '../../electron/core/api-client';
import { ApiError } from '../../electron/core/api-error';
import { RateLimiter } from '../../electron/core/rate-limiter';
import { readServerChain } from '../../electron/core/server-certificate';
import { mockConnection, withTestMock, type TestMock } from '../support/mock';

let mock: TestMock;
withTestMock((started) => (mock = started));

describe('a certificate this console does not trust', () => {
  let chain: Awaited<ReturnType<typeof readServerChain>>;
  beforeAll(async () => {
    chain = await readServerChain(mock.server.baseUrl);
  });

  test('a call is refused as UNTRUSTED_CERT, saying the certificate is not trusted', async () => {
    const { ca: _trusted, ...untrusted } = mockConnection(mock.server, 'pro');
    const client = new ApiClient({
      ...untrusted,
      profileId: 'untrusted',
      limiter: new RateLimiter({ clock: systemClock, limit: 60 }),
      clock: systemClock,
    });
    const error = await client.health().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).code).toBe('UNTRUSTED_CERT');
    expect((error as ApiError).message).toContain("The service's certificate is not trusted");
    expect((error as ApiError).message).not.toContain('Could not reach');
  });

  test('its chain is read, the CA at its top with the fingerprint of the mock’s CA file', () => {
    const ca = new X509Certificate(mock.server.ca);
    expect(chain.chain.map((c) => c.subject)).toEqual(['CN=localhost', 'CN=Agent Console mock CA']);
    expect(chain.chain[0]?.issuer).toBe('CN=Agent Console mock CA');
    expect(chain.ca).toMatchObject({
      subject: 'CN=Agent Console mock CA',
      fingerprint256: ca.fingerprint256,
    });
    expect(new X509Certificate(chain.ca?.pem ?? '').fingerprint256).toBe(ca.fingerprint256);
  });

  test('reading the chain sends nothing: the mock received no request', async () => {
    const before = mock.server.control.requests().length;
    await readServerChain(mock.server.baseUrl);
    expect(mock.server.control.requests()).toHaveLength(before);
  });

  test('only an https:// service has a certificate to read', async () => {
    await expect(readServerChain('http://127.0.0.1:1')).rejects.toMatchObject({ code: 'BAD_INPUT' });
  });
});
