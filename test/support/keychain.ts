// The real OS keychain for tests (docs/testing.md: no in-memory stand-in). On Linux that is the
// Secret Service that `npm test` starts under dbus-run-session. Where none is reachable the
// keychain tests skip and say why, instead of testing something else.
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { Entry, findCredentialsAsync } from '@napi-rs/keyring';
import { openOsKeychain, type KeychainOpening, type SecretStore } from '../../electron/core/secret-store';

/** A service name no other test run shares, so parallel runs never see each other's entries. */
export function testService(label: string): string {
  return `agent-console-test-${label}-${process.pid}-${randomBytes(4).toString('hex')}`;
}

export interface RealKeychain {
  store: SecretStore | undefined;
  /** Set when the keychain tests must skip; shown in their titles. */
  skipReason: string | undefined;
}

export async function openRealKeychain(service: string): Promise<RealKeychain> {
  if (process.env.AGENT_CONSOLE_NO_SECRET_SERVICE === '1') {
    return {
      store: undefined,
      skipReason:
        'skipped: AGENT_CONSOLE_NO_SECRET_SERVICE=1, no Secret Service here (install gnome-keyring and dbus)',
    };
  }
  const opened = await openOsKeychain(service);
  if (opened.available) return { store: opened.store, skipReason: undefined };
  return { store: undefined, skipReason: `skipped: no OS keychain reachable: ${opened.detail}` };
}

/** A fresh binding entry, independent of the code under test, to see what the keychain really holds. */
export function keychainEntry(service: string, account: string): Entry {
  return new Entry(service, account, { linux: { store: 'secret-service' } });
}

export async function keychainAccounts(service: string): Promise<string[]> {
  return (await findCredentialsAsync(service)).map((c) => c.account);
}

export async function clearService(service: string): Promise<void> {
  for (const account of await keychainAccounts(service)) keychainEntry(service, account).deleteCredential();
}

/** Every file under `dir` whose bytes contain `needle`. */
export function filesContaining(dir: string, needle: string): string[] {
  const found: string[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) found.push(...filesContaining(path, needle));
    else if (readFileSync(path).includes(needle)) found.push(path);
  }
  return found;
}

/**
 * A keychain that has not answered yet (a system asking to unlock it, a busy daemon): an
 * `openKeychain` for ConsoleCore.open that gives `opening`'s outcome, the real keychain by
 * default, only once `answer()` is called; `asked` holds when the core asked for it (epoch ms).
 */
export function heldKeychain(opening: (service: string) => Promise<KeychainOpening> = openOsKeychain): {
  openKeychain: (service: string) => Promise<KeychainOpening>;
  answer: () => void;
  asked: number[];
} {
  let answer!: () => void;
  const answered = new Promise<void>((go) => (answer = go));
  const asked: number[] = [];
  return {
    answer,
    asked,
    openKeychain: async (service) => {
      asked.push(Date.now());
      await answered;
      return opening(service);
    },
  };
}
