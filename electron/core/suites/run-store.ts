// Suite runs kept on disk, bounded: one JSON file per suite per run under <data dir>/test-runs/,
// a folder per suite file, the newest KEEP_PER_SUITE kept. Written atomically, so a kill leaves
// the previous file whole; a file that does not parse is skipped, never the reason a list fails.
import { createHash } from 'node:crypto';
import { readdir, readFile, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { StoredSuiteRun, SuiteRunSummary } from '../../../shared/suite-folder';
import type { SuiteRunResult } from '../../../shared/suite-run';
import { ensurePrivateDir, replacePrivateFile } from '../private-files';

const KEEP_PER_SUITE = 20;

const folderOf = (file: string): string => createHash('sha256').update(file).digest('hex').slice(0, 24);

export class RunStore {
  constructor(
    private readonly dir: string,
    private readonly keep = KEEP_PER_SUITE,
  ) {}

  /** Keeps each suite's part of a finished run; drops the oldest past the bound. */
  async save(result: SuiteRunResult): Promise<void> {
    for (const suite of result.suites) {
      const stored: StoredSuiteRun = {
        runId: result.runId,
        file: suite.file,
        name: suite.name,
        startedAt: result.startedAt,
        status: suite.cells.some((c) => c.status === 'failed')
          ? 'failed'
          : result.status === 'cancelled'
            ? 'cancelled'
            : 'passed',
        cells: suite.cells,
      };
      const dir = join(this.dir, folderOf(suite.file));
      // Replies of the agents under test: the user's, like transcripts.
      await ensurePrivateDir(dir, dirname(this.dir));
      const name = `${String(result.startedAt).padStart(15, '0')}-${result.runId}.json`;
      await replacePrivateFile(join(dir, name), JSON.stringify(stored));
      const names = await this.names(suite.file);
      for (const old of names.slice(this.keep)) await rm(join(dir, old), { force: true });
    }
  }

  /** The suite's kept runs, newest first. */
  async list(file: string): Promise<StoredSuiteRun[]> {
    const runs: StoredSuiteRun[] = [];
    for (const name of await this.names(file)) {
      const run = await this.read(file, name);
      if (run) runs.push(run);
    }
    return runs;
  }

  async summaries(file: string): Promise<SuiteRunSummary[]> {
    return (await this.list(file)).map((run) => ({
      runId: run.runId,
      startedAt: run.startedAt,
      status: run.status,
      passed: run.cells.filter((c) => c.status === 'passed').length,
      failed: run.cells.filter((c) => c.status === 'failed').length,
    }));
  }

  async get(file: string, runId: string): Promise<StoredSuiteRun | undefined> {
    const name = (await this.names(file)).find((n) => n.endsWith(`-${runId}.json`));
    return name ? this.read(file, name) : undefined;
  }

  /** The newest kept run of the suite before `runId` (or the newest, without it). */
  async previous(file: string, runId?: string): Promise<StoredSuiteRun | undefined> {
    const names = await this.names(file);
    const at = runId ? names.findIndex((n) => n.endsWith(`-${runId}.json`)) : -1;
    for (const name of names.slice(at + 1)) {
      const run = await this.read(file, name);
      if (run) return run;
    }
    return undefined;
  }

  private async names(file: string): Promise<string[]> {
    const entries = await readdir(join(this.dir, folderOf(file))).catch(() => [] as string[]);
    return entries
      .filter((n) => n.endsWith('.json'))
      .sort()
      .reverse();
  }

  private async read(file: string, name: string): Promise<StoredSuiteRun | undefined> {
    try {
      const run = JSON.parse(await readFile(join(this.dir, folderOf(file), name), 'utf8')) as StoredSuiteRun;
      return run.file === file && Array.isArray(run.cells) ? run : undefined;
    } catch {
      return undefined;
    }
  }
}
