// A profile's client certificate: what a service that asks for one (mutual TLS) is shown. It comes
// as PEM (the certificate and its private key, in one file or two) or as PKCS#12 (.p12/.pfx, one
// file, opened with a passphrase). It is checked when the user gives it — the key belongs to the
// certificate, the passphrase opens it —, kept in a file of ours readable by the user only, its
// passphrase in the keychain, and its subject and expiry in the profile, so a profile card shows
// them without opening anything (docs/architecture.md, "Client certificates").
import { X509Certificate, createPrivateKey } from 'node:crypto';
import { isIP } from 'node:net';
import { createSecureContext, type SecureContext, type SecureContextOptions } from 'node:tls';
import { CoreError } from './core-error';

/** What a profile says of its client certificate (never the key). */
export interface ClientCertificateRecord {
  /** Our copy: `<id>.pem` (certificate and key) or `<id>.p12`. */
  file: string;
  format: 'pem' | 'pkcs12';
  subject: string;
  issuer: string;
  /** When it stops being valid (epoch ms). */
  validTo: number;
  /** When its passphrase was put in the keychain (epoch ms); none: it needs none. */
  passphraseSavedAt?: number;
}

/** The certificate and key as TLS takes them. */
export type ClientCertificateTls = Pick<SecureContextOptions, 'cert' | 'key' | 'pfx' | 'passphrase'>;

/** The certificate as given: PEM text (with the key, or the key apart), or PKCS#12 bytes. */
export interface ClientCertificateInput {
  material: Buffer;
  /** A PEM key from a file of its own, when `material` holds the certificate only. */
  key?: string;
  passphrase?: string;
}

/**
 * The certificate as the bridge carries it: PEM text as it is, a PKCS#12 file's bytes in base64
 * (a window reads the file; binary does not travel as text).
 */
export function clientCertificateMaterial(text: string): Buffer {
  return text.includes('-----BEGIN') ? Buffer.from(text, 'utf8') : Buffer.from(text.trim(), 'base64');
}

/** Where a profile's client-certificate passphrase is kept in the keychain (core.secrets). */
export const clientCertPassphraseAccount = (profileId: string): string =>
  `client-cert-passphrase:${profileId}`;

const MAX_CLIENT_CERT_BYTES = 256 * 1024;

const isPem = (material: Buffer): boolean => material.subarray(0, 8192).includes('-----BEGIN');

const fail = (message: string): never => {
  throw new CoreError('INVALID_CLIENT_CERT', message);
};

/** `material` (and the separate key) as TLS options: one PEM text with both, or the PKCS#12. */
export function clientCertificateTls(input: ClientCertificateInput): {
  tls: ClientCertificateTls;
  format: ClientCertificateRecord['format'];
  stored: Buffer;
} {
  const passphrase = input.passphrase || undefined;
  if (!isPem(input.material)) {
    return { tls: { pfx: input.material, passphrase }, format: 'pkcs12', stored: input.material };
  }
  const text = input.key
    ? `${input.material.toString('utf8').trim()}\n${input.key.trim()}\n`
    : input.material.toString('utf8');
  return { tls: { cert: text, key: text, passphrase }, format: 'pem', stored: Buffer.from(text, 'utf8') };
}

/**
 * Checks a client certificate as the user gives it and says what it is. Every refusal is in words
 * and quotes nothing of the file: it holds a private key.
 */
export function readClientCertificate(input: ClientCertificateInput): {
  tls: ClientCertificateTls;
  format: ClientCertificateRecord['format'];
  stored: Buffer;
  subject: string;
  issuer: string;
  validTo: number;
} {
  if (input.material.length === 0) fail('The client certificate file is empty.');
  if (input.material.length > MAX_CLIENT_CERT_BYTES) {
    fail('That file is too large to be a client certificate (over 256 KB).');
  }
  const read = clientCertificateTls(input);
  if (read.format === 'pem') checkPemPair(read.tls.cert as string, input.passphrase);
  let certificate: X509Certificate;
  try {
    // OpenSSL reads the pair (or opens the PKCS#12) exactly as a connection will.
    const context = createSecureContext(read.tls);
    certificate = new X509Certificate(context.context.getCertificate() as Buffer);
  } catch (error) {
    return fail(explainOpenFailure(read.format, input.passphrase, error));
  }
  return {
    ...read,
    subject: oneLine(certificate.subject),
    issuer: oneLine(certificate.issuer),
    validTo: Date.parse(certificate.validTo),
  };
}

