// Builds what runs: the renderer (Vite), the Electron main process and preload, and the Node tools
// (the CLI, which also runs the mock, and the web host) as esbuild bundles, so nothing runs
// through tsx. Every pure-JS dependency is bundled: the packaged app ships only `electron` (given by
// Electron) and native modules (@napi-rs/keyring, loaded lazily: electron/core/secret-store.ts).
// The desktop app's code the first screen may not need is split into chunks loaded by `import()`
// when used; the Node tools are one CommonJS file each, started through V8's code cache.
//
// `node scripts/build.mjs` builds everything; `node scripts/build.mjs node` only the esbuild
// bundles (what `npm install` runs as `prepare`, and what bin/agent-console.js runs when its
// bundle is missing or older than the sources). `--release` (what `npm run dist` and the packaging
// test use) also removes the desktop app's chunks of earlier builds at once, so a package holds
// exactly this build.
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
/** Sources the esbuild bundles are made of; a newer file here means a stale bundle. */
const SOURCE_DIRS = ['electron', 'mock', 'shared', 'schemas'];
const CLI_BUNDLE = join(root, 'out', 'node', 'cli.js');

/** Bundled CommonJS dependencies use `require`, `__filename` and `__dirname` (write-file-atomic
 * names its temporary files after `__filename`); an ESM bundle has none of its own. */
const REQUIRE_SHIM = [
  "import { createRequire as __agentConsoleRequire } from 'node:module';",
  "import { fileURLToPath as __agentConsoleFilePath } from 'node:url';",
  'const require = __agentConsoleRequire(import.meta.url);',
  'const __filename = __agentConsoleFilePath(import.meta.url);',
  "const __dirname = __agentConsoleFilePath(new URL('.', import.meta.url));",
].join('\n');

/** The version in package.json, as the node-side bundles know it (`APP_VERSION`, app-version.d.ts). */
const APP_VERSION = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).version;

const NODE_BUNDLE = {
  bundle: true,
  define: { APP_VERSION: JSON.stringify(APP_VERSION) },
  platform: 'node',
  format: 'esm',
  target: 'node22',
  splitting: true,
  chunkNames: 'chunks/[name]-[hash]',
  banner: { js: REQUIRE_SHIM },
  // Only Electron and the native keychain binding stay outside the bundle.
  external: ['electron', '@napi-rs/keyring'],
  minify: true,
  keepNames: true,
  sourcemap: true,
  absWorkingDir: root,
  logLevel: 'warning',
  write: false,
};

/** Each file is written beside and renamed into place, so a process reading a bundle while another
 * rebuilds it never sees half a file (chunk names carry their content's hash). */
function writeOutputs(result, { pruneNow = false } = {}) {
  // Chunks before the entries that import them, so a new entry never points at a missing chunk.
  const isChunk = (file) => file.path.includes(join('/', 'chunks', '/'));
  const files = [...result.outputFiles.filter(isChunk), ...result.outputFiles.filter((f) => !isChunk(f))];
  for (const file of files) {
    mkdirSync(dirname(file.path), { recursive: true });
    const temporary = `${file.path}.${process.pid}.tmp`;
    writeFileSync(temporary, file.contents);
    renameSync(temporary, file.path);
  }
  pruneChunks(
    result.outputFiles.map((f) => f.path),
    pruneNow ? 0 : 10 * 60_000,
  );
}

/**
 * Chunks of earlier builds, once no process started before this build can still be loading them
 * (older than `graceMs`; 0 for a release, whose package must not carry them).
 */
function pruneChunks(written, graceMs) {
  const dirs = new Set(written.filter((p) => p.includes(join('/', 'chunks', '/'))).map(dirname));
  for (const dir of dirs) {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (!written.includes(path) && Date.now() - statSync(path).mtimeMs >= graceMs)
        rmSync(path, { force: true });
    }
  }
}

export async function buildRenderer() {
  const { build } = await import('vite');
  // The production build, whatever the caller's NODE_ENV: Vite goes by it, and under vitest ("test",
  // where the packaging test builds a release) it bundled React's development build, 1.8× the size.
  const callerEnv = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  try {
    await build({ configFile: join(root, 'vite.config.ts'), logLevel: 'warn' });
  } finally {
    if (callerEnv === undefined) delete process.env.NODE_ENV;
    else process.env.NODE_ENV = callerEnv;
  }
}

