// The web host's guard: loopback only, the per-launch token, our own Origin and Host.
import { request as httpRequest } from 'node:http';
import { expect, test } from './fixtures';

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
