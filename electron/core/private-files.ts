// How the console makes its folders and writes its files in the data folder: the one place that
// says "private and never through a symbolic link" (docs/security.md, "The data folder"). Every
// store goes through here rather than calling mkdir, appendFile or write-file-atomic itself, and
// what it writes passes the output guard on the way: no secret reaches a file of the data folder,
// whatever path produced it (docs/security.md, "Redaction").
//
// Why not follow links: a link in the data folder (logs/ → somewhere, health-history.jsonl → a file
// of someone else's) would make the console tighten, fill or replace whatever it points at, with
// the user's rights (or root's). So a folder we make or reuse is checked with lstat to be a real
// folder of this user's; an appended file is opened with O_NOFOLLOW; a replaced file is written
// beside its name and renamed over it, which replaces a link rather than writing through it.
//
// write-file-atomic (6.x) is not used for these files: it resolves the target's realpath first,
// writes its temp file beside the link's *target* and renames it over the target, and, given a
// mode but no owner, chowns the new file to the target's owner. Through a link it writes the
// target's folder and takes over the target's owner.
import { randomInt } from 'node:crypto';
import {
  closeSync,
  constants,
  fchmodSync,
  fstatSync,
  fsyncSync,
  lstatSync,
  mkdirSync,
  openSync,
  readFileSync,
  readSync,
  renameSync,
  statSync,
  unlinkSync,
  writeSync,
  type Stats,
} from 'node:fs';
import { open, rename, unlink } from 'node:fs/promises';
import { isAbsolute, join, relative, sep } from 'node:path';
import { CoreError } from './core-error';
import { guardText } from './output-guard';

/** A folder or file the console will not use as it stands; the words say why and what to do. */
export class DataFolderError extends CoreError {
  override readonly name = 'DataFolderError';
  constructor(
    readonly path: string,
    message: string,
  ) {
    super('DATA_FOLDER_UNSAFE', message);
  }
}

const FOLDER_MODE = 0o700;
const FILE_MODE = 0o600;
/** Windows has no O_NOFOLLOW (Node leaves it undefined there); lstat checks still apply. */
const NOFOLLOW = constants.O_NOFOLLOW ?? 0;
/** Appending: created if missing, never through a link. Also electron-log's open flags. */
export const PRIVATE_APPEND_FLAGS = constants.O_WRONLY | constants.O_CREAT | constants.O_APPEND | NOFOLLOW;
/** A new file only: fails on any existing name, a link included (O_EXCL never follows one). */
const CREATE_NEW_FLAGS = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | NOFOLLOW;
/** Reading one of our files without following a link put in its place. */
export const PRIVATE_READ_FLAGS = constants.O_RDONLY | NOFOLLOW;

/**
 * Owners and modes are POSIX's: on Windows a file carries an ACL instead (no uid, and mode bits
 * that mean nothing), and the user's profile folder, where the data folder lives, already keeps
 * other users out. There the checks below are skipped; links are still refused.
 */
const posix = (): boolean => process.platform !== 'win32';
const myUid = (): number | undefined => process.getuid?.();

const octal = (mode: number): string => `0${(mode & 0o777).toString(8)}`;

function refuseLink(path: string, kind: 'folder' | 'file'): never {
  throw new DataFolderError(
    path,
    `${path} is a symbolic link. Agent Console does not follow links where it keeps its own ` +
      `${kind}s, so that nothing it writes lands elsewhere. Remove the link (the console makes a ` +
      `new ${kind}), or move what it points to back in its place.`,
  );
}

function refuseOwner(path: string, stats: Stats, kind: 'folder' | 'file'): never {
  throw new DataFolderError(
    path,
    `${path} belongs to another user (uid ${stats.uid}), so Agent Console will not use it as its ` +
      `${kind}: that user could read and change what it holds. Remove it, or choose a data folder ` +
      'of your own with AGENT_CONSOLE_DATA_DIR.',
  );
}

