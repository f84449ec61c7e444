// Profiles: which service to talk to (base URL, optional custom CA) with which key, and what each
// of those may be — a base URL over https (http on this computer only), a CA file or PEM text that
// holds real certificates, a name. The saved profiles and the active one are profile-store.ts's;
// the built-in "Embedded mock" exists only while the app runs it.
import { X509Certificate } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { isIPv4 } from 'node:net';
import { resolve } from 'node:path';
import { API_PREFIX } from '../../shared/api';
import type { ClientCertificateRecord } from './client-certificate';
import { CoreError } from './core-error';
import { parseProxyUrl } from './proxy';

export interface Profile {
  id: string;
  name: string;
  /** Scheme, host, port and optional path prefix; no trailing slash, no `/api/v1`. */
  baseUrl: string;
  keyId: string;
  /** Absolute path of a PEM file with the CA certificate(s) to trust for this profile. */
  caCertPath?: string;
  /**
   * How its requests leave this computer: absent, by the environment's proxy variables (proxy.ts);
   * `none`, direct; else this proxy's URL (a user name at most: its password is in the keychain).
   */
  proxy?: string;
  /** When a password for `proxy` was put in the keychain (epoch ms); none: no password. */
  proxyPasswordSavedAt?: number;
  /** The certificate shown to a service that asks for one (client-certificate.ts). */
  clientCert?: ClientCertificateRecord;
  /** The embedded mock: cannot be edited or removed. */
  builtIn: boolean;
}

export interface ProfileInput {
  name: string;
  baseUrl: string;
  keyId: string;
  /** Empty means none. */
  caCertPath?: string;
  /** Empty or absent: the environment's; `none`; or a proxy URL (checkProxySetting). */
  proxy?: string;
  proxyPasswordSavedAt?: number;
  clientCert?: ClientCertificateRecord;
}

/** A new profile; its CA may come as PEM text (pasted, or read by the renderer), kept in a file of ours. */
export interface NewProfile extends ProfileInput {
  caCertPem?: string;
}

/** `caCertPath: null` removes the custom CA; `proxy: null` goes back to the environment's. */
export type ProfileChanges = Partial<
  Omit<ProfileInput, 'caCertPath' | 'proxy' | 'proxyPasswordSavedAt' | 'clientCert'>
> & {
  caCertPath?: string | null;
  proxy?: string | null;
  /** null: the password was removed. */
  proxyPasswordSavedAt?: number | null;
  /** null: the profile shows no client certificate any more. */
  clientCert?: ClientCertificateRecord | null;
};

export type ProfileErrorCode =
  | 'INVALID_NAME'
  | 'DUPLICATE_NAME'
  | 'INVALID_URL'
  | 'INSECURE_URL'
  | 'INVALID_CA'
  | 'INVALID_PROXY'
  | 'INVALID_CLIENT_CERT'
  | 'UNKNOWN_KEY'
  | 'NOT_FOUND'
  | 'BUILT_IN'
  | 'ORIGIN_NOT_CONFIRMED';

export class ProfileError extends CoreError {
  override readonly name = 'ProfileError';
  constructor(
    override readonly code: ProfileErrorCode,
    message: string,
  ) {
    super(code, message);
  }
}

export const EMBEDDED_MOCK_PROFILE_ID = 'embedded-mock';
export const EMBEDDED_MOCK_PROFILE_NAME = 'Embedded mock';
const MAX_PROFILE_NAME_LENGTH = 100;
/** No real CA bundle comes near this; it stops a mistaken path from reading a huge file. */
const MAX_CA_FILE_BYTES = 1024 * 1024;

/** 127.0.0.0/8, ::1 and localhost: where traffic never leaves the machine. */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/^\[(.*)\]$/, '$1');
  if (host === 'localhost' || host === '::1') return true;
  return isIPv4(host) && host.startsWith('127.');
}

/**
 * docs/decisions.md: https required, http only on loopback. Returns the URL normalised (lower-case
 * host, default port dropped, no trailing slash). Messages never quote the input: a key pasted
 * into the wrong field would otherwise be echoed.
 */
export function normaliseBaseUrl(input: string): string {
  const fail = (code: ProfileErrorCode, message: string): never => {
    throw new ProfileError(code, message);
  };
  const text = typeof input === 'string' ? input.trim() : '';
  if (text === '')
    return fail('INVALID_URL', 'Enter the base URL of the service, e.g. https://agents.example.com.');
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return fail(
      'INVALID_URL',
      'The base URL is not a valid URL; write it in full, e.g. https://agents.example.com.',
    );
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    return fail('INVALID_URL', 'The base URL must start with https:// (or http:// for this computer only).');
  }
  if (url.protocol === 'http:' && !isLoopbackHost(url.hostname)) {
    return fail(
      'INSECURE_URL',
      'Use https:// for this service: http:// is allowed only for this computer (localhost, 127.x.x.x, ::1), ' +
        'because the API key would otherwise cross the network unencrypted.',
    );
  }
  if (url.username !== '' || url.password !== '') {
    return fail(
      'INVALID_URL',
      'The base URL must not contain a user name or password; the API key is sent separately.',
    );
  }
  // Checked on the text, not the parsed URL: `https://host/?` parses to an empty `search`.
  if (text.includes('?') || text.includes('#')) {
    return fail('INVALID_URL', 'The base URL must not contain a query (?…) or a fragment (#…).');
  }
  let path = url.pathname.replace(/\/+$/, '');
  // Spec: every path begins with /api/v1, and the client adds it; a URL pasted from the docs
  // often already ends with it.
  if (path.endsWith(API_PREFIX)) path = path.slice(0, -API_PREFIX.length).replace(/\/+$/, '');
  return `${url.protocol}//${url.host}${path}`;
}

