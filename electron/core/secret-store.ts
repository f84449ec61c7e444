// The one seam around the OS keychain (as GitHub Desktop's token-store.ts is). Everything else
// reaches secrets through a SecretStore, so tests put the real keychain behind it, and a session
// without a keychain gets a memory store instead of a file.
//
// Linux pitfall (docs/architecture.md): @napi-rs/keyring 2.x's default Linux store is the Secret Service
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
import { CoreError } from './core-error';
import { rememberSecret } from './redact';

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

/**
 * Thrown when the keychain fails after it answered the probe (locked since, daemon or D-Bus session
 * gone, …): `KEYCHAIN_UNAVAILABLE`, in words that say what to do, never "unreachable" or "internal".
 */
export class KeychainError extends CoreError {
  override readonly name = 'KeychainError';
  constructor(
    message: string,
    /** What the platform said (scrubbed), for the probe's diagnosis and bug reports. */
    readonly detail: string,
  ) {
    super('KEYCHAIN_UNAVAILABLE', message);
  }
}

type KeychainAction = 'read' | 'save' | 'delete';

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

/** What to check, per platform: the keychain's own name and what "running and unlocked" means there. */
function keychainHint(platform: NodeJS.Platform): string {
  if (platform === 'linux') {
    return 'Check that your Secret Service (GNOME Keyring, KWallet or KeePassXC) is running and unlocked';
  }
  if (platform === 'darwin') return 'Check that the macOS Keychain is unlocked';
  return 'Check that Windows Credential Manager is available to your account';
}

/** Longest platform text quoted in a message: advice first, so a cut-off screen keeps it. */
const MAX_DETAIL_QUOTED = 160;

/** The words of a keychain failure after start: what did not happen, what to do, then what it said. */
export function keychainFailureMessage(
  action: KeychainAction,
  detail: string,
  platform: NodeJS.Platform = process.platform,
): string {
  const hint = keychainHint(platform);
  const line = (detail.split('\n')[0] ?? '').trim();
  const quoted = line.length > MAX_DETAIL_QUOTED ? `${line.slice(0, MAX_DETAIL_QUOTED - 1)}…` : line;
  const said = quoted ? ` (The keychain said: ${quoted})` : '';
  switch (action) {
    case 'read':
      return `The system keychain did not give back the API key, so nothing was sent. ${hint}, then try again.${said}`;
    case 'save':
      return `The system keychain could not save the API key, so it was not added. ${hint}, then add it again, or add it as a session-only key.${said}`;
    case 'delete':
      return `The system keychain could not delete the API key, so the key was kept. ${hint}, then remove it again.${said}`;
  }
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

/**
 * One entry per account, kept: on Linux each entry holds its own D-Bus connection until it is
 * garbage-collected, so a fresh entry per read (every API request reads its key) piled up open
 * connections faster than the collector freed them, until the process or the session bus ran out
 * of file descriptors and the keychain stopped answering. A kept entry reuses its connection and
 * still reads what is stored now, whoever changed it.
 */
function keychainStore(keyring: Keyring, service: string): SecretStore {
  const entries = new Map<string, KeyringEntry>();
  const entry = (account: string): KeyringEntry => {
    let found = entries.get(account);
    if (!found) {
      found = new keyring.AsyncEntry(service, account, ENTRY_OPTIONS);
      entries.set(account, found);
    }
    return found;
  };
  const fail = (action: KeychainAction, error: unknown): never => {
    const detail = scrub(error);
    throw new KeychainError(keychainFailureMessage(action, detail), detail);
  };
  return {
    kind: 'os-keychain',
    async get(account) {
      try {
        return (await entry(account).getPassword()) ?? undefined;
      } catch (error) {
        return fail('read', error);
      }
    },
    async set(account, secret) {
      try {
        await entry(account).setPassword(secret);
      } catch (error) {
        fail('save', error);
      }
    },
    async delete(account) {
      try {
        const deleted = await entry(account).deleteCredential();
        entries.delete(account);
        return deleted;
      } catch (error) {
        return fail('delete', error);
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
    // The platform's own words: the diagnosis below reads them, not our advice around them.
    detail = error instanceof KeychainError ? error.detail : scrub(error);
  }
  return { available: false, reason: unavailableReason(detail, platform), detail };
}

/**
 * The keychain, opened once: when something first needs it (`open()`), or when the front end's
 * start is over. Opening it is a probe over D-Bus answered by another process, and the binding's
 * first entry connects to the bus on this thread: a start that needs no secret (the embedded mock's
 * key is a session key) does not pay for either before its first screen.
 */
export interface KeychainOpener {
  /** Opens the keychain unless that has begun; every caller gets the one outcome. */
  open(): Promise<KeychainOpening>;
  /** The outcome, once `open()` has been called and the probe is over. */
  readonly opened: Promise<KeychainOpening>;
}

/** `open` run on the first `open()`, not before. */
export function keychainOnDemand(open: () => Promise<KeychainOpening>): KeychainOpener {
  let ask!: () => void;
  const opened = new Promise<void>((go) => (ask = go)).then(open);
  return {
    opened,
    open: () => {
      ask();
      return opened;
    },
  };
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

/**
 * The OS keychain once `keychain` says it is there, else this session's memory: for secrets that
 * are not API keys (webhook URLs), usable before the keychain has been opened (each call opens it
 * if need be, and waits for it).
 */
export function keychainOrMemory(keychain: KeychainOpener): SecretStore {
  const memory = createMemorySecretStore();
  let settled: SecretStore | undefined;
  const store = keychain.opened.then(
    (o) => (settled = o.available ? o.store : memory),
    () => (settled = memory),
  );
  const ready = (): Promise<SecretStore> => {
    void keychain.open();
    return store;
  };
  return {
    get kind() {
      return settled?.kind ?? 'memory';
    },
    // A webhook URL is a credential: whatever reads or writes one, it is masked in every output.
    get: async (account) => {
      const secret = await (await ready()).get(account);
      if (secret !== undefined) rememberSecret(secret);
      return secret;
    },
    set: async (account, secret) => {
      rememberSecret(secret);
      return (await ready()).set(account, secret);
    },
    delete: async (account) => (await ready()).delete(account),
  };
}