/** A PEM text must hold a certificate and a private key, and the key must be the certificate's. */
function checkPemPair(text: string, passphrase: string | undefined): void {
  if (!/-----BEGIN CERTIFICATE-----/.test(text))
    fail('The file holds no certificate (PEM "BEGIN CERTIFICATE").');
  if (!/-----BEGIN (?:[A-Z]+ )?PRIVATE KEY-----/.test(text)) {
    fail('The file holds no private key: choose a file with both, or give the key file as well.');
  }
  let certificate: X509Certificate;
  try {
    certificate = new X509Certificate(text);
  } catch {
    return fail('The certificate in the file cannot be read.');
  }
  let key;
  try {
    key = createPrivateKey({ key: text, ...(passphrase ? { passphrase } : {}) });
  } catch {
    return fail(
      passphrase
        ? 'The passphrase does not open the private key.'
        : 'The private key is encrypted: give its passphrase.',
    );
  }
  if (!certificate.checkPrivateKey(key)) fail('The private key does not belong to the certificate.');
}

function explainOpenFailure(
  format: ClientCertificateRecord['format'],
  passphrase: string | undefined,
  error: unknown,
): string {
  const message = error instanceof Error ? error.message : '';
  if (format === 'pkcs12') {
    if (/mac verify|password|decrypt/i.test(message)) {
      return passphrase
        ? 'The passphrase does not open the PKCS#12 file.'
        : 'The PKCS#12 file needs its passphrase.';
    }
    return 'The file is neither PEM nor a PKCS#12 (.p12/.pfx) certificate.';
  }
  return 'The certificate and key cannot be used together for TLS.';
}

/** Distinguished names come one part per line from X509Certificate; a card shows them on one. */
const oneLine = (name: string): string => name.split('\n').filter(Boolean).join(', ');

/** The TLS alerts by which a service refuses a client certificate it was shown. */
const CERT_REFUSED_ALERTS =
  /ALERT_(?:UNKNOWN_CA|BAD_CERTIFICATE|CERTIFICATE_UNKNOWN|CERTIFICATE_EXPIRED|CERTIFICATE_REVOKED|ACCESS_DENIED|UNSUPPORTED_CERTIFICATE)$/;
/** …and by which it says it wants one (TLS 1.3's own alert; TLS 1.2's generic handshake failure). */
const CERT_REQUIRED_ALERTS = /ALERT_(?:CERTIFICATE_REQUIRED|HANDSHAKE_FAILURE)$/;

/**
 * Why a service closed a TLS connection before answering, when it is the client certificate:
 * `required` (none was shown), `refused` (the one shown was not accepted). Under TLS 1.3 the
 * refusal comes after the handshake and undici reports only "other side closed", so one more
 * handshake is made here — nothing is written on it, no request, no key —, in TLS 1.2 and then,
 * for a TLS 1.3-only service, in 1.3. A service refuses with an alert (OpenSSL-based servers), or
 * by closing the connection as soon as the handshake is done (Node's, which checks the
 * certificate after it): with a certificate shown, a close before any request is its refusal.
 */
export async function probeClientCertRefusal(
  baseUrl: string,
  tls: { clientCertShown: boolean; trust: SecureContext },
): Promise<'required' | 'refused' | undefined> {
  const url = new URL(baseUrl);
  if (url.protocol !== 'https:') return undefined;
  const shown = tls.clientCertShown;
  for (const version of ['TLSv1.2', 'TLSv1.3'] as const) {
    const ending = await handshakeEnding(url, tls.trust, version);
    if (ending === 'open') return undefined; // the service waits for a request: not its certificate check
    if (ending === 'closed') {
      if (shown) return 'refused';
      continue;
    }
    if (ending && (CERT_REFUSED_ALERTS.test(ending) || CERT_REQUIRED_ALERTS.test(ending))) {
      return shown ? 'refused' : 'required';
    }
  }
  return undefined;
}

/** How long a service that accepted the certificate is given to close anyway (it would not). */
const REFUSAL_WAIT_MS = 1500;

/**
 * How a handshake at `version` ends: an alert's code, `closed` right after it completed, `open`
 * (still open after REFUSAL_WAIT_MS), or undefined (no handshake at all at that version).
 */
async function handshakeEnding(
  url: URL,
  secureContext: SecureContext,
  version: 'TLSv1.2' | 'TLSv1.3',
): Promise<string | undefined> {
  const { connect } = await import('node:tls');
  return new Promise((resolve) => {
    let secure = false;
    const socket = connect({
      host: url.hostname.replace(/^\[(.*)\]$/, '$1'),
      port: Number(url.port || 443),
      servername: isIP(url.hostname) ? undefined : url.hostname,
      secureContext,
      minVersion: version,
      maxVersion: version,
    });
    const done = (ending: string | undefined): void => {
      clearTimeout(timer);
      socket.destroy();
      resolve(ending);
    };
    let timer = setTimeout(() => done(undefined), REFUSAL_WAIT_MS * 2);
    socket.on('error', (error: NodeJS.ErrnoException) =>
      done(error.code?.includes('ALERT') ? error.code : secure ? 'closed' : undefined),
    );
    socket.on('close', () => done(secure ? 'closed' : undefined));
    socket.on('secureConnect', () => {
      secure = true;
      socket.resume();
      clearTimeout(timer);
      timer = setTimeout(() => done('open'), REFUSAL_WAIT_MS);
    });
  });
}
