// API keys: the secret in the OS keychain (or, for session-only keys, in memory), the metadata
// (name, masked last 4, created, learned tier) in settings.json. docs/architecture.md: the bridge and the
// UI only ever see KeyMeta; the core asks `secretFor` when it attaches `Authorization`.
import { randomUUID, timingSafeEqual } from 'node:crypto';
import { API_KEY_PATTERN } from '../../shared/api';
import { CoreError } from './core-error';
import { rememberSecret } from './redact';
import type { KeychainOpener, SecretStore } from './secret-store';
import { createMemorySecretStore } from './secret-store';
import type { SettingsStore, StoredKey } from './settings-store';

type KeyStorage = 'os-keychain' | 'session';

export interface KeyMeta {
  id: string;
  name: string;
  /** The last 4 characters, masked: `…abcd`. */
  last4: string;
  /** ISO 8601. */
  createdAt: string;
  /** Requests per minute, learned from `X-RateLimit-Limit`. */
  tier?: number;
  storage: KeyStorage;
  /** Where the key may be sent (origins, scheme://host:port); unset until its first profile. */
  origins?: string[];
}

export interface NewKey {
  name: string;
  secret: string;
  /** Kept in memory only and forgotten when the process quits; nothing is written to disk. */
  sessionOnly?: boolean;
  /**
   * Where it may be sent. Unset (`agent-console keys add`), its first server is bound by a profile
   * the user adds at the terminal, or confirms by typing the key again (profiles.ts checkOrigin).
   */
  origins?: string[];
}

/** `KEY_FORMAT`: what was typed is not shaped like a key (not the service's 401 INVALID_KEY). */
export type KeyVaultErrorCode =
  | 'KEY_FORMAT'
  | 'INVALID_NAME'
  | 'DUPLICATE_NAME'
  | 'NOT_FOUND'
  | 'NO_KEYCHAIN'
  | 'SECRET_MISSING'
  | 'KEY_IN_USE'
  | 'NOT_CONFIRMED';

/** Messages are written for people and never contain the secret. */
export class KeyVaultError extends CoreError {
  override readonly name = 'KeyVaultError';
  constructor(
    override readonly code: KeyVaultErrorCode,
    message: string,
  ) {
    super(code, message);
  }
}

const MAX_KEY_NAME_LENGTH = 100;
/** C0/C1 controls, and the bidi embeddings, overrides, isolates and marks (U+061C, U+200E/F, U+202A–E, U+2066–9). */
// eslint-disable-next-line no-control-regex
const UNSAFE_NAME_CHARS = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

const SHAPE_HINT = '3 letters or digits, then "_", then 32 letters or digits';
/** Key-shaped text anywhere in a string (API_KEY_PATTERN is anchored). */
const KEY_SHAPED = /[A-Za-z0-9]{3}_[A-Za-z0-9]{32}/;

/**
 * Checks a pasted key's shape (docs/decisions.md: never a fixed prefix) and returns it trimmed.
 * Each message says what is wrong without quoting the input: it may be a real secret.
 */
export function checkApiKey(input: unknown): string {
  const fail = (message: string): never => {
    throw new KeyVaultError('KEY_FORMAT', message);
  };
  if (typeof input !== 'string') return fail('The API key must be text.');
  const key = input.trim();
  if (key === '') return fail('Enter an API key.');
  if (/^bearer\s/i.test(key)) return fail('Paste the API key without the "Bearer " in front of it.');
  if (/\s/.test(key)) return fail('The API key contains spaces or line breaks; paste it exactly as issued.');
  if (key.length !== 36) {
    return fail(`An API key is 36 characters long (${SHAPE_HINT}); this one has ${key.length}.`);
  }
  if (key[3] !== '_') return fail(`An API key has "_" as its 4th character (${SHAPE_HINT}).`);
  if (!API_KEY_PATTERN.test(key)) {
    return fail(`An API key contains only letters and digits besides its "_" (${SHAPE_HINT}).`);
  }
  return key;
}

