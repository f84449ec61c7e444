// The console does not wait for the keychain to start. While the keychain has not
// answered (the system asking the user to unlock it, a busy keyring daemon), the window works on
// the embedded mock, Keys says the keychain is still being checked, and a key added meanwhile is
// saved in the keychain once it answers — not refused, and not quietly kept for the session only.
// The real keychain, opened when the test lets it; screenshots in light and dark.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { test, expect } from '@playwright/test';
import { BridgeHost } from '../../electron/bridge/bridge-host';
import { ConsoleCore } from '../../electron/core/console-core';
import { startWebHost } from '../../electron/web-host/server';
import {
  clearService,
  heldKeychain,
  keychainEntry,
  openRealKeychain,
  testService,
} from '../support/keychain';
import { screenshotLightAndDark } from './fixtures';

test('Keys while the keychain is still being checked: the key typed waits for it and is kept there', async ({
  page,
}) => {
  const service = testService('e2e-keychain-checking');
  const real = await openRealKeychain(service);
  test.skip(real.skipReason !== undefined, real.skipReason);
  const dataDir = mkdtempSync(join(tmpdir(), 'agent-console-e2e-keychain-'));
  const { openKeychain, answer } = heldKeychain();
  const core = await ConsoleCore.open({
    dataDir,
    embeddedMock: 'in-process',
    keychainService: service,
    openKeychain,
  });
  const bridge = new BridgeHost(core, { transport: 'web', version: 'test' });
  const host = await startWebHost({ rendererDir: resolve('out/renderer'), bridge });
  try {
    await page.goto(host.url);
    // The console works on the embedded mock meanwhile.
    await expect(page.getByTestId('connection-status')).toHaveText('Connected');
    await page.getByRole('link', { name: 'Keys' }).click();
    const status = page.getByRole('status').filter({ hasText: 'keychain' });
    await expect(status).toHaveText(/still being checked.*unlock/);
    const form = page.getByRole('form', { name: 'Add a key' });
    // Not forced to "session only": the keychain may yet answer.
    const sessionOnly = form.getByRole('checkbox', { name: /Session only/ });
    await expect(sessionOnly).not.toBeChecked();
    await expect(sessionOnly).toBeEnabled();
    await screenshotLightAndDark(page, 'keys-keychain-checking');

    const secret = `kc4_${randomBytes(16).toString('hex')}`;
    await form.getByLabel('Name').fill('Kept');
    await form.getByLabel('Key', { exact: true }).fill(secret);
    await form.getByLabel('Server').fill('https://agents.example.com');
    await form.getByRole('button', { name: 'Add key' }).click();
    await expect(form.getByRole('button', { name: 'Adding…' })).toBeVisible();
    await page.waitForTimeout(300);
    await expect(form.getByRole('button', { name: 'Adding…' })).toBeVisible();

    answer();
    const row = page
      .getByRole('table', { name: 'Keys' })
      .getByRole('row')
      .filter({ has: page.getByRole('cell', { name: 'Kept', exact: true }) });
    await expect(row).toContainText('System keychain');
    await expect(page.getByText('Secrets are kept in your system keychain')).toBeVisible();
    await expect(status).toHaveCount(0);
    // The form is cleared once the key is saved; the secret is in the keychain, not the page.
    await expect(form.getByLabel('Key', { exact: true })).toHaveValue('');
    const kept = core.vault.list().find((k) => k.name === 'Kept');
    expect(kept?.storage).toBe('os-keychain');
    expect(keychainEntry(service, kept?.id as string).getPassword()).toBe(secret);
    await screenshotLightAndDark(page, 'keys-keychain-answered');
  } finally {
    bridge.close();
    await host.close();
    await core.close();
    await clearService(service);
    rmSync(dataDir, { recursive: true, force: true });
  }
});
