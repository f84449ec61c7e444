// Profiles: which service to talk to (base URL, optional custom CA) with which key. Stored in
// settings.json, except the built-in "Embedded mock", which exists only while the app runs it.
import { randomUUID, X509Certificate } from 'node:crypto';
import { readFileSync, rmdirSync, rmSync, statSync } from 'node:fs';
import { isIPv4 } from 'node:net';
import { dirname, resolve } from 'node:path';
import { API_PREFIX } from '../../shared/api';
import { CoreError } from './core-error';
import type { KeyVault } from './key-vault';
import { createPrivateFileSync, ensurePrivateDirSync } from './private-files';
import type { SettingsStore, StoredProfile } from './settings-store';

export interface Profile {
  id: string;
  name: string;
  /** Scheme, host, port and optional path prefix; no trailing slash, no `/api/v1`. */
  baseUrl: string;
  keyId: string;
  /** Absolute path of a PEM file with the CA certificate(s) to trust for this profile. */
  caCertPath?: string;
  /** The embedded mock: cannot be edited or removed. */
  builtIn: boolean;
}

export interface ProfileInput {
  name: string;
  baseUrl: string;
  keyId: string;
  /** Empty means none. */
  caCertPath?: string;
}

/** A new profile; its CA may come as PEM text (pasted, or read by the renderer), kept in a file of ours. */
export interface NewProfile extends ProfileInput {
  caCertPem?: string;
}

/** What changed, for those who follow the active profile (the health monitor, the rate gauge). */
export interface ProfilesChange {
  activeChanged: boolean;
}

/** `caCertPath: null` removes the custom CA. */
export type ProfileChanges = Partial<Omit<ProfileInput, 'caCertPath'>> & { caCertPath?: string | null };

