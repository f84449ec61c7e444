// The data folder as every front end opens it (Electron, the web host, the CLI): readable by its
// user only. Issue 13: under the web host and the CLI, logs/ (made by electron-log) and the data
// folder itself used to be created with the process's umask (0755), unlike under Electron.
import { chmodSync, mkdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** Folders of ours inside the data folder: their contents are the user's (conversations, logs, keys' names). */
const OWN_SUBFOLDERS = ['logs', 'mock', 'transcripts', 'fixtures', 'test-runs', 'monitors', 'ca'];

const PRIVATE = 0o700;

/**
 * Creates the data folder (0700) and logs/ before anything writes in them, and tightens our own
 * subfolders when an earlier version left them open to others. The data folder itself is only
 * created 0700, never changed: `--data-dir` may name a folder the user chose and set up.
 */
export function preparePrivateFolders(dataDir: string, platform: NodeJS.Platform = process.platform): void {
  mkdirSync(dataDir, { recursive: true, mode: PRIVATE });
  mkdirSync(join(dataDir, 'logs'), { recursive: true, mode: PRIVATE });
  // Modes mean nothing on Windows: the profile folder's ACL keeps others out there.
  if (platform === 'win32') return;
  for (const name of OWN_SUBFOLDERS) {
    const dir = join(dataDir, name);
    let mode: number;
    try {
      mode = statSync(dir).mode;
    } catch {
      continue; // not made yet: whoever makes it makes it 0700
    }
    if ((mode & 0o077) !== 0) chmodSync(dir, PRIVATE);
  }
}