/** Checks that `text` holds at least one valid PEM certificate; `what` names it in the messages. */
export function checkPemCertificates(text: string, what: string): void {
  const fail = (message: string): never => {
    throw new ProfileError('INVALID_CA', message);
  };
  const blocks = text.match(/-----BEGIN CERTIFICATE-----[\s\S]*?-----END CERTIFICATE-----/g) ?? [];
  if (blocks.length === 0) {
    fail(
      `${what} contains no PEM certificate (a block starting with -----BEGIN CERTIFICATE-----). ` +
        'A binary .cer/.der file can be converted with: openssl x509 -inform der -in ca.cer -out ca.pem',
    );
  }
  for (const block of blocks) {
    try {
      new X509Certificate(block);
    } catch {
      fail(`${what} contains a PEM block that is not a valid certificate.`);
    }
  }
}

/** Checks that `path` is a readable PEM file holding at least one valid certificate; returns it absolute. */
export function checkCaCertFile(path: string): string {
  const fail = (message: string): never => {
    throw new ProfileError('INVALID_CA', message);
  };
  const absolute = resolve(path.trim());
  let size: number;
  try {
    const stat = statSync(absolute);
    if (!stat.isFile()) return fail(`The CA certificate path ${absolute} is not a file.`);
    size = stat.size;
  } catch (error) {
    if (error instanceof ProfileError) throw error;
    return fail(`The CA certificate file ${absolute} does not exist or cannot be read.`);
  }
  if (size > MAX_CA_FILE_BYTES) return fail(`The file ${absolute} is too large to be a CA certificate.`);
  checkPemCertificates(readFileSync(absolute, 'latin1'), `The file ${absolute}`);
  return absolute;
}

export function checkName(input: unknown): string {
  const name = typeof input === 'string' ? input.trim() : '';
  if (name === '') throw new ProfileError('INVALID_NAME', 'Give the profile a name.');
  if (name.length > MAX_PROFILE_NAME_LENGTH) {
    throw new ProfileError(
      'INVALID_NAME',
      `A profile name can be at most ${MAX_PROFILE_NAME_LENGTH} characters; this one has ${name.length}.`,
    );
  }
  return name;
}

/**
 * A profile's proxy setting: undefined (the environment's) for an empty one, `none`, or a proxy
 * URL, normalised. Its password never goes in the URL, which settings.json keeps in clear.
 */
export function checkProxySetting(input: string | undefined): string | undefined {
  const text = input?.trim() ?? '';
  if (text === '') return undefined;
  if (text.toLowerCase() === 'none') return 'none';
  let choice;
  try {
    choice = parseProxyUrl(text, 'The proxy');
  } catch (error) {
    throw new ProfileError('INVALID_PROXY', (error as Error).message);
  }
  if (choice.url.password !== '') {
    throw new ProfileError(
      'INVALID_PROXY',
      "Leave the password out of the proxy's URL: give it as the proxy password, which is kept in the keychain.",
    );
  }
  if (choice.url.pathname !== '/' || choice.url.search || choice.url.hash) {
    throw new ProfileError('INVALID_PROXY', 'A proxy URL is a scheme, a host and a port, with no path.');
  }
  const user = choice.url.username ? `${choice.url.username}@` : '';
  return `${choice.url.protocol}//${user}${choice.url.host}`;
}

export function optionalCa(path: string | null | undefined): string | undefined {
  return path && path.trim() !== '' ? checkCaCertFile(path) : undefined;
}

/**
 * The built-in profile for the in-process mock. It is not stored: the mock listens on a new port at
 * every start, so the app builds this afresh each time and hands it to `ProfileStore.setEmbeddedMock`.
 *
 * Its demo key enters the vault as a session-only key (see `installEmbeddedMock`), not as a keychain
 * entry, because:
 * - the mock hands out its demo keys at every start, so there is nothing worth keeping;
 * - a new user gets a working app with zero setup even where no keychain is reachable (Linux without
 *   a Secret Service), and no keychain prompt on first launch;
 * - nothing is left behind in the keychain, and no stale copy can outlive a reset mock data dir.
 */
export function embeddedMockProfile(options: {
  baseUrl: string;
  caCertPath: string;
  keyId: string;
}): Profile {
  return {
    id: EMBEDDED_MOCK_PROFILE_ID,
    name: EMBEDDED_MOCK_PROFILE_NAME,
    baseUrl: normaliseBaseUrl(options.baseUrl),
    keyId: options.keyId,
    caCertPath: checkCaCertFile(options.caCertPath),
    builtIn: true,
  };
}

/** The origin (scheme://host:port) of a normalised base URL. */
export function originOf(baseUrl: string): string {
  return new URL(baseUrl).origin;
}
