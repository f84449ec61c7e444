// The data folder as every front end opens it (Electron, the web host, the CLI): readable by its
// user only, and without the temp files of writes a crash interrupted. Issue 13: under the web
// host and the CLI, logs/ (made by electron-log) and the data folder itself used to be created with
// the process's umask (0755), unlike under Electron.
import { chmodSync, mkdirSync, statSync } from 'node:fs';
import { readdir, stat, unlink } from 'node:fs/promises';
import { join, relative } from 'node:path';

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

/**
 * write-file-atomic writes `<file>.<murmur hash, a 32-bit number>` beside the file, then renames it
 * over; a kill -9 between the two leaves it behind. Only our own formats are matched.
 */
const ATOMIC_TEMP_FILE = /^[^.].*\.(?:json|jsonl|yaml)\.\d{1,10}$/;
/**
 * A temp file is a leftover once nobody has written to it for this long. A write in progress (by
 * this process, a CLI on the same folder, a standalone mock) touched its file moments ago: a whole
 * atomic write takes milliseconds. Were one stalled longer, its rename would fail and its writer
 * says so and retries; it never loses the data it holds in memory.
 */
export const STALE_TEMP_MS = 60_000;
/** Deeper than anything we make (transcripts/transcripts/<profile>/<file> is the deepest). */
const MAX_DEPTH = 6;

/** Deletes temp files of interrupted atomic writes in the data folder; returns them, relative. */
export async function sweepAtomicLeftovers(dataDir: string, now = Date.now()): Promise<string[]> {
  const removed: string[] = [];
  const walk = async (dir: string, depth: number): Promise<void> => {
    let entries;
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch {
      return; // gone or unreadable: nothing of ours to tidy there
    }
    for (const entry of entries) {
      const path = join(dir, entry.name);
      // Symbolic links are never followed: the sweep stays inside the data folder.
      if (entry.isDirectory() && depth < MAX_DEPTH) await walk(path, depth + 1);
      else if (entry.isFile() && ATOMIC_TEMP_FILE.test(entry.name)) {
        try {
          if (now - (await stat(path)).mtimeMs < STALE_TEMP_MS) continue;
          await unlink(path);
          removed.push(relative(dataDir, path));
        } catch {
          // already gone (another process swept it), or not ours to delete: leave it
        }
      }
    }
  };
  await walk(dataDir, 0);
  return removed;
}
