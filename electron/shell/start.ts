// out/electron/start.js, the desktop app's entry (package.json "main"). Electron's Node (22 and
// later) keeps the code V8 compiled for a module between launches once its compile cache is on:
// the main process's own code is main.js and its chunks, about 1.5 MB that every
// launch compiled again. So the cache is turned on here, before any of them loads, and then the
// app starts (main.js, built from main.ts). It lives in the user's code-cache folder beside the
// Node tools' (cache-folder.ts), and is left off for an AppImage, which runs from a new mount
// path at every launch: its entries would pile up and never be used again. Where the runtime has
// no compile cache (Node 20, as the packaged-layout test runs this), the app starts as before.
import { mkdirSync } from 'node:fs';
import module from 'node:module';
import { join } from 'node:path';
import { codeCacheDir, ownFolder } from '../launch/cache-folder';

/** When the cache is written: once the start, whose code it is for, is over. */
const FLUSH_AFTER_MS = 3_000;

interface CompileCache {
  enableCompileCache?: (directory: string) => { status: number; message?: string };
  flushCompileCache?: () => void;
}

function startCompileCache(api: CompileCache): void {
  const root = codeCacheDir();
  if (!api.enableCompileCache || root === undefined || process.env.APPIMAGE) return;
  try {
    const directory = join(root, 'electron-main');
    mkdirSync(directory, { recursive: true, mode: 0o700 });
    // A cache file is code: only from a folder that is this user's alone.
    if (!ownFolder(root) || !ownFolder(directory)) return;
    api.enableCompileCache(directory);
    // Node writes the cache as the process exits; an app that is killed or crashes never would.
    if (api.flushCompileCache) setTimeout(() => api.flushCompileCache?.(), FLUSH_AFTER_MS).unref();
  } catch {
    // A read-only or full cache folder: the app starts as it would without a cache.
  }
}

startCompileCache(module as CompileCache);
// Not bundled into this file: main.js must load after the cache is on. (A URL, so the bundler
// leaves the import as it is.)
await import(new URL('./main.js', import.meta.url).href);
