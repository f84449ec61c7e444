// What the browser benches share: the console as `npm run web` serves it (a core with the embedded
// mock on a data folder of its own, the bridge, the web host on loopback) and a headless Chromium.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium, type Browser } from '@playwright/test';
import { BridgeHost } from '../electron/bridge/bridge-host';
import { ConsoleCore } from '../electron/core/console-core';
import { startWebHost, type WebHost } from '../electron/web-host/server';

export interface BenchConsole {
  core: ConsoleCore;
  bridge: BridgeHost;
  host: WebHost;
  /** Closes the web host and the core, forgets the keys it stored, removes a data folder it made. */
  close(): Promise<void>;
}

/** The console on a fresh data folder, or on `given` (a bench's prepared history), which it keeps. */
export async function openBenchConsole(given?: string): Promise<BenchConsole> {
  const dataDir = given ?? mkdtempSync(join(tmpdir(), 'agent-console-bench-'));
  const core = await ConsoleCore.open({
    dataDir,
    embeddedMock: 'in-process',
    keychainService: `agent-console-bench-${randomBytes(4).toString('hex')}`,
  });
  const bridge = new BridgeHost(core, { transport: 'web', version: 'bench' });
  const host = await startWebHost({ rendererDir: resolve('out/renderer'), bridge });
  return {
    core,
    bridge,
    host,
    async close() {
      bridge.close();
      await host.close();
      for (const key of core.vault.list()) await core.vault.remove(key.id).catch(() => undefined);
      await core.close();
      if (!given) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export function launchChromium(executablePath: string): Promise<Browser> {
  return chromium.launch({
    executablePath,
    args: [
      '--disable-gpu',
      '--no-first-run',
      '--disable-background-networking',
      ...(process.getuid?.() === 0 ? ['--no-sandbox'] : []),
    ],
  });
}
