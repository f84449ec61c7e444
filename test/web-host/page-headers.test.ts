// What the web host sends with the page (and with every answer past its token check): the page's
// security headers, the same CSP the desktop shell sends, and no caching.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { BridgeHost } from '../../electron/bridge/bridge-host';
import { startWebHost, type WebHost } from '../../electron/web-host/server';
import { PAGE_SECURITY_HEADERS } from '../../shared/page-policy';
import { removeDir, tempDir } from '../support/mock';

let dir: string;
let host: WebHost;

beforeAll(async () => {
  dir = tempDir('agent-console-page-headers-');
  const rendererDir = join(dir, 'renderer');
  mkdirSync(rendererDir);
  writeFileSync(join(rendererDir, 'index.html'), '<!doctype html><title>test</title>');
  // The page is served while the core still opens: a bridge that never opens is enough here.
  host = await startWebHost({ rendererDir, bridge: new Promise<BridgeHost>(() => undefined) });
});
afterAll(async () => {
  await host.close();
  removeDir(dir);
});

test('the page comes with the CSP, no sniffing, no referrer and no caching', async () => {
  const page = await fetch(host.url);
  expect(page.status).toBe(200);
  expect(Object.fromEntries(page.headers)).toMatchObject({
    ...PAGE_SECURITY_HEADERS,
    'cache-control': 'no-store',
  });
  expect(page.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
});

test('a launch link’s page comes with them too', async () => {
  const launched = await fetch(host.launchUrl(), { redirect: 'manual' });
  expect(launched.status).toBe(200);
  expect(Object.fromEntries(launched.headers)).toMatchObject(PAGE_SECURITY_HEADERS);
});
