// The certificate chain a service presents, read so the user can see whom it was issued by before
// choosing to trust its CA for a profile (docs/security.md, "Trusting a service's CA"). The
// connection only reads: a TLS handshake with verification off — so an untrusted chain can be seen
// at all — and closed as soon as the chain is in. Nothing is written to it: no request, no key.
import { X509Certificate } from 'node:crypto';
import { isIP } from 'node:net';
import { connect, type DetailedPeerCertificate } from 'node:tls';
import type { ServerCertificate, ServerChain } from '../../shared/bridge/profiles';
import { CoreError } from './core-error';

const READ_TIMEOUT_MS = 10_000;

/** OpenSSL's words for a chain that does not lead to a CA this client trusts. */
const UNTRUSTED = new Set([
  'SELF_SIGNED_CERT_IN_CHAIN',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'CERT_UNTRUSTED',
]);

/** The TLS code of a failure whose certificate was not trusted (in its cause chain), if it is one. */
export function untrustedCertificateCode(error: unknown): string | undefined {
  for (let e = error, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && UNTRUSTED.has(code)) return code;
  }
  return undefined;
}

/** "CN=Agent Console mock CA, O=…" from X509Certificate's one-per-line form. */
const oneLine = (name: string): string => name.split('\n').filter(Boolean).join(', ');

function describe(cert: X509Certificate): ServerCertificate {
  return {
    subject: oneLine(cert.subject),
    issuer: oneLine(cert.issuer),
    fingerprint256: cert.fingerprint256,
    validTo: cert.validTo,
  };
}

/** The chain as the handshake gave it: the service's own certificate first, each issuer after. */
function chainOf(peer: DetailedPeerCertificate): X509Certificate[] {
  const chain: X509Certificate[] = [];
  const seen = new Set<string>();
  for (let cert: DetailedPeerCertificate | undefined = peer; cert?.raw; cert = cert.issuerCertificate) {
    const x509 = new X509Certificate(cert.raw);
    if (seen.has(x509.fingerprint256)) break; // a root names itself as its issuer
    seen.add(x509.fingerprint256);
    chain.push(x509);
  }
  return chain;
}

/**
 * Reads the certificate chain `baseUrl`'s server presents. `ca` is the top of the chain when it is
 * a self-signed CA certificate — what a profile can trust; absent when the server did not send its
 * issuer's certificate (then only the issuer's administrator can give the file).
 */
export async function readServerChain(baseUrl: string, timeoutMs = READ_TIMEOUT_MS): Promise<ServerChain> {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw new CoreError('BAD_INPUT', `"${baseUrl}" is not a URL.`);
  }
  if (url.protocol !== 'https:') {
    throw new CoreError('BAD_INPUT', 'Only an https:// service has a certificate to trust.');
  }
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const peer = await new Promise<DetailedPeerCertificate>((resolve, reject) => {
    const socket = connect({
      host,
      port: Number(url.port || 443),
      ...(isIP(host) ? {} : { servername: host }),
      // Only to read the chain: nothing is sent on this connection, and it closes at once.
      rejectUnauthorized: false,
      timeout: timeoutMs,
    });
    socket.once('secureConnect', () => {
      const chain = socket.getPeerCertificate(true);
      socket.destroy();
      resolve(chain);
    });
    socket.once('timeout', () => {
      socket.destroy();
      reject(
        new CoreError('NETWORK', `No TLS handshake from ${url.host} within ${timeoutMs / 1000} seconds.`),
      );
    });
    socket.once('error', (error: NodeJS.ErrnoException) =>
      reject(
        new CoreError(
          'NETWORK',
          `Could not read the certificate of ${url.host} (${error.code ?? error.message}).`,
        ),
      ),
    );
  });
  const chain = chainOf(peer);
  const top = chain.at(-1);
  if (!top) throw new CoreError('NETWORK', `${url.host} presented no certificate.`);
  const selfSignedCa = top.ca && top.subject === top.issuer && top.checkIssued(top);
  return {
    chain: chain.map(describe),
    ...(selfSignedCa ? { ca: { ...describe(top), pem: top.toString() } } : {}),
  };
}
