// When the packaged app's core had opened, from its log file (electron/core/app-log.ts): the
// "Started" line's time, on this machine's clock, to compare with the stand-in's records (`at`).
// Used by the packaged-layout launch test and by `npm run bench`.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const STARTED = /^\[(\d+)-(\d+)-(\d+) (\d+):(\d+):(\d+)\.(\d+)\] \[info\]\s+Started: /m;

/** Epoch ms of the core's "Started" line in `dataDir`'s log, or undefined before there is one. */
export function coreStartedAt(dataDir: string): number | undefined {
  const log = join(dataDir, 'logs', 'agent-console.log');
  const match = existsSync(log) ? STARTED.exec(readFileSync(log, 'utf8')) : null;
  if (!match) return undefined;
  // electron-log writes this machine's local time, to the millisecond.
  const [y = 0, mo = 1, d = 1, h = 0, mi = 0, s = 0, ms = 0] = match.slice(1).map(Number);
  return new Date(y, mo - 1, d, h, mi, s, ms).getTime();
}
