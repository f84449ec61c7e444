// Where the app's compiled-code caches live: the user's own cache folder, shared by the
// Node tools' V8 code cache (code-cache.ts) and the desktop app's main process (electron/shell/
// start.ts). A cache file is code, so a folder is used only when it is this user's alone.
import { statSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

/** The user's cache folder for code caches; undefined when turned off (AGENT_CONSOLE_CODE_CACHE=''). */
export function codeCacheDir(): string | undefined {
  const { env, platform } = process;
  const chosen = env.AGENT_CONSOLE_CODE_CACHE;
  if (chosen !== undefined) return chosen === '' ? undefined : chosen;
  const home = homedir();
  const base =
    platform === 'darwin'
      ? join(home, 'Library', 'Caches')
      : platform === 'win32'
        ? (env.LOCALAPPDATA ?? join(home, 'AppData', 'Local'))
        : env.XDG_CACHE_HOME || join(home, '.cache');
  return join(base, 'agent-console', 'code-cache');
}

/**
 * True when `dir` is this user's own and nobody else may write in it (always on Windows, where
 * folders carry no uid): only then is a file in it trusted as code.
 */
export function ownFolder(dir: string): boolean {
  const uid = process.getuid?.();
  if (uid === undefined) return true;
  const stat = statSync(dir);
  return stat.uid === uid && (stat.mode & 0o022) === 0;
}
