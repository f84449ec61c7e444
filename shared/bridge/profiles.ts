// profiles:… — which service, with which key and CA; the active one is what every screen uses.
import { z } from 'zod';
import type { ReceivedHealthReport as HealthReport } from '../received';
import type { BridgeError } from './result';
import { id, none, returns, text, type DomainCalls } from './schemas';

export const PROFILES_CALLS = {
  'profiles:list': { input: none, output: returns<ProfileInfo[]>() },
  'profiles:add': {
    input: z.strictObject({
      name: text(200),
      baseUrl: text(2000),
      keyId: id,
      /** PEM text of a CA certificate to trust (pasted or read from a file by the renderer). */
      caCertPem: text(1_000_000).optional(),
      /**
       * The key typed again: the user's confirmation that it may go to this origin, new to it or
       * the first it has. Only the user has it; the web host's token alone cannot confirm.
       */
      confirmKey: text(200).optional(),
      /** '' or absent: the environment's proxy; `none`: direct; else a proxy URL with no password. */
      proxy: text(2000).optional(),
      /** The proxy's password, kept in the keychain; '' removes the one kept. */
      proxyPassword: text(500).optional(),
      /** A client certificate: PEM text (certificate and key), or a PKCS#12 file in base64. */
      clientCert: text(1_000_000).optional(),
      /** Its PEM private key, when the certificate's file holds none. */
      clientKey: text(1_000_000).optional(),
      /** The passphrase of the PKCS#12 file or the encrypted key, kept in the keychain. */
      clientCertPassphrase: text(500).optional(),
    }),
    output: returns<ProfileInfo>(),
  },
  /**
   * Changes a profile: the same checks as adding, the key typed again when it would go to a
   * server new to it. `caCertPem` replaces the CA; `systemCa` goes back to the system trust store;
   * neither keeps the profile's CA.
   */
  'profiles:update': {
    input: z.strictObject({
      id,
      name: text(200),
      baseUrl: text(2000),
      keyId: id,
      caCertPem: text(1_000_000).optional(),
      systemCa: z.literal(true).optional(),
      confirmKey: text(200).optional(),
      /** '' or absent: the environment's proxy; `none`: direct; else a proxy URL with no password. */
      proxy: text(2000).optional(),
      /** The proxy's password, kept in the keychain; '' removes the one kept. */
      proxyPassword: text(500).optional(),
      /** A client certificate: PEM text (certificate and key), or a PKCS#12 file in base64. */
      clientCert: text(1_000_000).optional(),
      /** Its PEM private key, when the certificate's file holds none. */
      clientKey: text(1_000_000).optional(),
      /** The passphrase of the PKCS#12 file or the encrypted key, kept in the keychain. */
      clientCertPassphrase: text(500).optional(),
      /** Show no client certificate any more (its copy and passphrase go). */
      noClientCert: z.literal(true).optional(),
    }),
    output: returns<ProfileInfo>(),
  },
  'profiles:remove': { input: z.strictObject({ id }), output: returns<{ removed: string }>() },
  /**
   * The certificate chain an https:// server presents, read (nothing sent) so the user can check
   * its issuer and fingerprint before trusting its CA for a profile.
   */
  'profiles:serverCertificate': {
    input: z.strictObject({ baseUrl: text(2000) }),
    output: returns<ServerChain>(),
  },
  'profiles:use': { input: z.strictObject({ id }), output: returns<ProfileInfo>() },
  /** Calls GET /health with the profile and reports what happened. */
  'profiles:test': { input: z.strictObject({ id }), output: returns<ConnectionTest>() },
} as const satisfies DomainCalls<'profiles'>;

export interface ProfilesEvents {
  'profiles:changed': ProfileInfo[];
}

export interface ProfileInfo {
  id: string;
  name: string;
  baseUrl: string;
  keyId: string;
  caCertPath?: string;
  /** Absent: the environment's proxy; `none`: direct; else the proxy's URL (no password). */
  proxy?: string;
  /** When the proxy's password was put in the keychain (epoch ms); absent: none kept. */
  proxyPasswordSavedAt?: number;
  /** The client certificate shown to a service that asks for one; never its key. */
  clientCert?: {
    format: 'pem' | 'pkcs12';
    subject: string;
    issuer: string;
    /** When it stops being valid (epoch ms). */
    validTo: number;
    passphraseSavedAt?: number;
  };
  builtIn: boolean;
  active: boolean;
}

/** A certificate a service presented, as the user checks it before trusting it. */
export interface ServerCertificate {
  subject: string;
  issuer: string;
  /** SHA-256, colon-separated hex, as browsers and `openssl x509 -fingerprint -sha256` show it. */
  fingerprint256: string;
  validTo: string;
}

export interface ServerChain {
  /** The service's own certificate first, each issuer it sent after it. */
  chain: ServerCertificate[];
  /** The self-signed CA at the top of the chain, which a profile can trust; absent when not sent. */
  ca?: ServerCertificate & { pem: string };
}

export interface ConnectionTest {
  ok: boolean;
  durationMs: number;
  health?: HealthReport;
  error?: BridgeError;
}
