// The saved profiles (settings.json), the built-in "Embedded mock" wired while the app runs it, and
// the active one: each change checked (profiles.ts), a key sent to a new origin only once confirmed,
// a CA given as PEM text kept in a file of ours, and listeners told when the active profile changed.
import { randomUUID } from 'node:crypto';
import { rmdirSync, rmSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { ClientCertificateRecord } from './client-certificate';
import type { KeyVault } from './key-vault';
import { createPrivateFileSync, ensurePrivateDirSync } from './private-files';
import {
  checkName,
  checkPemCertificates,
  checkProxySetting,
  EMBEDDED_MOCK_PROFILE_ID,
  EMBEDDED_MOCK_PROFILE_NAME,
  embeddedMockProfile,
  normaliseBaseUrl,
  optionalCa,
  originOf,
  ProfileError,
  type NewProfile,
  type Profile,
  type ProfileChanges,
  type ProfileInput,
} from './profiles';
import type { SettingsStore, StoredProfile } from './settings-store';

const EMBEDDED_MOCK_KEY_NAME = 'Embedded mock demo key';

/** What changed, for those who follow the active profile (the health monitor, the rate gauge). */
export interface ProfilesChange {
  activeChanged: boolean;
}

export interface ProfileStoreOptions {
  /** Checks that a profile's key exists (`KeyVault.has`); without it any key id is accepted. */
  keyExists?: (keyId: string) => boolean;
  /** Where CA certificates given as PEM text are kept (one file each, readable by the user only). */
  caDir?: string;
  /** Where the copies of client certificates are kept (one file each, readable by the user only). */
  clientCertDir?: string;
  /** Which origins each key may be sent to (the vault's `originStatus` / `allowOrigin`). */
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

function rmdirIfEmpty(dir: string): void {
  try {
    rmdirSync(dir);
  } catch {
    // not empty (or already gone): leave it
  }
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
    return writeOwnCopy(caDir, '.pem', pem);
  }

  /**
   * Keeps a checked client certificate for a profile: a copy of ours (the user may move or renew
   * theirs), named in the profile with what it says of itself; the copy it replaces goes.
   */
  keepClientCert(
    id: string,
    certificate: (Omit<ClientCertificateRecord, 'file'> & { stored: Buffer }) | null,
  ): Profile {
    if (!certificate) return this.update(id, { clientCert: null });
    const dir = this.options.clientCertDir;
    if (!dir) throw new ProfileError('INVALID_CLIENT_CERT', 'This store keeps no client certificates.');
    const { stored, ...record } = certificate;
    const written = writeOwnCopy(dir, record.format === 'pkcs12' ? '.p12' : '.pem', stored);
    try {
      return this.update(id, { clientCert: { ...record, file: written.file } });
    } catch (error) {
      written.undo();
      throw error;
    }
  }

  /** Copies of ours (in ca/, client-certs/) that no profile names any more are deleted; the user's own files never. */
  private dropOwnCopies(gone: Profile): void {
    const drop = (
      path: string | undefined,
      dir: string | undefined,
      named: (p: Profile) => string | undefined,
    ): void => {
      if (!path || !dir || dirname(path) !== resolve(dir)) return;
      if (this.list().some((p) => named(p) === path)) return;
      rmSync(path, { force: true });
    };
    drop(gone.caCertPath, this.options.caDir, (p) => p.caCertPath);
    drop(gone.clientCert?.file, this.options.clientCertDir, (p) => p.clientCert?.file);
  }

  /**
   * Changes a profile with the checks of `add`: a key going to a server new to it needs the
   * user's confirmation; a CA given as PEM replaces the profile's (written as `add` writes it).
   */
  update(id: string, changes: ProfileChanges & { caCertPem?: string }, options: AddOptions = {}): Profile {
    const current = this.editable(id);
    const pem = changes.caCertPem?.trim() ? changes.caCertPem : undefined;
    const merged: ProfileInput = {
      name: changes.name ?? current.name,
      baseUrl: changes.baseUrl ?? current.baseUrl,
      keyId: changes.keyId ?? current.keyId,
      caCertPath:
        pem !== undefined || changes.caCertPath === null
          ? undefined
          : (changes.caCertPath ?? current.caCertPath),
      proxy: changes.proxy === null ? undefined : (changes.proxy ?? current.proxy),
      proxyPasswordSavedAt:
        changes.proxyPasswordSavedAt === null
          ? undefined
          : (changes.proxyPasswordSavedAt ?? current.proxyPasswordSavedAt),
      clientCert: changes.clientCert === null ? undefined : (changes.clientCert ?? current.clientCert),
    };
    this.checkOrigin(merged.keyId, merged.baseUrl, options);
    if (pem !== undefined) checkPemCertificates(pem, 'The CA certificate');
    const checked = this.check(merged, id);
    const written = pem !== undefined ? this.writeCaPem(pem) : undefined;
    const stored: StoredProfile = { id, ...checked, ...(written ? { caCertPath: written.file } : {}) };
    this.change(() => {
      try {
        this.settings.update((draft) => {
          draft.profiles = draft.profiles.map((p) => (p.id === id ? stored : p));
        });
      } catch (error) {
        written?.undo();
        throw error;
      }
      this.options.keyOrigins?.allow(stored.keyId, originOf(stored.baseUrl));
    });
    this.dropOwnCopies(current);
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
    this.dropOwnCopies(removed);
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
    const proxy = checkProxySetting(input.proxy);
    return {
      name,
      baseUrl,
      keyId,
      ...(caCertPath ? { caCertPath } : {}),
      ...(proxy ? { proxy } : {}),
      // A password belongs to a proxy URL; none without one.
      ...(proxy && proxy !== 'none' && input.proxyPasswordSavedAt
        ? { proxyPasswordSavedAt: input.proxyPasswordSavedAt }
        : {}),
      ...(input.clientCert ? { clientCert: input.clientCert } : {}),
    };
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

/** Writes `data` into a new file of `dir` (0600, in a 0700 folder); `undo` puts the folder back. */
function writeOwnCopy(
  dir: string,
  extension: string,
  data: string | Buffer,
): { file: string; undo: () => void } {
  // A real folder of ours (never a link), made 0700: the copies are the user's.
  const madeDir = ensurePrivateDirSync(dir, dirname(dir));
  const file = resolve(dir, `${randomUUID()}${extension}`);
  const undo = (): void => {
    rmSync(file, { force: true });
    // Only if still empty: another process may have put a copy of its own there meanwhile.
    if (madeDir) rmdirIfEmpty(dir);
  };
  try {
    createPrivateFileSync(file, data);
  } catch (error) {
    undo(); // a full disk must not leave half a certificate behind
    throw error;
  }
  return { file, undo };
}
