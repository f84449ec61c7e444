// Renderer figures for `npm run bench`: the bundle's gzip size, and the time from starting the web
// host (core, embedded mock, bridge) to the first screen being interactive in Chromium.
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { buildRenderer } from '../scripts/build.mjs';
import { findChromium } from '../scripts/find-chromium.mjs';
import { launchChromium, openBenchConsole } from './console-page';
import type { Figure } from './core';

const kb = (bytes: number): string => `${(bytes / 1024).toFixed(1)} KB`;

/** The assets a chunk loads before it runs: its static `import … from "./x.js"`, transitively. */
function staticClosure(dir: string, roots: string[]): Set<string> {
  const seen = new Set<string>();
  const queue = [...roots];
  while (queue.length > 0) {
    const file = queue.pop() as string;
    if (seen.has(file)) continue;
    seen.add(file);
    if (!file.endsWith('.js')) continue;
    const code = readFileSync(join(dir, file), 'utf8');
    for (const match of code.matchAll(/(?:from|import)\s*"\.\/([^"]+\.js)"/g)) queue.push(match[1] as string);
  }
  return seen;
}

/**
 * The renderer's gzip size: `initial` is what index.html loads before anything shows
 * (its script, that script's static imports, its CSS); the first screen (Playground, the default
 * route) adds its own chunk; `total` is every JS and CSS asset. Goal: initial ≤ 120 KB gzip.
 */
export async function bundleFigure(): Promise<Figure> {
  await buildRenderer();
  const root = resolve('out/renderer');
  const dir = join(root, 'assets');
  const files = readdirSync(dir).filter((f) => f.endsWith('.js') || f.endsWith('.css'));
  const gzipOf = new Map(files.map((f) => [f, gzipSync(readFileSync(join(dir, f)), { level: 9 }).length]));
  const sum = (names: Iterable<string>): number => [...names].reduce((n, f) => n + (gzipOf.get(f) ?? 0), 0);
  const html = readFileSync(join(root, 'index.html'), 'utf8');
  const entry = [...html.matchAll(/(?:src|href)="\.\/assets\/([^"]+)"/g)].map((m) => m[1] as string);
  const initial = staticClosure(dir, entry);
  const playground = files.filter((f) => /^playground-screen-.*\.(js|css)$/.test(f));
  const firstScreen = new Set([...initial, ...staticClosure(dir, playground)]);
  let raw = 0;
  for (const f of files) raw += readFileSync(join(dir, f)).length;
  const initialKb = sum(initial) / 1024;
  return {
    figure: 'renderer JS + CSS, initial / total',
    value: `${kb(sum(initial))} / ${kb(sum(files))} gzip`,
    note: `initial ${initialKb <= 120 ? '≤' : '>'} 120 KB goal (${initial.size} files); with the first screen (Playground) ${kb(sum(firstScreen))}; total ${kb(raw)} raw in ${files.length} files`,
  };
}

export async function firstScreenFigure(): Promise<Figure> {
  const executablePath = await findChromium();
  if (!executablePath)
    return { figure: 'web host start → first screen', value: 'n/a', note: 'no Chromium found' };
  const browser = await launchChromium(executablePath);
  const t0 = performance.now();
  const app = await openBenchConsole();
  const { host } = app;
  const hostReady = performance.now();
  const page = await browser.newPage();
  await page.goto(host.url);
  await page.locator('[data-app-state="ready"]').waitFor();
  await page.getByText('Connected').waitFor();
  const interactive = performance.now();
  await browser.close();
  await app.close();
  return {
    figure: 'web host start → first screen',
    value: `${Math.round(interactive - t0)} ms`,
    note: `host up in ${Math.round(hostReady - t0)} ms (core, mock, TLS), page ready and connected ${Math.round(interactive - hostReady)} ms later`,
  };
}
