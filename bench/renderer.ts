// Renderer figures for `npm run bench`: the bundle's gzip size, and the time from starting the web
// host (core, embedded mock, bridge) to the first screen being interactive in Chromium.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium } from '@playwright/test';
import { BridgeHost } from '../electron/bridge/bridge-host';
import { ConsoleCore } from '../electron/core/console-core';
import { startWebHost } from '../electron/web-host/server';
import { buildRenderer } from '../scripts/build.mjs';
import { findChromium } from '../scripts/find-chromium.mjs';
import type { Figure } from './core';

const kb = (bytes: number): string => `${(bytes / 1024).toFixed(1)} KB`;

export async function bundleFigure(): Promise<Figure> {
  await buildRenderer();
  const dir = resolve('out/renderer/assets');
  let raw = 0;
  let gzip = 0;
  const files = readdirSync(dir).filter((f) => f.endsWith('.js') || f.endsWith('.css'));
  for (const file of files) {
    const bytes = readFileSync(join(dir, file));
    raw += bytes.length;
    gzip += gzipSync(bytes, { level: 9 }).length;
  }
  return {
    figure: 'renderer bundle (JS + CSS)',
    value: `${kb(gzip)} gzip`,
    note: `${kb(raw)} raw, ${files.length} files`,
  };
}

export async function firstScreenFigure(): Promise<Figure> {
  const executablePath = await findChromium();
  if (!executablePath)
    return { figure: 'web host start → first screen', value: 'n/a', note: 'no Chromium found' };
  const browser = await chromium.launch({
    executablePath,
    args: [
      '--disable-gpu',
      '--no-first-run',
      '--disable-background-networking',
      ...(process.getuid?.() === 0 ? ['--no-sandbox'] : []),
    ],
  });
  const dataDir = mkdtempSync(join(tmpdir(), 'agent-console-bench-'));
  const t0 = performance.now();
  const core = await ConsoleCore.open({
    dataDir,
    embeddedMock: 'in-process',
    keychainService: `agent-console-bench-${randomBytes(4).toString('hex')}`,
  });
  const bridge = new BridgeHost(core, { transport: 'web', version: 'bench' });
  const host = await startWebHost({ rendererDir: resolve('out/renderer'), bridge });
  const hostReady = performance.now();
  const page = await browser.newPage();
  await page.goto(host.url);
  await page.locator('[data-app-state="ready"]').waitFor();
  await page.getByText('Connected').waitFor();
  const interactive = performance.now();
  await browser.close();
  bridge.close();
  await host.close();
  await core.close();
  rmSync(dataDir, { recursive: true, force: true });
  return {
    figure: 'web host start → first screen',
    value: `${Math.round(interactive - t0)} ms`,
    note: `host up in ${Math.round(hostReady - t0)} ms (core, mock, TLS), page ready and connected ${Math.round(interactive - hostReady)} ms later`,
  };
}
