// The data folder as every front end opens it (Electron, the web host, the CLI): this user's alone,
// with our own folders in it real folders of theirs, and without the temp files of writes a crash
// interrupted. The rules for each folder and file are private-files.ts's.
import { readdir, stat, unlink } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { checkDataFolder, checkPrivateDirIfPresent } from './private-files';

/** Folders of ours inside the data folder: their contents are the user's (conversations, logs, keys' names). */
const OWN_SUBFOLDERS = ['logs', 'mock', 'transcripts', 'fixtures', 'test-runs', 'monitors', 'ca'];

/**
 * Checks the data folder (made 0700 if missing; refused when another user owns it or others may
 * write in it) before anything writes in it. Our own folders, where they exist, must be real
 * folders of this user's (never a link) and are tightened to 0700 when an earlier version left
 * them open to others; each is made by whoever first writes in it. Throws DataFolderError, in
 * words, for the front end to show before it takes the folder's lock.
 */
export function preparePrivateFolders(dataDir: string): void {
  checkDataFolder(dataDir);
  for (const name of OWN_SUBFOLDERS) checkPrivateDirIfPresent(join(dataDir, name));
}

/**
 * An atomic write puts `<file>.<a 32-bit number>` beside the file, then renames it over (ours in
 * private-files.ts; write-file-atomic's, the mock's, a murmur hash); a kill -9 between the two
 * leaves it behind. Only our own formats are matched.
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
