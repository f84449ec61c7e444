// A failed file write in words for the user: the disk failures people can fix (a full disk, a
// read-only or locked-down folder) named plainly, anything else as it came. Used by every write path
// that keeps its data in memory and retries.
export function describeWriteError(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'ENOSPC' || code === 'EDQUOT') return 'the disk is full';
  if (code === 'EROFS') return 'the folder is on a read-only file system';
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied';
  if (code === 'ENOTDIR' || code === 'ENOENT') return 'the folder is missing or not a folder';
  return error instanceof Error ? error.message : String(error);
}