function maskKey(secret: string): string {
  return `…${secret.slice(-4)}`;
}

function checkName(input: unknown, secret: string): string {
  const fail = (message: string): never => {
    throw new KeyVaultError('INVALID_NAME', message);
  };
  if (typeof input !== 'string') return fail('The key name must be text.');
  const name = input.trim();
  if (name === '') return fail('Give the key a name.');
  if (name.length > MAX_KEY_NAME_LENGTH) {
    return fail(`A key name can be at most ${MAX_KEY_NAME_LENGTH} characters; this one has ${name.length}.`);
  }
  // A name is shown in lists and dialogs (the send-to-a-new-origin confirmation among them): no
  // control characters, and no bidi overrides that could make it read as something else.
  if (UNSAFE_NAME_CHARS.test(name)) {
    return fail('The key name contains control or text-direction characters; type it as plain text.');
  }
  // The name is stored in clear and shown everywhere: a key pasted into the wrong field must not
  // end up there.
  if (name.includes(secret) || KEY_SHAPED.test(name)) {
    return fail(
      'The name looks like an API key. Put the key in the key field and give it a name you will recognise.',
    );
  }
  return name;
}

/** Whether keys can be saved in the OS keychain, as the UI and `app:info` show it. */
export interface KeychainStatus {
  available: boolean;
  /** Why not, in words for the user. */
  reason?: string;
  /** Its probe is still under way (the system may be asking the user to unlock it). */
  checking?: boolean;
}

/** The keychain as the vault knows it: a store, or why there is none. */
type KeychainAccess = { store: SecretStore; reason?: undefined } | { store?: undefined; reason: string };

const CHECKING_KEYCHAIN =
  'The system keychain is still being checked. If your system asks you to unlock it, answer there.';

export interface KeyVaultOptions {
  settings: SettingsStore;
  /** The OS keychain when `openOsKeychain` found one; without it only session keys can be added. */
  keychain?: SecretStore;
  /** Why there is no keychain (`openOsKeychain`'s reason), repeated in NO_KEYCHAIN errors. */
  keychainUnavailableReason?: string;
  /**
   * The keychain opened when first needed, instead of `keychain`: the vault serves session keys
   * and key metadata at once, and whatever needs the keychain opens it and waits for the probe
   * (a keychain that is slow to answer, or waits for the user to unlock it, holds up no
   * start).
   */
  keychainOpener?: KeychainOpener;
  /** Where session-only secrets live; a fresh memory store by default. */
  session?: SecretStore;
  now?: () => number;
  /** Names of the profiles that use a key: a key in use cannot be removed. */
  usedBy?: (keyId: string) => string[];
}

export class KeyVault {
  private readonly settings: SettingsStore;
  /** The keychain once its probe is over; undefined until then. */
  private keychain: KeychainAccess | undefined;
  /** The keychain, opened if need be, once its probe is over. */
  private readonly keychainAccess: () => Promise<KeychainAccess>;
  private readonly session: SecretStore;
  private readonly now: () => number;
  private readonly usedBy: (keyId: string) => string[];
  private readonly listeners = new Set<() => void>();
  /** Session keys' metadata: like their secrets, never written anywhere. */
  private readonly sessionKeys = new Map<string, KeyMeta>();

  constructor(options: KeyVaultOptions) {
    this.settings = options.settings;
    const opener = options.keychainOpener;
    if (opener) {
      const opened = opener.opened.then(
        (opening): KeychainAccess =>
          opening.available ? { store: opening.store } : { reason: opening.reason },
        (error: unknown): KeychainAccess => ({
          reason: `The system keychain could not be opened: ${(error as Error).message}`,
        }),
      );
      void opened.then((access) => {
        this.keychain = access;
        // Whoever shows the keys shows where they can be kept: that is known now.
        this.changed();
      });
      this.keychainAccess = () => {
        void opener.open();
        return opened;
      };
    } else {
      const access: KeychainAccess = options.keychain
        ? { store: options.keychain }
        : { reason: options.keychainUnavailableReason ?? 'No system keychain is available.' };
      this.keychain = access;
      const opened = Promise.resolve(access);
      this.keychainAccess = () => opened;
    }
    this.session = options.session ?? createMemorySecretStore();
    this.now = options.now ?? Date.now;
    this.usedBy = options.usedBy ?? (() => []);
  }

