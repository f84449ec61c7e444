// The recorded history's upkeep, as the bridge and the app use it (docs/architecture.md, "The
// history database"): how much is kept (settings.json `history`), applied shortly after start and
// then daily, oldest first; a profile's or one agent's history deleted on request; what the data
// folder holds, summed by folder, for Settings.
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { DataFolderSize, HistoryRetention } from '../../shared/transcript';
import type { SettingsStore } from './settings-store';
import type { TranscriptStore } from './transcript-store';

/** Not on the start's path: the first pass waits until the window is up and used. */
const FIRST_PASS_MS = 30_000;
const DAY_MS = 86_400_000;
const GB = 1_000_000_000;

interface HistoryHost {
  readonly dataDir: string;
  readonly settings: SettingsStore;
  readonly transcripts: TranscriptStore;
  /** Where a retention pass that failed is told. */
  readonly appLog: { warn(line: string): void };
}

/** Bytes of every file under `path` (a file, or a folder walked whole); 0 when it is not there. */
async function sizeOf(path: string): Promise<number> {
  const found = await stat(path).catch(() => undefined);
  if (!found) return 0;
  if (!found.isDirectory()) return found.size;
  const entries = await readdir(path, { withFileTypes: true }).catch(() => []);
  let bytes = 0;
  for (const entry of entries) if (!entry.isSymbolicLink()) bytes += await sizeOf(join(path, entry.name));
  return bytes;
}

export class CoreHistory {
  private first: NodeJS.Timeout | undefined;
  private daily: NodeJS.Timeout | undefined;

  constructor(private readonly host: HistoryHost) {}

  retention(): HistoryRetention {
    return this.host.settings.read().history ?? {};
  }

  /** Keeps history as `retention` says from now on, and applies it at once; resolves how many went. */
  async setRetention(retention: HistoryRetention): Promise<number> {
    this.host.settings.update((draft) => {
      draft.history = retention;
    });
    return this.apply();
  }

  /** Deletes what the retention setting no longer keeps; resolves how many conversations went. */
  async apply(): Promise<number> {
    const { keepDays, keepGb } = this.retention();
    if (keepDays === undefined && keepGb === undefined) return 0;
    return this.host.transcripts.prune({
      days: keepDays,
      bytes: keepGb === undefined ? undefined : Math.round(keepGb * GB),
    });
  }

  /** What the data folder holds: the history database, transcript files, test runs, monitors, logs. */
  async sizes(): Promise<DataFolderSize[]> {
    const { dataDir, transcripts } = this.host;
    const history = (
      await Promise.all(['', '-wal', '-shm'].map((end) => sizeOf(`${transcripts.file}${end}`)))
    ).reduce((a, b) => a + b, 0);
    const [historyFolder, testRuns, monitors, logs, all] = await Promise.all(
      [
        join(dataDir, 'transcripts'),
        join(dataDir, 'test-runs'),
        join(dataDir, 'monitors'),
        join(dataDir, 'logs'),
        dataDir,
      ].map(sizeOf),
    );
    return [
      { folder: 'history', bytes: history },
      { folder: 'transcripts', bytes: Math.max(0, (historyFolder as number) - history) },
      { folder: 'test-runs', bytes: testRuns as number },
      { folder: 'monitors', bytes: monitors as number },
      { folder: 'logs', bytes: logs as number },
      { folder: 'all', bytes: all as number },
    ];
  }

  /** Applies the retention setting shortly after start and then once a day, while the console runs. */
  schedule(): void {
    const pass = (): void =>
      void this.apply().catch((error: unknown) =>
        this.host.appLog.warn(
          `History: keeping it within the retention setting failed: ${(error as Error).message}`,
        ),
      );
    this.first = setTimeout(pass, FIRST_PASS_MS);
    this.daily = setInterval(pass, DAY_MS);
    this.first.unref();
    this.daily.unref();
  }

  close(): void {
    clearTimeout(this.first);
    clearInterval(this.daily);
  }
}