function checkLinkAndOwner(path: string, stats: Stats, kind: 'folder' | 'file'): void {
  if (stats.isSymbolicLink()) refuseLink(path, kind);
  if (posix() && stats.uid !== myUid()) refuseOwner(path, stats, kind);
}

/**
 * A folder of ours that already exists: a real folder, this user's, and (POSIX) private — one an
 * earlier version left open to others is tightened, through a descriptor opened without following
 * a link, so the mode changed is the folder's just checked.
 */
function checkReusedFolder(path: string): void {
  const stats = lstatSync(path);
  checkLinkAndOwner(path, stats, 'folder');
  if (!stats.isDirectory()) {
    throw new DataFolderError(path, `${path} should be a folder of Agent Console's, but it is a file.`);
  }
  if (posix() && (stats.mode & 0o077) !== 0) {
    const fd = openSync(path, constants.O_RDONLY | constants.O_DIRECTORY | NOFOLLOW);
    try {
      fchmodSync(fd, FOLDER_MODE);
    } finally {
      closeSync(fd);
    }
  }
}

/** Checks a folder of ours if it exists (see checkReusedFolder); false when it does not yet. */
export function checkPrivateDirIfPresent(path: string): boolean {
  try {
    checkReusedFolder(path);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw error;
  }
}

/** The parts of `dir` below `within`; `dir` must be inside it. */
function partsBelow(dir: string, within: string): string[] {
  const rest = relative(within, dir);
  if (rest.startsWith('..') || isAbsolute(rest)) throw new Error(`${dir} is not inside ${within}`);
  return rest.split(sep).filter((part) => part !== '');
}

/**
 * Makes `dir` (0700) and every folder between `within` and it, or checks each one that exists:
 * `within` is the caller's known folder (the data folder, checked when it was opened), made if
 * missing; everything below it is ours and is never a link. Returns whether `dir` was made here.
 */
export function ensurePrivateDirSync(dir: string, within: string): boolean {
  mkdirSync(within, { recursive: true, mode: FOLDER_MODE });
  let path = within;
  let made = false;
  for (const part of partsBelow(dir, within)) {
    path = join(path, part);
    try {
      mkdirSync(path, { mode: FOLDER_MODE });
      made = true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      made = false;
      checkReusedFolder(path);
    }
  }
  return made;
}

/** As ensurePrivateDirSync; a few synchronous syscalls, for the async stores' convenience. */
export async function ensurePrivateDir(dir: string, within: string): Promise<boolean> {
  return ensurePrivateDirSync(dir, within);
}

/** An open file of ours: a regular file, this user's, readable by them only (tightened if not). */
function checkOpenedFile(fd: number, path: string): void {
  const stats = fstatSync(fd);
  if (!stats.isFile()) {
    throw new DataFolderError(
      path,
      `${path} should be a file of Agent Console's, but it is not a regular file.`,
    );
  }
  if (!posix()) return;
  if (stats.uid !== myUid()) refuseOwner(path, stats, 'file');
  if ((stats.mode & 0o077) !== 0) fchmodSync(fd, FILE_MODE);
}

/** ELOOP (Linux, macOS) or EMLINK (FreeBSD): O_NOFOLLOW met a link. */
export function isLinkRefusal(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException).code;
  return code === 'ELOOP' || code === 'EMLINK';
}

/** Opens `file` to append (made 0600 if missing), refusing a link in its place in words. */
export function openPrivateAppendSync(file: string): number {
  let fd: number;
  try {
    fd = openSync(file, PRIVATE_APPEND_FLAGS, FILE_MODE);
  } catch (error) {
    if (isLinkRefusal(error)) refuseLink(file, 'file');
    throw error;
  }
  try {
    checkOpenedFile(fd, file);
  } catch (error) {
    closeSync(fd);
    throw error;
  }
  return fd;
}

