// Each e2e test gets what a new user gets: its own data dir, the core with the embedded mock, the
// bridge, and the web host on 127.0.0.1 — and a browser page that opened the printed URL.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { test as base, type Page } from '@playwright/test';
import { BridgeHost } from '../../electron/bridge/bridge-host';
import { ConsoleCore } from '../../electron/core/console-core';
import { startWebHost, type WebHost } from '../../electron/web-host/server';
import type { MockServer } from '../../mock/server';

interface AppFixtures {
  /**
   * The web host's home folder, a temp folder of the test's own: a folder typed on the Tests
   * screen must be inside it, so tests put their suite folders there.
   */
  home: string;
  core: ConsoleCore;
  mock: MockServer;
  host: WebHost;
  /** The page, opened on the console and loaded. */
  app: Page;
}

export const test = base.extend<AppFixtures>({
  // eslint-disable-next-line no-empty-pattern
  home: async ({}, use) => {
    // Resolved, as the core resolves it: on macOS the temp folder is behind a symbolic link.
    const home = realpathSync(mkdtempSync(join(tmpdir(), 'agent-console-e2e-home-')));
    await use(home);
    rmSync(home, { recursive: true, force: true });
  },
  // eslint-disable-next-line no-empty-pattern
  core: async ({}, use) => {
    const dataDir = mkdtempSync(join(tmpdir(), 'agent-console-e2e-'));
    const core = await ConsoleCore.open({
      dataDir,
      embeddedMock: 'in-process',
      // The real keychain, under a service name of this run's own.
      keychainService: `agent-console-e2e-${randomBytes(4).toString('hex')}`,
    });
    // The monitors (Overview), opened as the app opens them; nothing polls on a schedule here.
    await core.openMonitors();
    await use(core);
    for (const monitor of core.monitors.all()) await core.monitors.remove(monitor.id).catch(() => undefined);
    for (const key of core.vault.list()) await core.vault.remove(key.id).catch(() => undefined);
    await core.close();
    rmSync(dataDir, { recursive: true, force: true });
  },
  mock: async ({ core }, use) => {
    if (!core.mock) throw new Error('The embedded mock did not start.');
    await use(core.mock);
  },
  host: async ({ core, home }, use) => {
    const bridge = new BridgeHost(core, { transport: 'web', version: 'test', homeDir: home });
    const host = await startWebHost({ rendererDir: resolve('out/renderer'), bridge });
    await use(host);
    bridge.close();
    await host.close();
  },
  app: async ({ page, host }, use) => {
    await page.goto(host.url);
    await page.locator('[data-app-state="ready"]').waitFor();
    await use(page);
  },
});

export const expect = test.expect;

export function screenshotPath(name: string): string {
  return resolve('test-results', 'screenshots', `${name}.png`);
}

/** `<name>-light.png` and `<name>-dark.png`, to look at both; the page is left light. */
export async function screenshotLightAndDark(page: Page, name: string): Promise<void> {
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme });
    await page.screenshot({ path: screenshotPath(`${name}-${colorScheme}`) });
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

/** A call through the bridge, made from the page as a screen of the console makes it. */
export async function bridgeCall<T>(app: Page, call: string, input: unknown): Promise<T> {
  const result = await app.evaluate(
    async ([name, body]) => {
      const res = await fetch(`/bridge/call/${name}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      return res.json();
    },
    [call, input] as const,
  );
  if (!result.ok) throw new Error(`${call}: ${JSON.stringify(result.error)}`);
  return result.value as T;
}
