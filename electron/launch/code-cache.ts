// Starts a Node tool's CommonJS bundle (the CLI, the web host) through V8's code cache.
// Compiling a few megabytes of bundled JavaScript is most of a CLI call's cost on Node 20, which has
// no compile cache of its own (Node 22's module.enableCompileCache). The bytecode V8 made for a
// run — taken after the run, so it holds the functions that run compiled, not just the top level —
// is kept in the user's cache folder, one file per bundle build, Node version and command, and
// handed back to V8 next time. V8 checks it against the source and its own version and flags and
// rejects a file that does not fit; a rejected or unreadable file only costs the compile it would
// have saved, and is written anew.
//
// The folder is the user's own (made 0700; refused when another user owns it or others may write in
// it): a cache file is code.
import { isAscii } from 'node:buffer';
import { mkdirSync, readFileSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, dirname, join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { Script } from 'node:vm';
import { codeCacheDir, ownFolder } from './cache-folder';

/**
 * undici parses HTTP with llhttp compiled to WebAssembly. Node 20's V8 recompiles llhttp's one large
 * parsing function with TurboFan once it has run ~1.8 MB of "bytes executed", which the first reply
 * or two reach: 80–100 ms of CPU on a background thread, which a CLI call waits for before it exits
 * (measured: `agents --json` 263 → 217 ms) and which the web host's start shares two cores with.
 * Recent V8 (newer than Node 20's 11.3) uses 13 MB by default: the same here, so a start-up's few
 * replies stay on Liftoff's code and steady traffic still tiers up. Set before any wasm is compiled
 * and before the bundle's Script, whose code cache V8 checks against its flags.
 */
const WASM_TIERING_BUDGET = '--wasm-tiering-budget=13000000';

/** How long a long-running tool (the web host) runs before its cache is taken: past its start. */
const SAVE_AFTER_MS = 3_000;

function saveCache(dir: string, file: string, data: Buffer, stalePrefix: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  if (!ownFolder(dir)) return;
  // Written beside and renamed into place: two processes saving at once never leave half a file.
  const temporary = join(dir, `${file}.${process.pid}.tmp`);
  writeFileSync(temporary, data, { mode: 0o600 });
  renameSync(temporary, join(dir, file));
  // Caches of earlier builds of the same bundle and command are of no more use.
  for (const name of readdirSync(dir)) {
    if (name !== file && name.startsWith(stalePrefix) && !name.endsWith('.tmp')) {
      rmSync(join(dir, name), { force: true });
    }
  }
}

/**
 * Runs `bundle` (a CommonJS file) as Node would run it as the main module, with V8's code cache
 * kept under `variant` (the CLI's command: each command compiles different code).
 */
export function runBundle(bundle: string, variant: string): void {
  setFlagsFromString(WASM_TIERING_BUDGET);
  const bytes = readFileSync(bundle);
  // The bundles are ASCII (esbuild escapes what is not; their licence comments are in a file beside,
  // scripts/build.mjs): read as Latin-1, a copy, not decoded as UTF-8, 5–7 ms of each start for
  // 2.3 MB. A bundle that is not ASCII is decoded.
  const source = isAscii(bytes) ? bytes.toString('latin1') : bytes.toString('utf8');
  const dir = codeCacheDir();
  const build = statSync(bundle);
  const prefix = `${basename(bundle)}.${/^[a-z][a-z-]{0,30}$/.test(variant) ? variant : 'other'}.`;
  const file = `${prefix}${build.size}-${Math.floor(build.mtimeMs)}.${process.version}-${process.arch}.v8`;
  let cachedData: Buffer | undefined;
  try {
    if (dir !== undefined && ownFolder(dir)) cachedData = readFileSync(join(dir, file));
  } catch {
    // None yet (or no folder): this run makes it.
  }
  const script = new Script(
    `(function (exports, require, module, __filename, __dirname) {${source}\n})`,
    cachedData ? { filename: bundle, cachedData } : { filename: bundle },
  );
  // What V8 made of the cache it was given (`none`: there was none to give).
  const cache =
    dir === undefined ? 'off' : !cachedData ? 'none' : script.cachedDataRejected ? 'rejected' : 'accepted';
  if (dir !== undefined && cache !== 'accepted') {
    let saved = false;
    const save = (): void => {
      if (saved) return;
      saved = true;
      try {
        saveCache(dir, file, script.createCachedData(), prefix);
      } catch {
        // A read-only or full cache folder: the next run compiles again, nothing more.
      }
    };
    setTimeout(save, SAVE_AFTER_MS).unref();
    process.once('exit', save);
  }
  if (process.env.AGENT_CONSOLE_CODE_CACHE_REPORT === '1') process.stderr.write(`code cache: ${cache}\n`);
  const module = { exports: {} };
  const wrapper = script.runInThisContext() as (...args: unknown[]) => void;
  wrapper.call(module.exports, module.exports, createRequire(bundle), module, bundle, dirname(bundle));
}
