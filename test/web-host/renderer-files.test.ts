// The web host's files (electron/web-host/renderer-files.ts): the built renderer as a browser gets
// it, over real HTTP, while the core behind the host is still opening.
import { request } from 'node:http';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { BridgeHost } from '../../electron/bridge/bridge-host';
import { startWebHost, type WebHost } from '../../electron/web-host/server';
import { removeDir, tempDir } from '../support/mock';

const PAGE =
  '<!doctype html><title>console</title><script type="module" src="./assets/app-1a2b.js"></script>';
const SCRIPT = 'document.title = "ready";';
const MAP = '{"version":3,"sources":["app.tsx"],"mappings":""}';

let dir: string;
let host: WebHost;

beforeAll(async () => {
  dir = tempDir('agent-console-renderer-files-');
  const renderer = join(dir, 'renderer');
  mkdirSync(join(renderer, 'assets'), { recursive: true });
  writeFileSync(join(renderer, 'index.html'), PAGE);
  writeFileSync(join(renderer, 'assets', 'app-1a2b.js'), SCRIPT);
  writeFileSync(join(renderer, 'assets', 'app-1a2b.js.map'), MAP);
  // Beside the renderer, where no request may reach.
  writeFileSync(join(dir, 'secret.txt'), 'not for the browser');
  // A core that never finishes opening: the page must not wait for it.
  const opening = new Promise<BridgeHost>(() => undefined);
  host = await startWebHost({ rendererDir: renderer, bridge: opening });
});
afterAll(async () => {
  await host.close();
  removeDir(dir);
});

/** A GET of `path` exactly as written (no URL normalising), with the token in the query. */
function get(path: string): Promise<{ status: number; type: string; body: string }> {
  const { port } = new URL(host.origin);
  const separator = path.includes('?') ? '&' : '?';
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port, path: `${path}${separator}token=${host.token}` },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, type: String(res.headers['content-type']), body }),
        );
      },
    );
    req.on('error', reject);
    req.end();
  });
}

test('the page and its script are served while the core is still opening, each with its type', async () => {
  const page = await get('/');
  expect(page).toMatchObject({ status: 200, body: PAGE });
  expect(page.type).toMatch(/^text\/html/);
  const script = await get('/assets/app-1a2b.js');
  expect(script).toMatchObject({ status: 200, body: SCRIPT });
  expect(script.type).toMatch(/^text\/javascript/);
  expect(await get('/index.html')).toMatchObject({ status: 200, body: PAGE });
});

test('a source map is served when the developer tools ask for it', async () => {
  const map = await get('/assets/app-1a2b.js.map');
  expect(map).toMatchObject({ status: 200, body: MAP });
  expect(map.type).toMatch(/^application\/json/);
});

test('nothing outside the renderer is served, however the path is spelled', async () => {
  for (const path of ['/../secret.txt', '/%2e%2e/secret.txt', '/assets/..%2f..%2fsecret.txt']) {
    expect(await get(path), path).toMatchObject({ status: 404, body: 'Not found.' });
  }
  expect(await get('/assets/missing.js')).toMatchObject({ status: 404, body: 'Not found.' });
});

test('a rebuild under a running host leaves the open page whole: the files it started with are still served', async () => {
  // `npm run build` empties out/renderer before writing the new build (Vite's emptyOutDir).
  rmSync(join(dir, 'renderer', 'index.html'));
  rmSync(join(dir, 'renderer', 'assets', 'app-1a2b.js'));
  expect(await get('/')).toMatchObject({ status: 200, body: PAGE });
  expect(await get('/assets/app-1a2b.js')).toMatchObject({ status: 200, body: SCRIPT });
});

test('a renderer that was never built is refused at start, in words', async () => {
  const empty = join(dir, 'empty');
  mkdirSync(empty);
  await expect(startWebHost({ rendererDir: empty, bridge: new Promise(() => undefined) })).rejects.toThrow(
    /The renderer is not built .*run `npm run build`/,
  );
  await expect(
    startWebHost({ rendererDir: join(dir, 'nowhere'), bridge: new Promise(() => undefined) }),
  ).rejects.toThrow(/The renderer is not built/);
});
