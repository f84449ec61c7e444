// Builds what the app runs: the renderer (Vite) and the Electron main process (esbuild).
import { build as viteBuild } from 'vite';
import { build as esbuild } from 'esbuild';

export async function buildRenderer() {
  await viteBuild({ configFile: 'vite.config.ts', logLevel: 'warn' });
}

export async function buildElectron() {
  await esbuild({
    entryPoints: { main: 'electron/shell/main.ts' },
    outdir: 'out/electron',
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node22',
    sourcemap: true,
    // Native and Electron modules load at run time; everything else is bundled.
    packages: 'external',
    logLevel: 'warning',
  });
  // A sandboxed preload gets no Node and no module loader beyond `require('electron')`: it must be
  // one CommonJS file. Built for the browser platform, so any Node built-in that sneaks into its
  // imports fails the build instead of failing at run time.
  await esbuild({
    entryPoints: { preload: 'electron/shell/preload.ts' },
    outdir: 'out/electron',
    outExtension: { '.js': '.cjs' },
    bundle: true,
    platform: 'browser',
    format: 'cjs',
    target: 'chrome140',
    sourcemap: true,
    external: ['electron'],
    logLevel: 'warning',
  });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await buildRenderer();
  await buildElectron();
  console.log('Built out/renderer and out/electron.');
}