export async function buildElectron({ release = false } = {}) {
  const { build } = await import('esbuild');
  writeOutputs(
    await build({
      ...NODE_BUNDLE,
      entryPoints: { main: 'electron/shell/main.ts' },
      outdir: join(root, 'out', 'electron'),
      target: 'node22',
    }),
    { pruneNow: release },
  );
  // The entry (package.json "main"): turns Node's compile cache on, then imports main.js, which
  // must not be bundled into it (electron/shell/start.ts).
  writeOutputs(
    await build({
      ...NODE_BUNDLE,
      splitting: false,
      banner: {},
      entryPoints: { start: 'electron/shell/start.ts' },
      outdir: join(root, 'out', 'electron'),
      target: 'node22',
    }),
  );
  // A sandboxed preload gets no Node and no module loader beyond `require('electron')`: it must be
  // one CommonJS file. Built for the browser platform, so any Node built-in that sneaks into its
  // imports fails the build instead of failing at run time.
  writeOutputs(
    await build({
      entryPoints: { preload: 'electron/shell/preload.ts' },
      outdir: join(root, 'out', 'electron'),
      outExtension: { '.js': '.cjs' },
      bundle: true,
      platform: 'browser',
      format: 'cjs',
      target: 'chrome140',
      minify: true,
      sourcemap: true,
      external: ['electron'],
      absWorkingDir: root,
      logLevel: 'warning',
      write: false,
    }),
  );
}

/**
 * The CLI (out/node/cli.js, which also runs the mock) and the web host (out/node/web-host.js): each a
 * small launcher that starts its CommonJS bundle (cli.bundle.cjs, web-host.bundle.cjs) through V8's
 * code cache (electron/launch/code-cache.ts). One file each, not chunks: the cache is per script,
 * and code a command does not use (the embedded mock: fastify, selfsigned) is compiled from the
 * cache but not run until `import()`ed.
 */
export async function buildNodeTools() {
  const { build } = await import('esbuild');
  const cliEntry = {
    name: 'cli-entry',
    setup(b) {
      b.onResolve({ filter: /^agent-console:cli$/ }, () => ({ path: 'cli', namespace: 'entry' }));
      b.onLoad({ filter: /.*/, namespace: 'entry' }, () => ({
        resolveDir: root,
        loader: 'ts',
        contents:
          "import { runCli } from './electron/cli/main.ts';\n" +
          'void runCli(process.argv.slice(2)).then((code) => { process.exitCode = code; });\n',
      }));
    },
  };
  const outdir = join(root, 'out', 'node');
  writeOutputs(
    await build({
      ...NODE_BUNDLE,
      format: 'cjs',
      splitting: false,
      banner: {},
      // `import()` of what is bundled becomes a deferred require; of the keychain binding, a require.
      supported: { 'dynamic-import': false },
      // Only electron/cli/mock-serve.ts's "am I the main module" test reads it; in a bundle it never is.
      define: { ...NODE_BUNDLE.define, 'import.meta.url': 'undefined' },
      entryPoints: { 'cli.bundle': 'agent-console:cli', 'web-host.bundle': 'electron/web-host/main.ts' },
      outExtension: { '.js': '.cjs' },
      outdir,
      // Licence comments in a file beside each bundle (cli.bundle.cjs.LEGAL.txt): one of them is not
      // ASCII, and the launcher reads an ASCII bundle without decoding it (code-cache.ts).
      legalComments: 'external',
      plugins: [cliEntry],
    }),
  );
  // The launchers last: bin/agent-console.js goes by cli.js's age.
  writeOutputs(
    await build({
      ...NODE_BUNDLE,
      splitting: false,
      banner: {},
      entryPoints: { cli: 'electron/launch/cli.ts', 'web-host': 'electron/launch/web-host.ts' },
      outdir,
    }),
  );
  // The chunks of the earlier, split build.
  rmSync(join(outdir, 'chunks'), { recursive: true, force: true });
}

function newestSource(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    const time = entry.isDirectory() ? newestSource(path) : statSync(path).mtimeMs;
    if (time > newest) newest = time;
  }
  return newest;
}

/** Rebuilds the Node tools when their bundle is missing or older than a source file. */
export async function ensureNodeTools() {
  let built = 0;
  try {
    built = statSync(CLI_BUNDLE).mtimeMs;
  } catch {
    // not built yet
  }
  const sources = Math.max(...SOURCE_DIRS.map((d) => newestSource(join(root, d))));
  if (built > sources) return;
  await buildNodeTools();
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  if (process.argv[2] === 'node') {
    await buildNodeTools();
    await buildElectron();
    console.log(`Built ${relative(process.cwd(), join(root, 'out'))}/node and out/electron.`);
  } else {
    await buildRenderer();
    await buildElectron({ release: process.argv.includes('--release') });
    await buildNodeTools();
    console.log('Built out/renderer, out/electron and out/node.');
  }
}
