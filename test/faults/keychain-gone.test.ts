// A keychain that fails after the console started (its D-Bus session gone, the
// keyring daemon stopped, locked since) is told as itself — KEYCHAIN_UNAVAILABLE, in words that
// say what to do — never as "unreachable" (health) or an internal error (keys:add, keys:remove).
// Real processes on a real, private Secret Service, which the test takes away mid-run.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, test } from 'vitest';
import type { KeyInfo, ProfileInfo } from '../../shared/bridge';
import type { HealthMonitorState, HealthUpdate } from '../../shared/health';
import { removeDir, tempDir } from '../support/mock';
import {
  secretServiceMissing,
  startPrivateSecretService,
  type PrivateSecretService,
} from '../support/secret-service';
import { ensureWebHostBuilt, startWebHostProcess, valueOf } from '../support/web-host';

const missing = secretServiceMissing();
const suffix = missing ? ` (${missing})` : '';
const faultTest = test.skipIf(missing !== undefined);

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0).reverse()) cleanup();
});

beforeAll(ensureWebHostBuilt, 120_000);

const newKey = (): string => `kc9_${randomBytes(16).toString('hex')}`;

async function service(): Promise<PrivateSecretService> {
  const started = await startPrivateSecretService();
  cleanups.push(() => started.stop());
  return started;
}

function folder(): string {
  const dir = tempDir('agent-console-keychain-gone-');
  cleanups.push(() => removeDir(dir));
  return dir;
}

describe('the keychain taken away from a running console', () => {
  faultTest(
    `web host: keys:add and keys:remove answer KEYCHAIN_UNAVAILABLE in words, health says unknown, not unreachable${suffix}`,
    async () => {
      const keychain = await service();
      const web = await startWebHostProcess(folder(), { DBUS_SESSION_BUS_ADDRESS: keychain.address });
      cleanups.push(() => web.child.kill('SIGKILL'));
      const call = web.call.bind(web);
      // The keychain's probe goes on after the start: "checking" until it is over.
      await expect
        .poll(async () => valueOf(await call<{ keychain: { available: boolean } }>('app:info')).keychain, {
          timeout: 30_000,
        })
        .toEqual({ available: true });

      const keptSecret = newKey();
      // Keys for the embedded mock, and a profile on it whose key lives in the keychain.
      const mock = valueOf(await call<ProfileInfo[]>('profiles:list')).find((p) => p.builtIn) as ProfileInfo;
      const baseUrl = mock.baseUrl;
      const kept = valueOf(await call<KeyInfo>('keys:add', { name: 'Kept', secret: keptSecret, baseUrl }));
      const spare = valueOf(await call<KeyInfo>('keys:add', { name: 'Spare', secret: newKey(), baseUrl }));
      expect(kept.storage).toBe('os-keychain');
      const profile = valueOf(
        await call<ProfileInfo>('profiles:add', {
          name: 'Through the keychain',
          baseUrl: mock.baseUrl,
          keyId: kept.id,
          caCertPem: readFileSync(mock.caCertPath as string, 'utf8'),
        }),
      );
      valueOf(await call('profiles:use', { id: profile.id }));
      // While the keychain answers, the key is read and sent: the mock refuses it (not one of its keys).
      const before = valueOf(await call<HealthUpdate>('health:check'));
      expect(before.sample?.status).toBe('key-rejected');

      keychain.takeAway();

      const after = valueOf(await call<HealthUpdate>('health:check'));
      expect(after.sample?.status).toBe('unknown');
      expect(after.sample?.errorCode).toBe('KEYCHAIN_UNAVAILABLE');
      const state = valueOf(await call<HealthMonitorState>('health:status'));
      expect(state.lastError).toMatch(
        /^The system keychain did not give back the API key, so nothing was sent/,
      );
      expect(state.lastError).toMatch(
        /Secret Service .* is running and unlocked, then try again\. \(The keychain said: /,
      );
      expect(state.lastError).not.toMatch(/reach/i);

      const add = await call<KeyInfo>('keys:add', { name: 'Late', secret: newKey(), baseUrl });
      expect(add.ok).toBe(false);
      if (add.ok) return;
      expect(add.error.code).toBe('KEYCHAIN_UNAVAILABLE');
      expect(add.error.message).toMatch(
        /^The system keychain could not save the API key, so it was not added/,
      );
      expect(add.error.message).toMatch(
        /add it again, or add it as a session-only key\. \(The keychain said: .+\)$/,
      );

      const remove = await call('keys:remove', { id: spare.id });
      expect(remove.ok).toBe(false);
      if (remove.ok) return;
      expect(remove.error.code).toBe('KEYCHAIN_UNAVAILABLE');
      expect(remove.error.message).toMatch(/could not delete the API key, so the key was kept/);

      // Nothing half-done: the refused key is not listed, the one that could not be deleted still is.
      const names = valueOf(await call<KeyInfo[]>('keys:list')).map((k) => k.name);
      expect(names).toContain('Spare');
      expect(names).not.toContain('Late');
      // And the words never carry the secret.
      expect(JSON.stringify([state, add, remove])).not.toContain(keptSecret.slice(-8));
    },
    90_000,
  );

  faultTest(
    `CLI: keys add exits 9 with words to act on when the keychain goes after it opened${suffix}`,
    async () => {
      const keychain = await service();
      const dataDir = folder();
      const cli = spawn(process.execPath, ['bin/agent-console.js', 'keys', 'add', '--name', 'Late'], {
        env: { ...process.env, AGENT_CONSOLE_DATA_DIR: dataDir, DBUS_SESSION_BUS_ADDRESS: keychain.address },
      });
      cleanups.push(() => cli.kill('SIGKILL'));
      let stdout = '';
      let stderr = '';
      cli.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
      cli.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      const exited = new Promise<number | null>((resolve) => cli.once('exit', resolve));
      // The CLI has probed the keychain (and found it) once its log says so; it then waits for the
      // key on stdin, and the keychain goes before the key arrives.
      const log = join(dataDir, 'logs', 'agent-console.log');
      const until = Date.now() + 60_000;
      while (!(existsSync(log) && readFileSync(log, 'utf8').includes('Keychain available'))) {
        if (Date.now() > until || cli.exitCode !== null) throw new Error(`The CLI did not start: ${stderr}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      keychain.takeAway();
      const secret = newKey();
      cli.stdin.end(`${secret}\n`);

      expect(await exited).toBe(9);
      expect(stdout).toBe('');
      expect(stderr).toMatch(
        /agent-console: The system keychain could not save the API key, so it was not added\. Check that your Secret Service .* is running and unlocked, then add it again, or add it as a session-only key\. \(The keychain said: .+\)/,
      );
      expect(stderr).not.toContain(secret.slice(-8));
      const settings = join(dataDir, 'settings.json');
      if (existsSync(settings)) expect(readFileSync(settings, 'utf8')).not.toContain('"Late"');
    },
    90_000,
  );
});
