// One owner per data folder, with proper-lockfile: a lock directory whose mtime
// the owner refreshes, so a lock left by a crashed process goes stale and is taken over. Beside it a
// small file names the owner, so a second app or web host can say which process holds the folder.
// Short locks (`withFileLockSync`) guard each read-modify-write of a shared file (settings.json), so
// the CLI can work on a running app's folder without either losing the other's writes.
import { hostname } from 'node:os';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { lock, lockSync } from 'proper-lockfile';
import { CoreError } from './core-error';
import { replacePrivateFileSync } from './private-files';

interface FolderOwner {
  pid: number;
  app: string;
  host: string;
  startedAt: string;
}

/** A lock nobody refreshed for this long is taken over (its owner crashed or hung). */
const STALE_MS = 10_000;

class FolderInUseError extends CoreError {
  override readonly name = 'FolderInUseError';
  constructor(
    readonly folder: string,
    readonly owner: FolderOwner | undefined,
  ) {
    super(
      'FOLDER_IN_USE',
      owner
        ? `The data folder ${folder} is in use by ${owner.app} (process ${owner.pid}, started ` +
            `${owner.startedAt}). Close that one first, or give this one another folder with ` +
            'AGENT_CONSOLE_DATA_DIR.'
        : `The data folder ${folder} is in use by another process. Close it first, or give this one ` +
            'another folder with AGENT_CONSOLE_DATA_DIR.',
    );
  }
}

export interface FolderLock {
  release(): Promise<void>;
}

/**
 * Makes this process the folder's one owner under `name` ("owner" for the app and the web host,
 * "mock" for a mock's state). Throws FolderInUseError naming the holder. A lock whose holder is
 * gone (kill -9, power cut) is taken over at once when its process is known dead, else once stale.
 */
export async function lockFolder(folder: string, name: string, app: string): Promise<FolderLock> {
  mkdirSync(folder, { recursive: true, mode: 0o700 });
  const lockfilePath = join(folder, `${name}.lock`);
  const ownerFile = join(folder, `${name}.owner.json`);
  const attempt = () =>
    lock(folder, {
      lockfilePath,
      realpath: false,
      stale: STALE_MS,
      // The lock was taken over (the folder was unreachable for longer than STALE_MS): say so.
      onCompromised: (error) => console.error(`The lock on ${folder} was lost: ${error.message}`),
    });
  let release: () => Promise<void>;
  try {
    release = await attempt();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ELOCKED') throw error;
    const owner = readOwner(ownerFile);
    if (!owner || owner.host !== hostname() || isAlive(owner.pid)) throw new FolderInUseError(folder, owner);
    // Its holder was killed on this machine: the lock is stale now, not in ten seconds.
    rmSync(lockfilePath, { recursive: true, force: true });
    try {
      release = await attempt();
    } catch (again) {
      if ((again as NodeJS.ErrnoException).code !== 'ELOCKED') throw again;
      throw new FolderInUseError(folder, readOwner(ownerFile));
    }
  }
  const owner: FolderOwner = { pid: process.pid, app, host: hostname(), startedAt: new Date().toISOString() };
  // Replaced, not opened by name: a link in its place is replaced, never written through.
  replacePrivateFileSync(ownerFile, JSON.stringify(owner), { fsync: false });
  // proper-lockfile removes its lock when the process exits; the owner's name goes with it.
  const forget = (): void => rmSync(ownerFile, { force: true });
  process.once('exit', forget);
  return {
    async release() {
      process.off('exit', forget);
      forget();
      await release().catch(() => undefined);
    },
  };
}

/**
 * What a mock's host hands it to hold its data folder (mock/server.ts `lockDataDir`): two mocks on
 * one state file would overwrite each other's writes, so the second is refused, naming the first.
 */
export function lockMockState(mockDir: string): Promise<FolderLock> {
  return lockFolder(mockDir, 'state', `a mock (${process.argv[1] ?? 'node'})`);
}

/** The lock beside a shared file is held at most this long by one write; waiters give up after it. */
const WRITE_WAIT_MS = 5_000;
const sleeper = new Int32Array(new SharedArrayBuffer(4));

/**
 * Runs `work` (a synchronous read-modify-write of `file`) while holding `file`'s lock, waiting for
 * another process's write to finish first. Every process that writes `file` must go through this.
 */
export function withFileLockSync<T>(file: string, work: () => T): T {
  const deadline = Date.now() + WRITE_WAIT_MS;
  let release: () => void;
  for (;;) {
    try {
      release = lockSync(file, { lockfilePath: `${file}.lock`, realpath: false, stale: STALE_MS });
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ELOCKED' || Date.now() > deadline) {
        throw new CoreError(
          'FILE_BUSY',
          `${file} is being written by another process and did not come free in ${WRITE_WAIT_MS / 1000} s; try again.`,
        );
      }
      Atomics.wait(sleeper, 0, 0, 5 + Math.random() * 10);
    }
  }
  try {
    return work();
  } finally {
    release();
  }
}

function readOwner(file: string): FolderOwner | undefined {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as FolderOwner;
  } catch {
    return undefined;
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