export type ProfileErrorCode =
  | 'INVALID_NAME'
  | 'DUPLICATE_NAME'
  | 'INVALID_URL'
  | 'INSECURE_URL'
  | 'INVALID_CA'
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
const EMBEDDED_MOCK_PROFILE_NAME = 'Embedded mock';
const EMBEDDED_MOCK_KEY_NAME = 'Embedded mock demo key';
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
 * DESIGN.md §2: https required, http only on loopback. Returns the URL normalised (lower-case
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
function checkPemCertificates(text: string, what: string): void {
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

function rmdirIfEmpty(dir: string): void {
  try {
    rmdirSync(dir);
  } catch {
    // not empty (or already gone): leave it
  }
}

function checkName(input: unknown): string {
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

function optionalCa(path: string | null | undefined): string | undefined {
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

export interface ProfileStoreOptions {
  /** Checks that a profile's key exists (`KeyVault.has`); without it any key id is accepted. */
  keyExists?: (keyId: string) => boolean;
  /** Where CA certificates given as PEM text are kept (one file each, readable by the user only). */
  caDir?: string;
  /** Which origins each key may be sent to (issue 13; the vault's `originStatus` / `allowOrigin`). */
  keyOrigins?: {
    status(keyId: string, origin: string): 'allowed' | 'first' | 'new';
    allow(keyId: string, origin: string): void;
  };
}

/** Said when a profile would send a key somewhere it was not added for. */
export interface AddOptions {
  /** The user confirmed sending the key to this profile's origin (checked by the caller). */
  originConfirmed?: boolean;
  /**
   * A key with no server yet may take this profile's as its first without being typed again: only
   * where the user typed the command (the CLI's `profiles add`). Never through the bridge, which a
   * program holding only the web host's token can call (docs/security.md, "Where a key may be sent").
   */
  bindFirstOrigin?: boolean;
}

/** The origin (scheme://host:port) of a normalised base URL. */
export function originOf(baseUrl: string): string {
  return new URL(baseUrl).origin;
}

export class ProfileStore {
  private embedded: Profile | undefined;
  private readonly listeners = new Set<(change: ProfilesChange) => void>();

  constructor(
    private readonly settings: SettingsStore,
    private readonly options: ProfileStoreOptions = {},
  ) {}

  /** Called after every change to the profiles, saying whether the active one changed. */
  subscribe(listener: (change: ProfilesChange) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Runs a change and tells the listeners, comparing the active profile before and after. */
  private change<T>(run: () => T): T {
    const before = this.active();
    const result = run();
    const after = this.active();
    const activeChanged = before?.id !== after?.id || before?.baseUrl !== after?.baseUrl;
    for (const listener of this.listeners) listener({ activeChanged });
    return result;
  }

  /** Wires (or, with undefined, unwires) the built-in profile of the in-process mock. */
  setEmbeddedMock(profile: Profile | undefined): void {
    this.change(() => {
      this.embedded = profile ? { ...profile, id: EMBEDDED_MOCK_PROFILE_ID, builtIn: true } : undefined;
    });
  }

  list(): Profile[] {
    const saved = this.settings.read().profiles.map((p): Profile => ({ ...p, builtIn: false }));
    return this.embedded ? [{ ...this.embedded }, ...saved] : saved;
  }

  get(id: string): Profile | undefined {
    return this.list().find((p) => p.id === id);
  }

  /**
   * Adds a profile; a CA given as PEM is written to a file of ours only once everything else has
   * been accepted, and removed again (with a ca/ folder it made) if saving the profile fails.
   */
  add(input: NewProfile, options: AddOptions = {}): Profile {
    const { caCertPem, ...rest } = input;
    this.checkOrigin(rest.keyId, rest.baseUrl, options);
    const pem = caCertPem?.trim() ? caCertPem : undefined;
    if (pem !== undefined) checkPemCertificates(pem, 'The CA certificate');
    const { caCertPath: _replacedByPem, ...withoutCa } = rest;
    const checked = this.check(pem !== undefined ? withoutCa : rest, undefined);
    const written = pem !== undefined ? this.writeCaPem(pem) : undefined;
    const stored: StoredProfile = {
      id: randomUUID(),
      ...checked,
      ...(written ? { caCertPath: written.file } : {}),
    };
    this.change(() => {
      try {
        this.settings.update((draft) => {
          draft.profiles.push(stored);
        });
      } catch (error) {
        written?.undo();
        throw error;
      }
      // Only once saved (and before anyone hears of it): a refused profile leaves its key unbound.
      this.options.keyOrigins?.allow(stored.keyId, originOf(stored.baseUrl));
    });
    return { ...stored, builtIn: false };
  }

  /** Writes a checked PEM into ca/; `undo` puts the folder back as it was. */
  private writeCaPem(pem: string): { file: string; undo: () => void } {
    const caDir = this.options.caDir;
    if (!caDir) throw new ProfileError('INVALID_CA', 'This store keeps no CA files: give a path.');
    // A real folder of ours (never a link), made 0700: the copies are the user's.
    const madeDir = ensurePrivateDirSync(caDir, dirname(caDir));
    const file = resolve(caDir, `${randomUUID()}.pem`);
    const undo = (): void => {
      rmSync(file, { force: true });
      // Only if still empty: another process may have put a CA of its own there meanwhile.
      if (madeDir) rmdirIfEmpty(caDir);
    };
    try {
      createPrivateFileSync(file, pem);
    } catch (error) {
      undo(); // a full disk must not leave half a certificate behind
      throw error;
    }
    return { file, undo };
  }

  /** A CA file of ours (in ca/) that no profile names any more is deleted; the user's own never. */
  private dropOwnCa(path: string | undefined): void {
    const caDir = this.options.caDir;
    if (!path || !caDir || dirname(path) !== resolve(caDir)) return;
    if (this.list().some((p) => p.caCertPath === path)) return;
    rmSync(path, { force: true });
  }

  update(id: string, changes: ProfileChanges, options: AddOptions = {}): Profile {
    const current = this.editable(id);
    const merged: ProfileInput = {
      name: changes.name ?? current.name,
      baseUrl: changes.baseUrl ?? current.baseUrl,
      keyId: changes.keyId ?? current.keyId,
      caCertPath: changes.caCertPath === null ? undefined : (changes.caCertPath ?? current.caCertPath),
    };
    this.checkOrigin(merged.keyId, merged.baseUrl, options);
    const stored: StoredProfile = { id, ...this.check(merged, id) };
    this.change(() => {
      this.settings.update((draft) => {
        draft.profiles = draft.profiles.map((p) => (p.id === id ? stored : p));
      });
      this.options.keyOrigins?.allow(stored.keyId, originOf(stored.baseUrl));
    });
    if (stored.caCertPath !== current.caCertPath) this.dropOwnCa(current.caCertPath);
    return { ...stored, builtIn: false };
  }

  remove(id: string): void {
    const removed = this.editable(id);
    this.change(() =>
      this.settings.update((draft) => {
        draft.profiles = draft.profiles.filter((p) => p.id !== id);
        if (draft.activeProfileId === id) delete draft.activeProfileId;
      }),
    );
    this.dropOwnCa(removed.caCertPath);
  }

  use(id: string): Profile {
    const profile = this.get(id);
    if (!profile) throw new ProfileError('NOT_FOUND', 'There is no profile with that id.');
    this.change(() =>
      this.settings.update((draft) => {
        draft.activeProfileId = id;
      }),
    );
    return profile;
  }

  /**
   * The profile chosen with `use`; when it is not available in this process (the CLI runs no
   * embedded mock) there is none, rather than quietly sending requests somewhere else. With no
   * choice made yet: the embedded mock if wired, else the first saved profile.
   */
  active(): Profile | undefined {
    const chosen = this.settings.read().activeProfileId;
    const profiles = this.list();
    if (chosen !== undefined) return profiles.find((p) => p.id === chosen);
    return profiles[0];
  }

  private editable(id: string): Profile {
    const profile = this.get(id);
    if (!profile) throw new ProfileError('NOT_FOUND', 'There is no profile with that id.');
    if (profile.builtIn) {
      throw new ProfileError(
        'BUILT_IN',
        'The built-in "Embedded mock" profile cannot be changed or removed.',
      );
    }
    return profile;
  }

  /**
   * A stored key goes only to the origins it was added for. Another origin needs the user's
   * confirmation, which the caller checks (the bridge: the key typed again); so does the first
   * origin of a key added with none, unless the user asked for it at the terminal.
   */
  private checkOrigin(keyId: string, baseUrl: string, options: AddOptions): void {
    if (!this.options.keyOrigins || options.originConfirmed) return;
    let origin: string;
    let known: boolean;
    try {
      origin = originOf(normaliseBaseUrl(baseUrl));
      known = !this.options.keyExists || this.options.keyExists(keyId);
    } catch {
      return; // the URL's own error comes from check(), with its words
    }
    if (!known) return;
    const status = this.options.keyOrigins.status(keyId, origin);
    if (status === 'allowed' || (status === 'first' && options.bindFirstOrigin)) return;
    throw new ProfileError(
      'ORIGIN_NOT_CONFIRMED',
      status === 'first'
        ? `This key was added without a server, so it has not been sent anywhere yet. Before it is sent to ${origin}, confirm by typing the key again.`
        : `This key was added for another server. Before it is sent to ${origin}, confirm by typing the key again.`,
    );
  }

  private check(input: ProfileInput, id: string | undefined): Omit<StoredProfile, 'id'> {
    const name = checkName(input.name);
    const clash = this.list().some((p) => p.id !== id && p.name.toLowerCase() === name.toLowerCase());
    if (clash || name.toLowerCase() === EMBEDDED_MOCK_PROFILE_NAME.toLowerCase()) {
      throw new ProfileError('DUPLICATE_NAME', `A profile named "${name}" already exists.`);
    }
    const baseUrl = normaliseBaseUrl(input.baseUrl);
    const keyId = typeof input.keyId === 'string' ? input.keyId : '';
    if (keyId === '' || (this.options.keyExists && !this.options.keyExists(keyId))) {
      throw new ProfileError(
        'UNKNOWN_KEY',
        'Choose one of your API keys for this profile (add the key first).',
      );
    }
    const caCertPath = optionalCa(input.caCertPath);
    return caCertPath ? { name, baseUrl, keyId, caCertPath } : { name, baseUrl, keyId };
  }
}

/**
 * App start-up glue for the built-in profile: puts the mock's demo key in the vault as a session
 * key (replacing the one from a previous start of the mock in this process) and wires the profile.
 */
export async function installEmbeddedMock(
  vault: KeyVault,
  profiles: ProfileStore,
  mock: { baseUrl: string; caCertPath: string; demoKey: string },
): Promise<Profile> {
  const previous = vault.list().find((k) => k.storage === 'session' && k.name === EMBEDDED_MOCK_KEY_NAME);
  if (previous) {
    // The old profile uses the old key: unwire it first, or the vault refuses to remove a key in use.
    profiles.setEmbeddedMock(undefined);
    await vault.remove(previous.id);
  }
  const key = await vault.add({
    name: EMBEDDED_MOCK_KEY_NAME,
    secret: mock.demoKey,
    sessionOnly: true,
    origins: [originOf(normaliseBaseUrl(mock.baseUrl))],
  });
  const profile = embeddedMockProfile({ baseUrl: mock.baseUrl, caCertPath: mock.caCertPath, keyId: key.id });
  profiles.setEmbeddedMock(profile);
  return profile;
}
