// The web host's guard: loopback only, the per-launch token, our own Origin and Host.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { BridgeHost } from '../../electron/bridge/bridge-host';
import type { AppInfo } from '../../shared/bridge';
import { startWebHost } from '../../electron/web-host/server';
import { openRealKeychain, testService } from '../support/keychain';
import { ensureWebHostBuilt, startWebHostProcess, valueOf } from '../support/web-host';
import type { Page, Route } from '@playwright/test';
import { expect, screenshotLightAndDark, screenshotPath, test } from './fixtures';

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

// The calls a screen makes together go as one POST, and each answer comes back as one
// line as soon as it is ready: a chat waiting on a slow agent holds up none of the others.
test('a batch of calls: each answer as soon as it is ready, refusals in words', async ({ host, mock }) => {
  mock.control.setAgent('slowpoke', { latencyMs: 1_500, chunkDelayMs: 0 });
  const post = (body: string, token = true) =>
    fetch(`${host.origin}/bridge/calls${token ? `?token=${host.token}` : ''}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
    });
  const started = Date.now();
  const res = await post(
    JSON.stringify([
      ['chat:send', { agent: 'slowpoke', message: 'hello' }],
      ['app:info', {}],
      ['no:such', {}],
    ]),
  );
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^application\/x-ndjson/);
  const arrived: { index: number; at: number; result: { ok: boolean; value?: unknown; error?: unknown } }[] =
    [];
  const decoder = new TextDecoder();
  let rest = '';
  for await (const bytes of res.body as unknown as AsyncIterable<Uint8Array>) {
    rest += decoder.decode(bytes, { stream: true });
    for (let end = rest.indexOf('\n'); end >= 0; end = rest.indexOf('\n')) {
      const [index, result] = JSON.parse(rest.slice(0, end)) as [number, { ok: boolean }];
      arrived.push({ index, at: Date.now() - started, result });
      rest = rest.slice(end + 1);
    }
  }
  expect(arrived.map((a) => a.index).sort()).toEqual([0, 1, 2]);
  const [fast, unknown, slow] = [1, 2, 0].map((i) => arrived.find((a) => a.index === i)!);
  expect(fast?.result).toMatchObject({ ok: true, value: { transport: 'web' } });
  expect(unknown?.result).toMatchObject({ ok: false, error: { code: 'UNKNOWN_CALL' } });
  expect(slow?.result).toMatchObject({ ok: true, value: { agent: 'slowpoke' } });
  // The quick answers did not wait for the agent.
  expect(fast!.at).toBeLessThan(1_000);
  expect(unknown!.at).toBeLessThan(1_000);
  expect(slow!.at).toBeGreaterThanOrEqual(1_400);

  expect((await post('[["app:info", {}]]', false)).status).toBe(401);
  const notBatch = await post('{"call": "app:info"}');
  expect(notBatch.status).toBe(400);
  expect(await notBatch.text()).toBe('A batch is a list of 1 to 64 [call, input] pairs.');
});

test('a web host that has stopped: calls and screens say so, in words', async ({ page, core }) => {
  const bridge = new BridgeHost(core, { transport: 'web', version: 'test' });
  const host = await startWebHost({ rendererDir: resolve('out/renderer'), bridge });
  try {
    await page.goto(host.url);
    await expect(page.getByText('Connected')).toBeVisible();
    await expect(page.getByLabel('Agent', { exact: true })).toBeEnabled();
  } finally {
    bridge.close();
    await host.close();
  }
  // The header no longer claims a connection it cannot know about.
  await expect(page.getByTestId('connection-status')).toHaveText('Web host stopped');
  // A call from the screen in view: its answer says the host is gone.
  await page.getByRole('button', { name: 'Refresh agents' }).click();
  await expect(page.getByText('The console’s web host is not answering.').first()).toBeVisible();
  // A screen whose code was never fetched: it says so instead of blanking the window.
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: 'Agents', exact: true })
    .click();
  const failure = page.getByRole('alert').filter({ hasText: 'This screen could not be loaded.' });
  await expect(failure).toContainText('Is `npm run web` still running?');
  await expect(failure.getByRole('button', { name: 'Reload' })).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
  await page.screenshot({ path: screenshotPath('web-host-stopped') });
});

// `npm run web` serves the page while the core is still loading and opening, so the
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
    await expect(page.getByRole('banner').getByText('Agent Console')).toBeVisible();
    await expect(page.locator('[data-app-state="loading"]')).toBeVisible();
    await expect(page.getByRole('status')).toHaveText('Starting the console…');
    // The header guesses nothing while it does not know: no "No key", the profile still to come.
    const profile = page.getByRole('combobox', { name: 'Profile' });
    await expect(profile).toBeDisabled();
    await expect(profile).toHaveText('Starting…');
    await expect(page.getByText('No key')).toHaveCount(0);
    await screenshotLightAndDark(page, 'web-host-core-opening');
    // The event stream opened before the core was there; it must still carry events once it is.
    open(bridge);
    await expect(page.locator('[data-app-state="ready"]')).toBeVisible();
    await expect(page.getByText('Connected')).toBeVisible();
    await expect(page.getByText('Starting the console…')).toHaveCount(0);
    await expect(profile).toBeEnabled();
    await expect(profile.locator('option:checked')).toHaveText('Embedded mock');
    await bridge.invoke('mock:chaos', { preset: 'degraded', on: true });
    await expect(page.getByTestId('chaos-badge')).toHaveText('Chaos on: Degraded');
    // A warning, in the warning colour, though this page never opened the Mock screen.
    const colours = await page.getByTestId('chaos-badge').evaluate((badge) => {
      const probe = document.createElement('span');
      probe.style.background = 'var(--bad)';
      document.body.append(probe);
      const bad = getComputedStyle(probe).backgroundColor;
      probe.remove();
      return { badge: getComputedStyle(badge).backgroundColor, bad };
    });
    expect(colours.badge).toBe(colours.bad);
  } finally {
    bridge.close();
    await host.close();
  }
});

/**
 * Whether the console's first answer about the app, to the page that `open` loads, said the
 * keychain was being checked. That batch's answers reach the page together, read here first.
 */
async function firstInfoSaidChecking(page: Page, open: () => Promise<unknown>): Promise<boolean> {
  let said!: (checking: boolean) => void;
  const checking = new Promise<boolean>((resolve) => (said = resolve));
  let seen = false;
  await page.route('**/bridge/calls', async (route: Route) => {
    const calls = JSON.parse(route.request().postData() ?? '[]') as [string, unknown][];
    const at = calls.findIndex(([call]) => call === 'app:info');
    if (seen || at < 0) return route.continue();
    seen = true;
    const response = await route.fetch();
    const body = await response.text();
    for (const line of body.split('\n').filter(Boolean)) {
      const [index, result] = JSON.parse(line) as [number, { value?: AppInfo }];
      if (index === at) said(result.value?.keychain.checking === true);
    }
    said(false); // no answer to it: nothing was said (a promise keeps its first answer)
    await route.fulfill({ response, body });
  });
  await open();
  return checking;
}

// `npm run web` opens the keychain only once the first screen's health check is over.
// Keys must still say where keys are kept, without anyone having asked it to look: told by the
// core's event, or, when the page's event stream connected only after the keychain's probe was
// over (the event then went to no one), by asking again.
for (const stream of ['connected from the start', 'connecting late'] as const) {
  test(`\`npm run web\`: after the first screen connects, Keys says where keys are kept, unasked (event stream ${stream})`, async ({
    page,
  }) => {
    const real = await openRealKeychain(testService('e2e-web-host-keychain'));
    test.skip(real.skipReason !== undefined, real.skipReason);
    await ensureWebHostBuilt();
    let releaseEvents = (): void => undefined;
    if (stream === 'connecting late') {
      const held = new Promise<void>((release) => (releaseEvents = release));
      await page.route('**/bridge/events', async (route) => {
        await held;
        await route.continue();
      });
    }
    // The lost event needs the page's first answer to say "checking": a page that loaded after the
    // probe was over is started again (a slow browser start), at most three times.
    for (let start = 1; ; start++) {
      const dataDir = mkdtempSync(join(tmpdir(), 'agent-console-e2e-web-keychain-'));
      const web = await startWebHostProcess(dataDir);
      try {
        const checking = await firstInfoSaidChecking(page, () => page.goto(web.url.href));
        if (stream === 'connecting late' && !checking) {
          expect(start, 'the page never asked before the keychain was known').toBeLessThan(3);
          continue;
        }
        await expect(page.getByTestId('connection-status')).toHaveText('Connected');
        if (stream === 'connecting late') {
          // The stream is let through once the host says the probe is over: its event has gone.
          await expect
            .poll(async () => valueOf(await web.call<AppInfo>('app:info', {})).keychain.checking === true)
            .toBe(false);
          releaseEvents();
        }
        await page.getByRole('link', { name: 'Keys' }).click();
        await expect(page.getByText('Secrets are kept in your system keychain')).toBeVisible();
        await expect(page.getByRole('status').filter({ hasText: 'keychain' })).toHaveCount(0);
        if (stream === 'connected from the start')
          await screenshotLightAndDark(page, 'web-host-keys-keychain-known');
        return;
      } finally {
        await web.stop();
        rmSync(dataDir, { recursive: true, force: true });
      }
    }
  });
}

// `npm run web` opens the user's browser with a one-time link in a file only this user
// can read, never with the token on a command line. The browser's opener here is a stand-in
// `xdg-open` that keeps a copy of the file it was given and its command line.
test('`npm run web` opens the browser on a one-time link: the console, and no token on any command line', async ({
  page,
}) => {
  test.skip(process.platform !== 'linux', 'the opener on Linux is xdg-open; macOS and Windows open theirs');
  await ensureWebHostBuilt();
  const dataDir = mkdtempSync(join(tmpdir(), 'agent-console-e2e-web-open-'));
  const bin = join(dataDir, 'bin');
  mkdirSync(bin);
  writeFileSync(
    join(bin, 'xdg-open'),
    `#!/bin/sh\nprintf '%s\\n' "$@" > "${dataDir}/args.tmp" && cp "$1" "${dataDir}/opened.html" && mv "${dataDir}/args.tmp" "${dataDir}/args"\n`,
    { mode: 0o755 },
  );
  const web = await startWebHostProcess(dataDir, {
    AGENT_CONSOLE_NO_OPEN: '0',
    DISPLAY: ':0',
    PATH: `${bin}:${process.env.PATH ?? ''}`,
  });
  try {
    const argsFile = join(dataDir, 'args');
    await expect.poll(() => existsSync(argsFile), { timeout: 10_000 }).toBe(true);
    const token = web.url.searchParams.get('token') as string;
    const args = readFileSync(argsFile, 'utf8');
    expect(args).not.toContain(token);
    const opened = readFileSync(join(dataDir, 'opened.html'), 'utf8');
    expect(opened).not.toContain(token);
    const launch = /url=(http:\/\/127\.0\.0\.1:\d+\/\?launch=\w+)/.exec(opened)?.[1];
    expect(launch, opened).toBeDefined();

    // The browser follows the file to the console, which comes up connected.
    await page.goto(pathToFileURL(join(dataDir, 'opened.html')).href);
    await expect(page.getByTestId('connection-status')).toHaveText('Connected');
    expect(new URL(page.url()).search).toBe('');
    // The link worked once: it is refused now, in words.
    const again = await fetch(launch as string, { redirect: 'manual' });
    expect(again.status).toBe(401);
    expect(await again.text()).toContain('This launch link was already used or has expired');
  } finally {
    await web.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
});