/** Appends `text` to `file` (made 0600 if missing), never through a link. */
export async function appendPrivateFile(file: string, text: string): Promise<void> {
  let handle;
  try {
    handle = await open(file, PRIVATE_APPEND_FLAGS, FILE_MODE);
  } catch (error) {
    if (isLinkRefusal(error)) refuseLink(file, 'file');
    throw error;
  }
  try {
    checkOpenedFile(handle.fd, file);
    await handle.appendFile(guardText(text), 'utf8');
  } finally {
    await handle.close();
  }
}

/**
 * Appends `text` and waits for it to reach the disk: what a person was shown as done (an incident
 * acknowledged) must survive the process being killed the next moment.
 */
export function appendPrivateFileDurablySync(file: string, text: string): void {
  const fd = openPrivateAppendSync(file);
  try {
    writeSync(fd, guardText(text));
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** Reads a file of ours as text; a link in its place fails (isLinkRefusal) rather than being read. */
export function readPrivateFileSync(file: string): string {
  const fd = openSync(file, PRIVATE_READ_FLAGS);
  try {
    return readFileSync(fd, 'utf8');
  } finally {
    closeSync(fd);
  }
}

const TAIL_CHUNK = 1 << 20;

/**
 * The newest lines of a journal of ours, oldest first, read from its end a chunk at a time until a
 * line `older` says comes before what is wanted: the last days of a year-long journal without
 * reading the year (and holding it in memory).
 */
export function readPrivateTailSync(file: string, older: (line: string) => boolean): string[] {
  const fd = openSync(file, PRIVATE_READ_FLAGS);
  try {
    const chunks: string[][] = [];
    let end = fstatSync(fd).size;
    let carry = Buffer.alloc(0);
    while (end > 0) {
      const start = Math.max(0, end - TAIL_CHUNK);
      const read = Buffer.alloc(end - start);
      readSync(fd, read, 0, read.length, start);
      const data = Buffer.concat([read, carry]);
      // The chunk's first line may begin in the chunk before: it goes with that one.
      const cut = start > 0 ? data.indexOf(10) + 1 : 0;
      end = start;
      carry = data.subarray(0, cut);
      if (start > 0 && cut === 0) {
        carry = data;
        continue;
      }
      const lines = data.subarray(cut).toString('utf8').split('\n').filter(Boolean);
      const first = lines.findLastIndex(older);
      chunks.unshift(lines.slice(first + 1));
      if (first >= 0) break;
    }
    return chunks.flat();
  } finally {
    closeSync(fd);
  }
}

/** The first `bytes` of a file of ours, as text. */
export function readPrivateHeadSync(file: string, bytes: number): string {
  const fd = openSync(file, PRIVATE_READ_FLAGS);
  try {
    const head = Buffer.alloc(bytes);
    return head.subarray(0, readSync(fd, head, 0, bytes, 0)).toString('utf8');
  } finally {
    closeSync(fd);
  }
}

/**
 * Creates `file` (0600) with `data`; fails if anything, a link included, has that name. Text is
 * written through the output guard; bytes (a PKCS#12 certificate) as they are.
 */
export function createPrivateFileSync(file: string, data: string | Buffer): void {
  let fd: number;
  try {
    fd = openSync(file, CREATE_NEW_FLAGS, FILE_MODE);
  } catch (error) {
    if (isLinkRefusal(error)) refuseLink(file, 'file');
    throw error;
  }
  try {
    fchmodSync(fd, FILE_MODE);
    if (typeof data === 'string') writeSync(fd, guardText(data));
    else writeSync(fd, data);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

export interface ReplaceOptions {
  /** Flush the file before it replaces the old one (default): what is shown as saved is on disk. */
  fsync?: boolean;
}

/**
 * The temp file beside the target: `<file>.<a number>`, the shape data-folder.ts sweeps when a
 * crash leaves one behind.
 */
const tempName = (file: string): string => `${file}.${randomInt(1, 2 ** 32)}`;

/**
 * Replaces `file` with `data` atomically (0600): a temp file made beside it (O_EXCL, so never
 * through a link), flushed, then renamed over the name. rename() replaces the name itself, a link
 * included, and never touches what a link pointed to; nothing here chmods or chowns by path.
 */
export function replacePrivateFileSync(file: string, data: string, options: ReplaceOptions = {}): void {
  for (let attempt = 0; ; attempt++) {
    const temp = tempName(file);
    let fd: number;
    try {
      fd = openSync(temp, CREATE_NEW_FLAGS, FILE_MODE);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST' && attempt < 5) continue;
      throw error;
    }
    try {
      try {
        fchmodSync(fd, FILE_MODE);
        writeSync(fd, guardText(data));
        if (options.fsync !== false) fsyncSync(fd);
      } finally {
        closeSync(fd);
      }
      renameSync(temp, file);
    } catch (error) {
      try {
        unlinkSync(temp);
      } catch {
        // already renamed or gone
      }
      throw error;
    }
    return;
  }
}

/** Writes to the same file queue here, so the last one asked for is the one that stays. */
const queues = new Map<string, Promise<void>>();

/** As replacePrivateFileSync, without blocking the thread on the disk. */
export function replacePrivateFile(file: string, data: string, options: ReplaceOptions = {}): Promise<void> {
  const before = queues.get(file) ?? Promise.resolve();
  const run = before.then(() => replaceOnce(file, data, options));
  const settled = run.catch(() => undefined);
  queues.set(file, settled);
  void settled.then(() => {
    if (queues.get(file) === settled) queues.delete(file);
  });
  return run;
}

async function replaceOnce(file: string, data: string, options: ReplaceOptions): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    const temp = tempName(file);
    let handle;
    try {
      handle = await open(temp, CREATE_NEW_FLAGS, FILE_MODE);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST' && attempt < 5) continue;
      throw error;
    }
    try {
      try {
        await handle.chmod(FILE_MODE);
        await handle.writeFile(guardText(data), 'utf8');
        if (options.fsync !== false) await handle.sync();
      } finally {
        await handle.close();
      }
      await rename(temp, file);
    } catch (error) {
      await unlink(temp).catch(() => undefined);
      throw error;
    }
    return;
  }
}

/**
 * The data folder itself, before anything is written in it: made 0700 if missing; otherwise
 * (POSIX) refused when another user owns it or others may write in it. It may be a link the user
 * made (to another disk, say): what it points to is checked, and the link must be theirs (or
 * root's) so that nobody else can point it elsewhere later. Its mode is never changed: the user
 * may have chosen and set up this folder.
 */
export function checkDataFolder(dataDir: string): void {
  mkdirSync(dataDir, { recursive: true, mode: FOLDER_MODE });
  if (!posix()) return;
  const uid = myUid();
  const link = lstatSync(dataDir);
  if (link.isSymbolicLink() && link.uid !== uid && link.uid !== 0) {
    throw new DataFolderError(
      dataDir,
      `The data folder ${dataDir} is a symbolic link that belongs to another user (uid ${link.uid}), ` +
        'who could point it elsewhere. Choose a data folder of your own with AGENT_CONSOLE_DATA_DIR.',
    );
  }
  const stats = statSync(dataDir);
  if (!stats.isDirectory()) {
    throw new DataFolderError(dataDir, `The data folder ${dataDir} is not a folder.`);
  }
  if (stats.uid !== uid) {
    throw new DataFolderError(
      dataDir,
      `The data folder ${dataDir} belongs to another user (uid ${stats.uid}), so Agent Console will ` +
        'not use it: that user could read and change your settings and conversations. Choose a ' +
        'folder of your own with AGENT_CONSOLE_DATA_DIR.',
    );
  }
  if ((stats.mode & 0o022) !== 0) {
    throw new DataFolderError(
      dataDir,
      `Other users can write in the data folder ${dataDir} (mode ${octal(stats.mode)}), so they could ` +
        `change or replace what Agent Console keeps there. Make it yours alone (chmod go-w "${dataDir}") ` +
        'or choose another folder with AGENT_CONSOLE_DATA_DIR.',
    );
  }
}