  /** Called after every change to the list of keys (added, removed, a tier learned). */
  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private changed(): void {
    for (const listener of this.listeners) listener();
  }

  /** False while the keychain is being checked: `keychainChecked` waits for the answer. */
  get keychainAvailable(): boolean {
    return this.keychain?.store !== undefined;
  }

  /** Where keys can be saved, as known now. */
  get keychainStatus(): KeychainStatus {
    if (!this.keychain) return { available: false, reason: CHECKING_KEYCHAIN, checking: true };
    return this.keychain.store ? { available: true } : { available: false, reason: this.keychain.reason };
  }

  /** The status once the keychain's probe is over (opening it if nothing has yet). */
  async keychainChecked(): Promise<KeychainStatus> {
    await this.keychainAccess();
    return this.keychainStatus;
  }

  list(): KeyMeta[] {
    const saved = this.settings.read().keys.map((key): KeyMeta => ({ ...key }));
    return [...saved, ...[...this.sessionKeys.values()].map((key) => ({ ...key }))];
  }

  get(id: string): KeyMeta | undefined {
    return this.list().find((key) => key.id === id);
  }

  has(id: string): boolean {
    return this.get(id) !== undefined;
  }

  async add(input: NewKey): Promise<KeyMeta> {
    const secret = checkApiKey(input.secret);
    rememberSecret(secret);
    const name = checkName(input.name, secret);
    const sessionOnly = input.sessionOnly === true;
    const keychain = sessionOnly ? undefined : await this.keychainAccess();
    if (keychain && !keychain.store) {
      throw new KeyVaultError(
        'NO_KEYCHAIN',
        `${keychain.reason} Add the key as a session-only key, or start a keychain and try again.`,
      );
    }
    // After the wait for the keychain: a key added meanwhile may have taken the name.
    const taken = this.list().some((key) => key.name.toLowerCase() === name.toLowerCase());
    if (taken) throw new KeyVaultError('DUPLICATE_NAME', `A key named "${name}" already exists.`);
    const meta: KeyMeta = {
      id: randomUUID(),
      name,
      last4: maskKey(secret),
      createdAt: new Date(this.now()).toISOString(),
      storage: sessionOnly ? 'session' : 'os-keychain',
      ...(input.origins ? { origins: [...input.origins] } : {}),
    };
    if (sessionOnly) {
      await this.session.set(meta.id, secret);
      this.sessionKeys.set(meta.id, meta);
      this.changed();
      return { ...meta };
    }
    const store = keychain?.store as SecretStore;
    await store.set(meta.id, secret);
    try {
      const stored: StoredKey = { ...meta, storage: 'os-keychain' };
      this.settings.update((draft) => {
        draft.keys.push(stored);
      });
    } catch (error) {
      // No metadata means no way to find the secret again: do not leave it orphaned.
      await store.delete(meta.id).catch(() => false);
      throw error;
    }
    this.changed();
    return { ...meta };
  }

  /** Deletes the secret from where it lives, then the metadata. */
  async remove(id: string): Promise<void> {
    const meta = this.require(id);
    const users = this.usedBy(id);
    if (users.length > 0) {
      const them = users.map((name) => `"${name}"`).join(', ');
      throw new KeyVaultError(
        'KEY_IN_USE',
        `This key is used by the profile${users.length > 1 ? 's' : ''} ${them}: remove or change ${users.length > 1 ? 'them' : 'it'} first.`,
      );
    }
    if (meta.storage === 'session') {
      await this.session.delete(id);
      this.sessionKeys.delete(id);
      this.changed();
      return;
    }
    // Keep the metadata while the secret cannot be deleted, so the user can retry rather than
    // leave a secret in the keychain that nothing points to.
    const keychain = await this.keychainFor(meta);
    await keychain.delete(id);
    this.settings.update((draft) => {
      draft.keys = draft.keys.filter((key) => key.id !== id);
    });
    this.changed();
  }

