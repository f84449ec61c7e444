// The one seam around the OS keychain (STYLE.md: GitHub Desktop's token-store.ts). Everything else
// reaches secrets through a SecretStore, so tests put the real keychain behind it, and a session
// without a keychain gets a memory store instead of a file.
//
// Linux pitfall (DESIGN.md §1): @napi-rs/keyring 2.x's default Linux store is the Secret Service
// with an automatic fallback to the kernel keyring (keyutils), which keeps nothing across a
// reboot or logout, so a key "saved" there would silently vanish. We pin every entry to the
// Secret Service (`EntryOptions.linux.store`), which makes an unreachable one throw instead of
// falling back, and we probe before use, so "no keychain" is detected and told to the user.
//
// The binding is a native module, loaded on first use inside a try/catch: a package without it
// (or with one built for another platform) means "no keychain" and session-only keys, never a
// crash at start (test/packaging/packaged-launch.test.ts removes it from the package).
import { randomBytes } from 'node:crypto';
import type { AsyncEntry as KeyringEntry, EntryOptions } from '@napi-rs/keyring';

type Keyring = { AsyncEntry: typeof KeyringEntry };

export interface SecretStore {
  readonly kind: 'os-keychain' | 'memory';
  get(account: string): Promise<string | undefined>;
  set(account: string, secret: string): Promise<void>;
  /** True when an entry was deleted, false when there was none. */
  delete(account: string): Promise<boolean>;
}

export type KeychainOpening =
  | { available: true; store: SecretStore; backend: string }
  | {
      available: false;
      /** A plain sentence the UI can show as is. */
      reason: string;
      /** What the platform said, for logs and bug reports (never contains a secret). */
      detail: string;
    };

export const DEFAULT_KEYCHAIN_SERVICE = 'Agent Console';

/** Thrown when the keychain fails after it answered the probe (locked since, daemon gone, …). */
export class KeychainError extends Error {
  override readonly name = 'KeychainError';
}

const ENTRY_OPTIONS: EntryOptions = { linux: { store: 'secret-service' } };

const SESSION_HINT =
  'You can still use an API key for this session only: it is kept in memory and forgotten when the app quits.';

function backendName(platform: NodeJS.Platform): string {
  if (platform === 'darwin') return 'macOS Keychain';
  if (platform === 'win32') return 'Windows Credential Manager';
  return 'Secret Service';
}

/** Native error text can quote what it was handed; keep anything key-shaped out of it. */
function scrub(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.replace(/[A-Za-z0-9]{3}_[A-Za-z0-9]{32}/g, '[redacted]');
}

function unavailableReason(detail: string, platform: NodeJS.Platform): string {
  if (/prompt was dismissed|locked|unlock/i.test(detail)) {
    return `The system keychain is locked and was not unlocked, so API keys cannot be saved. ${SESSION_HINT}`;
  }
  if (platform === 'linux' && /dbus|socket|autolaunch|secrets|service ?unknown|no such/i.test(detail)) {
    return (
      'No keychain is available: this Linux session has no Secret Service (such as GNOME Keyring or ' +
      `KWallet) running, so API keys cannot be saved. ${SESSION_HINT}`
    );
  }
  return `The system keychain did not answer, so API keys cannot be saved. ${SESSION_HINT}`;
}

/** The native binding, or why it could not be loaded. */
async function loadKeyring(): Promise<Keyring | { error: string }> {
  try {
    const loaded = (await import('@napi-rs/keyring')) as Keyring & { default?: Keyring };
    return loaded.AsyncEntry ? loaded : (loaded.default as Keyring);
  } catch (error) {
    return { error: scrub(error).split('\n')[0] ?? 'unknown error' };
  }
}

function keychainStore(keyring: Keyring, service: string): SecretStore {
  const entry = (account: string): KeyringEntry => new keyring.AsyncEntry(service, account, ENTRY_OPTIONS);
  const fail = (action: string, error: unknown): never => {
    throw new KeychainError(`The system keychain could not ${action}: ${scrub(error)}`);
  };
  return {
    kind: 'os-keychain',
    async get(account) {
      try {
        return (await entry(account).getPassword()) ?? undefined;
      } catch (error) {
        return fail('read the API key', error);
      }
    },
    async set(account, secret) {
      try {
        await entry(account).setPassword(secret);
      } catch (error) {
        fail('save the API key', error);
      }
    },
    async delete(account) {
      try {
        return await entry(account).deleteCredential();
      } catch (error) {
        return fail('delete the API key', error);
      }
    },
  };
}

/**
 * Opens the OS keychain under `service`, after checking that a real, persistent store answers:
 * a probe entry is written, read back and deleted. Never falls back to anything that would keep
 * a secret in clear or lose it at reboot. Where the keychain is locked, this may show the system's
 * unlock prompt and wait for the user, as any first use of the keychain would.
 */
export async function openOsKeychain(
  service = DEFAULT_KEYCHAIN_SERVICE,
  platform: NodeJS.Platform = process.platform,
): Promise<KeychainOpening> {
  const keyring = await loadKeyring();
  if ('error' in keyring) {
    return {
      available: false,
      reason: `The keychain module could not be loaded, so API keys cannot be saved. ${SESSION_HINT}`,
      detail: keyring.error,
    };
  }
  const store = keychainStore(keyring, service);
  // A random account per probe, so two processes (app and CLI) probing at once do not collide.
  const probeAccount = `probe-${randomBytes(8).toString('hex')}`;
  const probeValue = randomBytes(16).toString('hex');
  let detail: string;
  try {
    await store.set(probeAccount, probeValue);
    const readBack = await store.get(probeAccount);
    const deleted = await store.delete(probeAccount);
    if (readBack === probeValue && deleted) {
      return { available: true, store, backend: backendName(platform) };
    }
    detail = 'The keychain did not return the entry it had just saved.';
  } catch (error) {
    detail = scrub(error);
  }
  return { available: false, reason: unavailableReason(detail, platform), detail };
}

/**
 * Session-only keys (a product feature, not a test stand-in): held in this process's memory and
 * lost when it quits. Offered where no keychain is reachable, and used for the embedded mock's
 * demo key, which the mock hands out afresh at every start.
 */
export function createMemorySecretStore(): SecretStore {
  const secrets = new Map<string, string>();
  return {
    kind: 'memory',
    get: async (account) => secrets.get(account),
    set: async (account, secret) => {
      secrets.set(account, secret);
    },
    delete: async (account) => secrets.delete(account),
  };
}
