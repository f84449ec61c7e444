// A service that closes connections for reasons of its own ("other side closed") is asked once
// whether it is checking client certificates; the retries of the same call that follow are not
// each held up by another handshake with it.
import { createServer, type Server } from 'node:tls';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { ApiError } from '../../electron/core/api-error';
import { ClientCertReason } from '../../electron/core/call-failure';
import { makeCertificates } from '../../mock/cert';

let server: Server;
let baseUrl: string;
let ca: string;
let handshakes = 0;

beforeAll(async () => {
  const tls = await makeCertificates('Closing Test CA');
  ca = tls.ca;
  // Completes every handshake, then hangs up before any request: not a certificate check.
  server = createServer({ key: tls.key, cert: tls.cert }, (socket) => {
    handshakes++;
    socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  baseUrl = `https://127.0.0.1:${port}`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const closed = () => Object.assign(new Error('other side closed'), { code: 'UND_ERR_SOCKET' });
const network = () =>
  new ApiError({ status: 0, code: 'NETWORK', message: `Could not reach the service at ${baseUrl}.` });

test('a close that is not the certificate check stays NETWORK, and is probed once a minute, not on every retry', async () => {
  let now = 1_000;
  const reason = new ClientCertReason(() => now);

  const first = await reason.of(network(), closed(), { baseUrl, ca });
  expect(first.code).toBe('NETWORK');
  const probed = handshakes;
  expect(probed).toBeGreaterThan(0);

  now += 5_000; // the call's retry, seconds later
  expect((await reason.of(network(), closed(), { baseUrl, ca })).code).toBe('NETWORK');
  expect(handshakes).toBe(probed);

  now += 60_000; // a minute on, the service may have been set up differently: asked again
  expect((await reason.of(network(), closed(), { baseUrl, ca })).code).toBe('NETWORK');
  expect(handshakes).toBeGreaterThan(probed);
});

test('failures of other kinds are passed on as they are, with no handshake made', async () => {
  const reason = new ClientCertReason(() => 0);
  const before = handshakes;
  const refused = Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
  expect((await reason.of(network(), refused, { baseUrl, ca })).code).toBe('NETWORK');
  expect((await reason.of(network(), closed(), { baseUrl, ca, proxy: 'http://proxy:3128' })).code).toBe(
    'NETWORK',
  );
  expect(handshakes).toBe(before);
});
