// The console's own log: a rotating file in the data folder (electron-log's file
// transport, 1 MB then one archive), with anything key-shaped masked before it is written, and
// the last lines on hand for "Copy diagnostics".
import { closeSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import log from 'electron-log/node';
import { ensurePrivateDirSync, openPrivateAppendSync, PRIVATE_APPEND_FLAGS } from './private-files';
import { redactSecrets } from './redact';

export const LOG_MAX_BYTES = 1024 * 1024;

export interface AppLog {
  readonly path: string;
  info(...parts: unknown[]): void;
  warn(...parts: unknown[]): void;
  error(...parts: unknown[]): void;
  /** The last `lines` lines of the current file. */
  tail(lines: number): string[];
  /**
   * Nothing more is written: a request still failing after the core closed (a retry under way) must
   * not write into a data folder that may be gone by then (the tests remove theirs).
   */
  close(): void;
}

function text(part: unknown): string {
  if (part instanceof Error) return part.message;
  if (typeof part === 'string') return part;
  try {
    return JSON.stringify(part);
  } catch {
    return String(part);
  }
}

export function openAppLog(dataDir: string, options: { echo?: boolean } = {}): AppLog {
  const path = join(dataDir, 'logs', 'agent-console.log');
  // logs/ (0700) and the file (0600) made or checked here, never through a link: electron-log
  // would make the folder with the umask's 0755, and its first open of the file uses its own 'a'
  // flag, which follows one. A link in either place is refused in words.
  ensurePrivateDirSync(dirname(path), dataDir);
  closeSync(openPrivateAppendSync(path));
  const logger = log.create({ logId: `agent-console:${dataDir}` });
  logger.transports.file.resolvePathFn = () => path;
  logger.transports.file.maxSize = LOG_MAX_BYTES;
  // Readable by the user only, like settings.json; every later open (each line, the new file after
  // rotation) with O_NOFOLLOW. Rotation renames the file, which moves a name, never a link's target.
  // (Its types list fopen's letters only; it hands the flag to fs.writeFileSync, which takes open(2)'s.)
  const flag = PRIVATE_APPEND_FLAGS as unknown as 'a';
  logger.transports.file.writeOptions = { flag, mode: 0o600, encoding: 'utf8' };
  logger.transports.file.level = 'info';
  logger.transports.console.level = options.echo ? 'warn' : false;
  // Errors become their message and objects their JSON, then everything passes the key mask.
  logger.hooks.push((message) => ({
    ...message,
    data: message.data.map((part) => redactSecrets(text(part))),
  }));
  return {
    path,
    info: (...parts) => logger.info(...parts),
    warn: (...parts) => logger.warn(...parts),
    error: (...parts) => logger.error(...parts),
    tail(lines) {
      try {
        return readFileSync(path, 'utf8').trimEnd().split('\n').slice(-lines);
      } catch {
        return [];
      }
    },
    close() {
      logger.transports.file.level = false;
    },
  };
}
