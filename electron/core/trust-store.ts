// What a service's certificate may lead to: the root certificates Node ships, those of the
// operating system's own store — where a company installs the root of its TLS-inspecting proxy —,
// and the profile's own CA when it has one (docs/architecture.md, "Proxies").
//
// The system store is read by Node: the macOS keychain, the Windows certificate store, and on
// Linux OpenSSL's default file and folder (`/etc/ssl/certs`, or SSL_CERT_FILE and SSL_CERT_DIR).
// It is read once, at the first connection that needs it, and each profile gets one TLS context,
// not a parse of some hundreds of certificates per connection.
import { createSecureContext, getCACertificates, rootCertificates, type SecureContext } from 'node:tls';
import type { ClientCertificateTls } from './client-certificate';

let roots: string[] | undefined;

/** Node's bundled roots (with NODE_EXTRA_CA_CERTS) and the operating system's, without repeats. */
function trustedRoots(): string[] {
  if (roots) return roots;
  const read = (type: 'default' | 'system'): string[] => {
    try {
      return getCACertificates(type);
    } catch {
      return []; // a store that cannot be read trusts nothing more; the bundled roots remain
    }
  };
  // A Node without getCACertificates (older than 22.15) has the bundled roots only.
  roots =
    typeof getCACertificates === 'function'
      ? [...new Set([...read('default'), ...read('system')])]
      : [...rootCertificates];
  return roots;
}

/**
 * One TLS context trusting the roots above and `ownCa`, a profile's pasted CA, and showing
 * `clientCert` to a service that asks for one.
 */
export function trustFor(ownCa?: string, clientCert?: ClientCertificateTls): SecureContext {
  return createSecureContext({ ca: ownCa ? [...trustedRoots(), ownCa] : trustedRoots(), ...clientCert });
}
