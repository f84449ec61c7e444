// A Secret Service of the test's own: a private D-Bus session bus and an unlocked gnome-keyring on
// it, both children of the test, so the test can take the keychain away from a running console
// (kill the bus: what a logout, a crashed session or a stopped keyring daemon does to it) without
// touching the session `npm test` runs in.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { secretServiceOwned } from '../../scripts/secret-service-name.mjs';
import { removeDir, tempDir } from './mock';

export interface PrivateSecretService {
  /** DBUS_SESSION_BUS_ADDRESS of the private bus. */
  address: string;
  /** Kills the bus and the keyring daemon: every keychain call from then on fails. */
  takeAway(): void;
}

/** Why these tests cannot run here, or undefined when they can. */
export function secretServiceMissing(): string | undefined {
  if (process.platform !== 'linux') return 'skipped: the Secret Service is Linux only';
  for (const tool of ['dbus-daemon', 'gnome-keyring-daemon', 'dbus-send']) {
    if (spawnSync('which', [tool]).status !== 0) return `skipped: ${tool} is not installed`;
  }
  return undefined;
}

export async function startPrivateSecretService(): Promise<PrivateSecretService & { stop(): void }> {
  const home = tempDir('agent-console-keyring-');
  mkdirSync(join(home, 'keyrings'));
  const children: ChildProcess[] = [];
  const bus = spawn('dbus-daemon', ['--session', '--nofork', '--print-address=1'], {
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  children.push(bus);
  const address = await new Promise<string>((resolve, reject) => {
    createInterface({ input: bus.stdout }).once('line', resolve);
    bus.once('exit', (code) => reject(new Error(`dbus-daemon exited (${code})`)));
  });
  // Its own runtime folder too (gnome-keyring keeps its control socket there): nothing of it is
  // shared with the keyring of the session the other tests use.
  const runtime = join(home, 'run');
  mkdirSync(runtime, { mode: 0o700 });
  const keyring = spawn('gnome-keyring-daemon', ['--foreground', '--unlock', '--components=secrets'], {
    env: { ...process.env, DBUS_SESSION_BUS_ADDRESS: address, XDG_DATA_HOME: home, XDG_RUNTIME_DIR: runtime },
    stdio: ['pipe', 'ignore', 'ignore'],
  });
  children.push(keyring);
  keyring.stdin.end('agent-console-test');
  const killAll = (): void => {
    for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
  };
  // Ready once the keyring owns its name; a call before that would make D-Bus start another one.
  const until = Date.now() + 15_000;
  while (!secretServiceOwned(address)) {
    if (Date.now() > until) {
      killAll();
      throw new Error('The private gnome-keyring did not take org.freedesktop.secrets within 15 s.');
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    address,
    takeAway: killAll,
    stop() {
      killAll();
      removeDir(home);
    },
  };
}
