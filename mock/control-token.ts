// The control path's token. Loopback is not a boundary on a machine with other users: any of them
// could create an ultra key or take `api` down. So /__control answers only a request that carries
// `Authorization: Bearer <token>`, the token made once per data folder and kept beside the mock's
// state, readable by the user only; whoever drives the mock (the CLI, scripts, tests) reads it
// there or from the `controlToken` that `npm run mock` prints (docs/security.md, "The mock's
// control path").
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import {
  closeSync,
  constants,
  fstatSync,
  fsyncSync,
  openSync,
  readFileSync,
  rmSync,
  writeSync,
} from 'node:fs';
import { join } from 'node:path';

const CONTROL_TOKEN_FILE = 'control-token';

/** 32 random bytes in base64url: 43 characters. */
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;
const NOFOLLOW = constants.O_NOFOLLOW ?? 0;

/**
 * The token in `dataDir`, if it is one this user alone can read (POSIX): a regular file, theirs,
 * mode 0600 or tighter, holding a token's shape. Opened without following a link.
 */
function readValid(file: string): { token?: string; why?: string } {
  let fd: number;
  try {
    fd = openSync(file, constants.O_RDONLY | NOFOLLOW);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return {};
    if (code === 'ELOOP' || code === 'EMLINK') return { why: 'it was a symbolic link' };
    throw error;
  }
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile()) return { why: 'it was not a regular file' };
    if (process.platform !== 'win32') {
      if (stats.uid !== process.getuid?.()) return { why: `it belonged to another user (uid ${stats.uid})` };
      if ((stats.mode & 0o077) !== 0) return { why: 'other users could read it' };
    }
    const token = readFileSync(fd, 'utf8').trim();
    return TOKEN_SHAPE.test(token) ? { token } : { why: 'it did not hold a token' };
  } finally {
    closeSync(fd);
  }
}

/**
 * The mock's control token, made on its first start in this data folder and kept from then on:
 * a valid one is never overwritten. One that is not valid (other users could read it, a link, not
 * a token) is replaced by a new one, and `onWarning` says so. Created with O_EXCL (never through a
 * link, never over a file another process has just made). The caller holds the folder's state
 * lock, so no other mock makes one here meanwhile.
 */
export function loadOrCreateControlToken(dataDir: string, onWarning?: (message: string) => void): string {
  const file = join(dataDir, CONTROL_TOKEN_FILE);
  const found = readValid(file);
  if (found.token) return found.token;
  if (found.why) {
    // Removed, not written through: a link goes, what it points to stays. (A folder by that name
    // is not removed: rmSync refuses it, and the mock says so as it fails to start.)
    rmSync(file, { force: true });
    onWarning?.(`The mock's control token at ${file} was replaced by a new one: ${found.why}.`);
  }
  const token = randomBytes(32).toString('base64url');
  const fd = openSync(file, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | NOFOLLOW, 0o600);
  try {
    writeSync(fd, `${token}\n`);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  return token;
}

/** The control token of the mock on `dataDir`, for a client of its control path; undefined if none. */
export function readControlToken(dataDir: string): string | undefined {
  try {
    return readValid(join(dataDir, CONTROL_TOKEN_FILE)).token;
  } catch {
    return undefined;
  }
}

const digest = (text: string): Buffer => createHash('sha256').update(text).digest();

/** Whether an Authorization header carries `token` as its bearer; compared in constant time. */
export function carriesControlToken(header: string | undefined, token: string): boolean {
  if (header === undefined) return false;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  if (!match?.[1]) return false;
  return timingSafeEqual(digest(match[1]), digest(token));
}
