// Suite runs kept on disk (docs/architecture.md, "Run history and diffs"): a whole run — every
// suite file it ran — is one file under <data dir>/test-runs/, `<started at>-<run id>.json`, with a
// small `.summary.json` beside it so a listing reads no replies. Bounded by count and by age
// (settings.json `testRuns`, or the CLI's flags). Written atomically, so a kill leaves the previous
// file whole; a file that does not parse is skipped, never the reason a list fails.
//
// Runs kept before whole runs were kept (a folder per suite file, a file per suite per run) are
// joined back into whole runs by their run id the first time the store is opened, and the old
// folders removed.
import { readdir, readFile, rm, stat } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import type { KeptRun, RunListItem, RunRetention } from '../../../shared/run-history';
import type { StoredSuiteRun } from '../../../shared/suite-folder';
import type { CellResult, SuiteRunResult } from '../../../shared/suite-run';
import { ensurePrivateDir, replacePrivateFile } from '../private-files';

export const DEFAULT_RETENTION: RunRetention = { keep: 200, maxAgeDays: 90 };

const DAY_MS = 24 * 60 * 60 * 1000;
const SUMMARY = '.summary.json';
/** A kept run bigger than this is not read back (the data folder is ours, but a reply may be huge). */
const MAX_RUN_BYTES = 512 * 1024 * 1024;

const nameOf = (run: Pick<KeptRun, 'startedAt' | 'runId'>): string =>
  `${String(run.startedAt).padStart(15, '0')}-${run.runId}`;

function listItem(run: KeptRun): RunListItem {
  const { runId, startedAt, durationMs, status, totals, where, what } = run;
  return { runId, startedAt, durationMs, status, totals, where, what };
}

/** One suite's part of a kept run, as the Tests screen reads it. */
function suitePart(run: SuiteRunResult, file: string): StoredSuiteRun | undefined {
  const suite = run.suites.find((s) => resolve(s.file) === resolve(file));
  if (!suite) return undefined;
  const failed = suite.cells.some((c) => c.status === 'failed');
  return {
    runId: run.runId,
    file: suite.file,
    name: suite.name,
    startedAt: run.startedAt,
    status: failed ? 'failed' : run.status === 'cancelled' ? 'cancelled' : 'passed',
    cells: suite.cells,
  };
}

export class RunStore {
  private migrated: Promise<void> | undefined;

  constructor(
    private readonly dir: string,
    private readonly retention: () => RunRetention = () => DEFAULT_RETENTION,
    private readonly now: () => number = Date.now,
  ) {}

  /** Keeps a finished run; drops the runs past the bounds. */
  async save(run: KeptRun, bounds: Partial<RunRetention> = {}): Promise<void> {
    await this.migrate();
    // Replies of the agents under test: the user's, like transcripts.
    await ensurePrivateDir(this.dir, dirname(this.dir));
    const name = nameOf(run);
    await replacePrivateFile(join(this.dir, `${name}.json`), JSON.stringify(run));
    await replacePrivateFile(join(this.dir, `${name}${SUMMARY}`), JSON.stringify(listItem(run)));
    await this.prune(bounds);
  }

  /** Every kept run, newest first. */
  async list(): Promise<RunListItem[]> {
    await this.migrate();
    const items: RunListItem[] = [];
    for (const name of await this.names()) {
      const item = await this.readJson<RunListItem>(`${name}${SUMMARY}`);
      if (item && typeof item.runId === 'string' && Array.isArray(item.what?.files)) items.push(item);
    }
    return items;
  }

  async get(runId: string): Promise<KeptRun | undefined> {
    await this.migrate();
    const name = (await this.names()).find((n) => n.endsWith(`-${runId}`));
    return name ? this.readRun(name) : undefined;
  }

  /** The newest kept run that `matches`, older than `before` when given. */
  async newest(matches: (item: RunListItem) => boolean, before?: string): Promise<KeptRun | undefined> {
    const items = await this.list();
    const at = before ? items.findIndex((i) => i.runId === before) : -1;
    for (const item of items.slice(at + 1)) {
      if (!matches(item)) continue;
      const run = await this.get(item.runId);
      if (run) return run;
    }
    return undefined;
  }

  /** One suite file's part of each kept run that ran it, newest first. */
  async suiteRuns(file: string): Promise<StoredSuiteRun[]> {
    const parts: StoredSuiteRun[] = [];
    for (const item of await this.list()) {
      if (!ranFile(item, file)) continue;
      const run = await this.get(item.runId);
      const part = run && suitePart(run, file);
      if (part) parts.push(part);
    }
    return parts;
  }

