// The web transport (renderer/bridge/web-transport.ts) against the real web host and core, over
// real HTTP: calls made together go as batches, each settled as its answer arrives.
import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test, vi } from 'vitest';
import { BridgeHost } from '../../electron/bridge/bridge-host';
import { ConsoleCore } from '../../electron/core/console-core';
import { startWebHost, type WebHost } from '../../electron/web-host/server';
import { webTransport } from '../../renderer/bridge/web-transport';
import type { BridgeResult } from '../../shared/bridge';
import { removeDir, tempDir } from '../support/mock';

let dataDir: string;
let core: ConsoleCore;
let bridge: BridgeHost;
let host: WebHost;
let rendererDir: string;
const realFetch = globalThis.fetch;

/** The page's fetch on `to`: same origin, the token as the page's cookie would carry it. */
function pageOf(to: WebHost): void {
  vi.stubGlobal('fetch', (path: string, init: RequestInit) =>
    realFetch(`${to.origin}${path}?token=${to.token}`, init),
  );
}

beforeAll(async () => {
  dataDir = tempDir('agent-console-web-transport-');
  core = await ConsoleCore.open({
    dataDir,
    embeddedMock: 'in-process',
    keychainService: `agent-console-web-transport-${randomBytes(4).toString('hex')}`,
  });
  bridge = new BridgeHost(core, { transport: 'web', version: 'test' });
  // The host only needs a page to serve; these tests make the page's calls themselves.
  rendererDir = join(dataDir, 'renderer');
  mkdirSync(rendererDir);
  writeFileSync(join(rendererDir, 'index.html'), '<!doctype html><title>test</title>');
  host = await startWebHost({ rendererDir, bridge });
  pageOf(host);
});
afterAll(async () => {
  vi.unstubAllGlobals();
  bridge.close();
  await host.close();
  await core.close();
  removeDir(dataDir);
});

test('a hundred calls made at once all get their answers (more than one batch holds)', async () => {
  const transport = webTransport();
  const results = await Promise.all(
    Array.from({ length: 100 }, (_, i) =>
      i % 2 ? transport.invoke('app:info', {}) : transport.invoke('profiles:list', {}),
    ),
  );
  expect(results.filter((r) => !r.ok)).toEqual([]);
  expect(results[1]).toMatchObject({ ok: true, value: { transport: 'web' } });
  expect(results[0]).toMatchObject({ ok: true, value: [{ name: 'Embedded mock' }] });
});

test('in a batch, each call is settled when its answer comes, not when the slowest does', async () => {
  core.mock?.control.setAgent('slowpoke', { latencyMs: 1_500, chunkDelayMs: 0 });
  const transport = webTransport();
  const started = Date.now();
  const settledAt = (result: Promise<BridgeResult<unknown>>) =>
    result.then((r) => ({ r, at: Date.now() - started }));
  const [chat, info] = await Promise.all([
    settledAt(transport.invoke('chat:send', { agent: 'slowpoke', message: 'hello' })),
    settledAt(transport.invoke('app:info', {})),
  ]);
  expect(info.r).toMatchObject({ ok: true });
  expect(chat.r).toMatchObject({ ok: true, value: { agent: 'slowpoke' } });
  expect(info.at).toBeLessThan(1_000);
  expect(chat.at).toBeGreaterThanOrEqual(1_400);
});

test('a host that stops: what it had not answered says so, in words, what it had keeps its answer', async () => {
  core.mock?.control.setAgent('slowpoke', { latencyMs: 5_000, chunkDelayMs: 0 });
  const stopping = await startWebHost({ rendererDir, bridge });
  pageOf(stopping);
  try {
    const transport = webTransport();
    const chat = transport.invoke('chat:send', { agent: 'slowpoke', message: 'hello' });
    const info = await transport.invoke('app:info', {}).then(async (answered) => {
      await stopping.close();
      return answered;
    });
    expect(info).toMatchObject({ ok: true });
    const unreachable = {
      ok: false,
      error: {
        code: 'HOST_UNREACHABLE',
        message: 'The console’s web host is not answering. Is `npm run web` still running?',
      },
    };
    expect(await chat).toEqual(unreachable);
    // Stopped: a batch now finds nobody.
    expect(await Promise.all([transport.invoke('app:info', {}), transport.invoke('keys:list', {})])).toEqual([
      unreachable,
      unreachable,
    ]);
  } finally {
    pageOf(host);
  }
});
