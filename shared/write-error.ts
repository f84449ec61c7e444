// A failed file write in words for the user: the disk failures people can fix (a full disk, a
// read-only or locked-down folder) named plainly, anything else as it came. Used by every write path
// that keeps its data in memory and retries.
const SQLITE_READONLY = 8;
const SQLITE_FULL = 13;

export function describeWriteError(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  // SQLite's result codes (the history database): the primary code is the low byte.
  const sqlite = ((error as { errcode?: unknown } | undefined)?.errcode as number | undefined) ?? -1;
  if ((sqlite & 0xff) === SQLITE_FULL) return 'the disk is full';
  if ((sqlite & 0xff) === SQLITE_READONLY) return 'the database is read-only';
  if (code === 'ENOSPC' || code === 'EDQUOT') return 'the disk is full';
  if (code === 'EROFS') return 'the folder is on a read-only file system';
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied';
  if (code === 'ENOTDIR' || code === 'ENOENT') return 'the folder is missing or not a folder';
  return error instanceof Error ? error.message : String(error);
}