  async suiteRun(file: string, runId: string): Promise<StoredSuiteRun | undefined> {
    const run = await this.get(runId);
    return run && suitePart(run, file);
  }

  /** The newest kept run of the suite before `runId` (or the newest, without it), its part. */
  async previousSuiteRun(file: string, runId?: string): Promise<StoredSuiteRun | undefined> {
    const run = await this.newest((item) => ranFile(item, file), runId);
    return run && suitePart(run, file);
  }

  private async prune(bounds: Partial<RunRetention> = {}): Promise<void> {
    const { keep, maxAgeDays } = { ...this.retention(), ...bounds };
    const oldest = this.now() - maxAgeDays * DAY_MS;
    const names = await this.names();
    for (const [index, name] of names.entries()) {
      const startedAt = Number(name.slice(0, 15));
      if (index < keep && startedAt >= oldest) continue;
      await rm(join(this.dir, `${name}.json`), { force: true });
      await rm(join(this.dir, `${name}${SUMMARY}`), { force: true });
    }
  }

  /** Run files' names without `.json`, newest first. */
  private async names(): Promise<string[]> {
    const entries = await readdir(this.dir).catch(() => [] as string[]);
    return entries
      .filter((n) => n.endsWith('.json') && !n.endsWith(SUMMARY))
      .map((n) => n.slice(0, -'.json'.length))
      .sort()
      .reverse();
  }

  private async readRun(name: string): Promise<KeptRun | undefined> {
    const run = await this.readJson<KeptRun>(`${name}.json`);
    return run && Array.isArray(run.suites) ? run : undefined;
  }

  private async readJson<T>(file: string): Promise<T | undefined> {
    try {
      const path = join(this.dir, file);
      if ((await stat(path)).size > MAX_RUN_BYTES) return undefined;
      return JSON.parse(await readFile(path, 'utf8')) as T;
    } catch {
      return undefined;
    }
  }

  private migrate(): Promise<void> {
    return (this.migrated ??= this.joinSuiteFolders());
  }

  /** The old layout, a folder per suite file: its parts joined into whole runs by run id. */
  private async joinSuiteFolders(): Promise<void> {
    const entries = await readdir(this.dir, { withFileTypes: true }).catch(() => []);
    const folders = entries.filter((e) => e.isDirectory() && /^[0-9a-f]{24}$/.test(e.name));
    if (folders.length === 0) return;
    const parts = new Map<string, StoredSuiteRun[]>();
    for (const folder of folders) {
      for (const file of await readdir(join(this.dir, folder.name)).catch(() => [] as string[])) {
        const part = await this.readJson<StoredSuiteRun>(join(folder.name, file));
        if (!part || typeof part.runId !== 'string' || !Array.isArray(part.cells)) continue;
        parts.set(part.runId, [...(parts.get(part.runId) ?? []), part]);
      }
    }
    await ensurePrivateDir(this.dir, dirname(this.dir));
    for (const [runId, suites] of parts) {
      const run = joinedRun(runId, suites);
      const name = nameOf(run);
      await replacePrivateFile(join(this.dir, `${name}.json`), JSON.stringify(run));
      await replacePrivateFile(join(this.dir, `${name}${SUMMARY}`), JSON.stringify(listItem(run)));
    }
    for (const folder of folders) await rm(join(this.dir, folder.name), { recursive: true, force: true });
    await this.prune();
  }
}

const ranFile = (item: RunListItem, file: string): boolean =>
  item.what.files.some((f) => resolve(f.file) === resolve(file));

/** A whole run from its suites' parts as the old layout kept them: where is known by name only. */
function joinedRun(runId: string, parts: StoredSuiteRun[]): KeptRun {
  const cells: CellResult[] = parts.flatMap((p) => p.cells);
  const attempts = cells.flatMap((c) => c.attempts);
  const count = (status: string): number => attempts.filter((a) => a.status === status).length;
  const profiles = [...new Set(cells.map((c) => c.target.profileName))];
  return {
    runId,
    status: parts.some((p) => p.status === 'failed')
      ? 'failed'
      : parts.some((p) => p.status === 'cancelled')
        ? 'cancelled'
        : 'passed',
    startedAt: Math.min(...parts.map((p) => p.startedAt)),
    durationMs: 0,
    suites: parts.map((p) => ({ file: p.file, name: p.name, cells: p.cells })),
    totals: {
      attempts: attempts.length,
      passed: count('passed'),
      failed: count('failed'),
      cancelled: count('cancelled'),
      skipped: count('skipped'),
    },
    rateLimited: 0,
    where: { profiles: profiles.map((name) => ({ name, host: '' })) },
    what: { files: parts.map((p) => ({ file: p.file, name: p.name })) },
  };
}
