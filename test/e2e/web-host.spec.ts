// The web host's guard: loopback only, the per-launch token, our own Origin and Host.
import { request as httpRequest } from 'node:http';
import { resolve } from 'node:path';
import { BridgeHost } from '../../electron/bridge/bridge-host';
import { startWebHost } from '../../electron/web-host/server';
import { expect, screenshotPath, test } from './fixtures';

function rawGet(url: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { headers }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', reject);
    req.end();
  });
}

test('a browser holding the token gets the console', async ({ app }) => {
  await expect(app.getByRole('navigation', { name: 'Main' })).toBeVisible();
});

test('without the token the web host refuses, in words', async ({ page, host }) => {
  const response = await page.goto(host.origin);
  expect(response?.status()).toBe(401);
  await expect(page.locator('body')).toContainText('Missing or wrong token');
});

test('another Origin, another Host, or a bridge call without the token are refused', async ({ host }) => {
  const withToken = `${host.origin}/bridge/call/app:info?token=${host.token}`;
  expect(await rawGet(`${host.origin}/?token=${host.token}`, { origin: 'http://evil.example' })).toBe(403);
  expect(await rawGet(`${host.origin}/?token=${host.token}`, { host: 'evil.example' })).toBe(421);
  expect(await rawGet(`${host.origin}/?token=wrong`, {})).toBe(401);
  const res = await fetch(`${host.origin}/bridge/call/app:info`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{}',
  });
  expect(res.status).toBe(401);
  const ok = await fetch(withToken, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{}',
  });
  expect(ok.status).toBe(200);
  expect(await ok.json()).toMatchObject({ ok: true, value: { transport: 'web' } });
});

// Issue 18: `npm run web` serves the page while the core is still loading and opening, so the
// browser fetches the renderer meanwhile. The page must come up, wait, and then work in full:
// its calls answered and the event stream carrying what the core tells every window.
test('the page comes up while the core is still opening, then connects and hears its events', async ({
  page,
  core,
}) => {
  let open: (bridge: BridgeHost) => void = () => undefined;
  const opening = new Promise<BridgeHost>((resolve) => (open = resolve));
  const host = await startWebHost({ rendererDir: resolve('out/renderer'), bridge: opening });
  const bridge = new BridgeHost(core, { transport: 'web', version: 'test' });
  try {
    await page.goto(host.url);
    await expect(page.getByRole('heading', { name: 'Agent Console' })).toBeVisible();
    await expect(page.locator('[data-app-state="loading"]')).toBeVisible();
    await expect(page.getByRole('status')).toHaveText('Starting the console…');
    await page.screenshot({ path: screenshotPath('web-host-core-opening') });
    // The event stream opened before the core was there; it must still carry events once it is.
    open(bridge);
    await expect(page.locator('[data-app-state="ready"]')).toBeVisible();
    await expect(page.getByText('Connected')).toBeVisible();
    await expect(page.getByText('Starting the console…')).toHaveCount(0);
    await bridge.invoke('mock:chaos', { preset: 'degraded', on: true });
    await expect(page.getByTestId('chaos-badge')).toHaveText('Chaos on: degraded');
  } finally {
    bridge.close();
    await host.close();
  }
});
