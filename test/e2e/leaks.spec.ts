// Leaks, as a hostile local program and a careless user meet them in a real browser:
// - a page on another port of 127.0.0.1 receives the web host's cookie (browsers do not scope cookies
//   by port) — and even with it, no stored key goes to that program's server until the user types
//   the key again in the Profiles screen;
// - a key pasted into the playground's message box is not written to browser storage, and the user
//   is told so.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { BridgeResult, KeyInfo } from '../../shared/bridge';
import { startEchoServer } from '../security/echo-server';
import { expect, screenshotPath, test } from './fixtures';

/** A program on another loopback port that serves a page and keeps the headers browsers send it. */
async function startSnoop(): Promise<{ url: string; seen: IncomingHttpHeaders[]; close(): Promise<void> }> {
  const seen: IncomingHttpHeaders[] = [];
  const server: Server = createServer((req, res) => {
    seen.push(req.headers);
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end('<!doctype html><title>Something else</title><p>nothing to see');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    seen,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** Every key-shaped string's 8-character pieces that appear in `text`. */
function piecesOf(key: string, text: string): string[] {
  const found: string[] = [];
  for (let i = 0; i + 8 <= key.length; i++)
    if (text.includes(key.slice(i, i + 8))) found.push(key.slice(i, i + 8));
  return found;
}

test('a page on another port gets the cookie, yet no stored key reaches its server until the user retypes the key', async ({
  app,
  host,
  mock,
}) => {
  const snoop = await startSnoop();
  const echo = await startEchoServer();
  try {
    // The threat: the browser hands the web host's cookie to any port of 127.0.0.1.
    await app.goto(snoop.url);
    const cookie = snoop.seen.map((h) => h.cookie ?? '').find((c) => c.includes(host.cookieName));
    expect(cookie, 'the cookie reached the other port').toBeDefined();
    expect(host.cookieName).not.toBe('agent_console_token'); // a new name at every launch

    // A local program holding the cookie (and forging our Origin) asks for a profile on its own
    // server with the stored key: refused in the core, and the key never left.
    const call = async <T>(name: string, input: unknown): Promise<BridgeResult<T>> => {
      const res = await fetch(`${host.origin}/bridge/call/${name}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', cookie: cookie as string, origin: host.origin },
        body: JSON.stringify(input),
      });
      return (await res.json()) as BridgeResult<T>;
    };
    const keys = await call<KeyInfo[]>('keys:list', {});
    const stored = keys.ok ? keys.value[0] : undefined;
    expect(stored).toBeDefined();
    const added = await call('profiles:add', { name: 'Evil', baseUrl: echo.baseUrl, keyId: stored?.id });
    expect(added).toMatchObject({ ok: false, error: { code: 'ORIGIN_NOT_CONFIRMED' } });
    expect(echo.bearers).toEqual([]);

    // The user, in the Profiles screen, means it: asked to type the key again, and then it is sent.
    await app.goto(host.url);
    await app.locator('[data-app-state="ready"]').waitFor();
    await app.getByRole('link', { name: 'Profiles' }).click();
    const form = app.getByRole('form', { name: 'Add a profile' });
    await form.getByLabel('Name').fill('Other server');
    await form.getByLabel('Base URL').fill(echo.baseUrl);
    await form.getByRole('combobox', { name: 'Key', exact: true }).selectOption({ index: 1 });
    await form.getByRole('button', { name: 'Add profile' }).click();
    const confirm = app.getByRole('form', { name: 'Confirm the new server' });
    await expect(confirm).toContainText('Send this key to a new server?');
    await app.screenshot({ path: screenshotPath('leaks-confirm-origin') });
    expect(echo.bearers).toEqual([]);
    await confirm.getByLabel('Type or paste the key again to confirm').fill(mock.keys.pro);
    await confirm.getByRole('button', { name: 'Confirm and add profile' }).click();
    const card = app.getByRole('listitem', { name: 'Other server' });
    await card.getByRole('button', { name: 'Test connection' }).click();
    // That server echoes the key in its 401: the page shows it masked, and no piece of it.
    await expect(card.getByRole('alert')).toContainText(`***…${mock.keys.pro.slice(-4)}`);
    expect(echo.bearers).toContain(mock.keys.pro);
    const page = await app.content();
    const storage = await app.evaluate(() => JSON.stringify({ ...localStorage, ...sessionStorage }));
    expect(piecesOf(mock.keys.pro, page + storage)).toEqual([]);
  } finally {
    await snoop.close();
    await echo.close();
  }
});

test('a key pasted into the message box is not kept in browser storage, and the user is told', async ({
  app,
  mock,
}) => {
  const box = app.getByRole('textbox', { name: 'Message' });
  await box.fill(`why does ${mock.keys.pro} fail?`);
  await expect(app.getByText('shaped like an API key, so it is not kept across a reload')).toBeVisible();
  await app.screenshot({ path: screenshotPath('leaks-key-in-draft') });
  const storage = await app.evaluate(() => JSON.stringify({ ...localStorage, ...sessionStorage }));
  expect(piecesOf(mock.keys.pro, storage)).toEqual([]);
  // An ordinary draft is kept, as before.
  await box.fill('an ordinary question');
  await expect
    .poll(() => app.evaluate(() => JSON.stringify({ ...localStorage })))
    .toContain('an ordinary question');
});