  /** Core-internal: the secret, for the API client's `Authorization`. Never cross the bridge. */
  async secretFor(id: string): Promise<string> {
    const meta = this.require(id);
    const store = meta.storage === 'session' ? this.session : await this.keychainFor(meta);
    const secret = await store.get(id);
    if (secret === undefined) {
      throw new KeyVaultError(
        'SECRET_MISSING',
        `The secret of key "${meta.name}" is no longer in the ${meta.storage === 'session' ? 'session' : 'system keychain'}. Remove the key and add it again.`,
      );
    }
    // From here on it is masked in every output of this process, whatever a server does with it.
    rememberSecret(secret);
    return secret;
  }

  /**
   * Records the limit the service reported in `X-RateLimit-Limit`. Called on every response, so it
   * writes only when the value changes, and ignores nonsense instead of failing the request.
   */
  learnTier(id: string, limit: number): KeyMeta | undefined {
    const meta = this.get(id);
    if (!meta || !Number.isInteger(limit) || limit <= 0 || meta.tier === limit) return meta;
    if (meta.storage === 'session') {
      const updated = { ...meta, tier: limit };
      this.sessionKeys.set(id, updated);
      this.changed();
      return { ...updated };
    }
    this.settings.update((draft) => {
      const key = draft.keys.find((k) => k.id === id);
      if (key) key.tier = limit;
    });
    this.changed();
    return { ...meta, tier: limit };
  }

  /**
   * May this key be sent to `origin`? `first` when the key has no origin yet (added at the command
   * line: a profile binds it when the user asked for that profile at the terminal, or confirmed by
   * typing the key again); `new` when it was added for other origins only and the user must confirm.
   */
  originStatus(id: string, origin: string): 'allowed' | 'first' | 'new' {
    const origins = this.require(id).origins;
    if (!origins || origins.length === 0) return 'first';
    return origins.includes(origin) ? 'allowed' : 'new';
  }

  /** Records that the key may be sent to `origin` (its first profile, or the user confirmed it). */
  allowOrigin(id: string, origin: string): void {
    const meta = this.require(id);
    if (meta.origins?.includes(origin)) return;
    const origins = [...(meta.origins ?? []), origin];
    if (meta.storage === 'session') this.sessionKeys.set(id, { ...meta, origins });
    else {
      this.settings.update((draft) => {
        const key = draft.keys.find((k) => k.id === id);
        if (key) key.origins = origins;
      });
    }
    this.changed();
  }

  /**
   * The user's confirmation that a key may go to a new origin: they type the key again. Whoever
   * holds only the web host's token (or a bridge call) does not know it, so cannot confirm.
   */
  async confirmWithSecret(id: string, typed: string): Promise<void> {
    const secret = await this.secretFor(id);
    const given = Buffer.from(typeof typed === 'string' ? typed.trim() : '');
    const known = Buffer.from(secret);
    if (given.length !== known.length || !timingSafeEqual(given, known)) {
      throw new KeyVaultError(
        'NOT_CONFIRMED',
        `That is not the secret of key "${this.require(id).name}"; the profile was not added.`,
      );
    }
  }

  private require(id: string): KeyMeta {
    const meta = this.get(id);
    if (!meta)
      throw new KeyVaultError('NOT_FOUND', 'There is no API key with that id; it may have been removed.');
    return meta;
  }

  private async keychainFor(meta: KeyMeta): Promise<SecretStore> {
    const keychain = await this.keychainAccess();
    if (keychain.store) return keychain.store;
    throw new KeyVaultError(
      'NO_KEYCHAIN',
      `Key "${meta.name}" is saved in the system keychain, which is not available now. ${keychain.reason}`,
    );
  }
}
