// A settings file (and a mock state file) that could not be read are set aside
// and the console starts empty — and the user learns it in the window, with where the old files
// went, not only on the web host's stderr.
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { test as base, expect } from '@playwright/test';
import { BridgeHost } from '../../electron/bridge/bridge-host';
import { ConsoleCore } from '../../electron/core/console-core';
import { startWebHost } from '../../electron/web-host/server';
import { screenshotPath } from './fixtures';

base('set-aside settings and mock state are shown in the window until dismissed', async ({ page }) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'agent-console-e2e-warnings-'));
  writeFileSync(join(dataDir, 'settings.json'), '{"profiles": [ {"name": "half');
  mkdirSync(join(dataDir, 'mock'));
  writeFileSync(join(dataDir, 'mock', 'mock-state.json'), '');
  const core = await ConsoleCore.open({
    dataDir,
    embeddedMock: 'in-process',
    keychainService: `agent-console-e2e-${randomBytes(4).toString('hex')}`,
    onWarning: () => undefined,
  });
  const bridge = new BridgeHost(core, { transport: 'web', version: 'test' });
  const host = await startWebHost({ rendererDir: resolve('out/renderer'), bridge });
  try {
    await page.goto(host.url);
    await page.locator('[data-app-state="ready"]').waitFor();
    const banner = page.getByRole('alert', { name: 'Started with warnings' });
    await expect(banner.getByRole('heading')).toHaveText('The console started, with 2 warnings');
    const settingsAside = readdirSync(dataDir).find((f) => f.startsWith('settings.json.corrupt'));
    const stateAside = readdirSync(join(dataDir, 'mock')).find((f) =>
      f.startsWith('mock-state.json.corrupt'),
    );
    expect(settingsAside && stateAside).toBeTruthy();
    await expect(banner).toContainText(join(dataDir, settingsAside as string));
    await expect(banner).toContainText(join(dataDir, 'mock', stateAside as string));
    // The console works meanwhile: the embedded mock is there, fresh.
    await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
    await page.screenshot({ path: screenshotPath('startup-warnings') });
    await banner.getByRole('button', { name: 'Dismiss' }).click();
    await expect(banner).toHaveCount(0);
  } finally {
    bridge.close();
    await host.close();
    await core.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
});
