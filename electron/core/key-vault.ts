// API keys: the secret in the OS keychain (or, for session-only keys, in memory), the metadata
// (name, masked last 4, created, learned tier) in settings.json. DESIGN.md §1: the bridge and the
// UI only ever see KeyMeta; the core asks `secretFor` when it attaches `Authorization`.
import { randomUUID } from 'node:crypto';
import { API_KEY_PATTERN } from '../../shared/api';
import type { SecretStore } from './secret-store';
import { createMemorySecretStore } from './secret-store';
import type { SettingsStore, StoredKey } from './settings-store';

export type KeyStorage = 'os-keychain' | 'session';

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
}

export interface NewKey {
  name: string;
  secret: string;
  /** Kept in memory only and forgotten when the process quits; nothing is written to disk. */
  sessionOnly?: boolean;
}

export type KeyVaultErrorCode =
  'INVALID_KEY' | 'INVALID_NAME' | 'DUPLICATE_NAME' | 'NOT_FOUND' | 'NO_KEYCHAIN' | 'SECRET_MISSING';

/** Messages are written for people and never contain the secret. */
export class KeyVaultError extends Error {
  override readonly name = 'KeyVaultError';
  constructor(
    readonly code: KeyVaultErrorCode,
    message: string,
  ) {
    super(message);
  }
}

export const MAX_KEY_NAME_LENGTH = 100;

const SHAPE_HINT = '3 letters or digits, then "_", then 32 letters or digits';
/** Key-shaped text anywhere in a string (API_KEY_PATTERN is anchored). */
const KEY_SHAPED = /[A-Za-z0-9]{3}_[A-Za-z0-9]{32}/;

/**
 * Checks a pasted key's shape (DESIGN.md §2: never a fixed prefix) and returns it trimmed.
 * Each message says what is wrong without quoting the input: it may be a real secret.
 */
export function checkApiKey(input: unknown): string {
  const fail = (message: string): never => {
    throw new KeyVaultError('INVALID_KEY', message);
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

export function maskKey(secret: string): string {
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
  // The name is stored in clear and shown everywhere: a key pasted into the wrong field must not
  // end up there.
  if (name.includes(secret) || KEY_SHAPED.test(name)) {
    return fail(
      'The name looks like an API key. Put the key in the key field and give it a name you will recognise.',
    );
  }
  return name;
}

export interface KeyVaultOptions {
  settings: SettingsStore;
  /** The OS keychain when `openOsKeychain` found one; without it only session keys can be added. */
  keychain?: SecretStore;
  /** Why there is no keychain (`openOsKeychain`'s reason), repeated in NO_KEYCHAIN errors. */
  keychainUnavailableReason?: string;
  /** Where session-only secrets live; a fresh memory store by default. */
  session?: SecretStore;
  now?: () => number;
}

export class KeyVault {
  private readonly settings: SettingsStore;
  private readonly keychain: SecretStore | undefined;
  private readonly noKeychainReason: string;
  private readonly session: SecretStore;
  private readonly now: () => number;
  /** Session keys' metadata: like their secrets, never written anywhere. */
  private readonly sessionKeys = new Map<string, KeyMeta>();

  constructor(options: KeyVaultOptions) {
    this.settings = options.settings;
    this.keychain = options.keychain;
    this.noKeychainReason = options.keychainUnavailableReason ?? 'No system keychain is available.';
    this.session = options.session ?? createMemorySecretStore();
    this.now = options.now ?? Date.now;
  }

  get keychainAvailable(): boolean {
    return this.keychain !== undefined;
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
    const name = checkName(input.name, secret);
    const taken = this.list().some((key) => key.name.toLowerCase() === name.toLowerCase());
    if (taken) throw new KeyVaultError('DUPLICATE_NAME', `A key named "${name}" already exists.`);
    const sessionOnly = input.sessionOnly === true;
    if (!sessionOnly && !this.keychain) {
      throw new KeyVaultError(
        'NO_KEYCHAIN',
        `${this.noKeychainReason} Add the key as a session-only key, or start a keychain and try again.`,
      );
    }
    const meta: KeyMeta = {
      id: randomUUID(),
      name,
      last4: maskKey(secret),
      createdAt: new Date(this.now()).toISOString(),
      storage: sessionOnly ? 'session' : 'os-keychain',
    };
    if (sessionOnly) {
      await this.session.set(meta.id, secret);
      this.sessionKeys.set(meta.id, meta);
      return { ...meta };
    }
    const keychain = this.keychain as SecretStore;
    await keychain.set(meta.id, secret);
    try {
      const stored: StoredKey = { ...meta, storage: 'os-keychain' };
      this.settings.update((draft) => {
        draft.keys.push(stored);
      });
    } catch (error) {
      // No metadata means no way to find the secret again: do not leave it orphaned.
      await keychain.delete(meta.id).catch(() => false);
      throw error;
    }
    return { ...meta };
  }

  /** Deletes the secret from where it lives, then the metadata. */
  async remove(id: string): Promise<void> {
    const meta = this.require(id);
    if (meta.storage === 'session') {
      await this.session.delete(id);
      this.sessionKeys.delete(id);
      return;
    }
    // Keep the metadata while the secret cannot be deleted, so the user can retry rather than
    // leave a secret in the keychain that nothing points to.
    const keychain = this.keychainFor(meta);
    await keychain.delete(id);
    this.settings.update((draft) => {
      draft.keys = draft.keys.filter((key) => key.id !== id);
    });
  }

  /** Core-internal: the secret, for the API client's `Authorization`. Never cross the bridge. */
  async secretFor(id: string): Promise<string> {
    const meta = this.require(id);
    const store = meta.storage === 'session' ? this.session : this.keychainFor(meta);
    const secret = await store.get(id);
    if (secret === undefined) {
      throw new KeyVaultError(
        'SECRET_MISSING',
        `The secret of key "${meta.name}" is no longer in the ${meta.storage === 'session' ? 'session' : 'system keychain'}. Remove the key and add it again.`,
      );
    }
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
      return { ...updated };
    }
    this.settings.update((draft) => {
      const key = draft.keys.find((k) => k.id === id);
      if (key) key.tier = limit;
    });
    return { ...meta, tier: limit };
  }

  private require(id: string): KeyMeta {
    const meta = this.get(id);
    if (!meta)
      throw new KeyVaultError('NOT_FOUND', 'There is no API key with that id; it may have been removed.');
    return meta;
  }

  private keychainFor(meta: KeyMeta): SecretStore {
    if (this.keychain) return this.keychain;
    throw new KeyVaultError(
      'NO_KEYCHAIN',
      `Key "${meta.name}" is saved in the system keychain, which is not available now. ${this.noKeychainReason}`,
    );
  }
}
