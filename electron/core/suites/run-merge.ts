// `agent-console test merge`: the shards of one run (`--shard i/n` on n machines, each writing
// `--reporter json`) joined into the run they would have been in one place — suites in the whole
// run's order, cells in their cases' order, totals and status counted again — so JUnit, the
// reports and the run history see one run (docs/architecture.md, "Datasets and shards").
import { randomUUID } from 'node:crypto';
import type { KeptRun, RunWhat } from '../../../shared/run-history';
import type { AttemptResult, BrokenSuite, CellResult } from '../../../shared/suite-run';
import { CoreError } from '../core-error';
import { runTotals } from './suite-stats';

/** "2.10" after "2.9": a case key's numbers in order. */
function compareKeys(a: string, b: string): number {
  const x = a.split('.').map(Number);
  const y = b.split('.').map(Number);
  for (let i = 0; i < Math.max(x.length, y.length); i++) {
    const d = (x[i] ?? -1) - (y[i] ?? -1);
    if (d !== 0) return d;
  }
  return 0;
}

/** The shards must be one run's: the same count, each index once. Says what is wrong otherwise. */
function checkShards(runs: readonly KeptRun[]): string[] {
  const shards = runs.map((r, i) => {
    if (!r.shard) throw new CoreError('BAD_INPUT', `Results ${i + 1} is no shard (it ran without --shard).`);
    return r.shard;
  });
  const count = shards[0]?.count ?? 0;
  if (shards.some((s) => s.count !== count)) {
    throw new CoreError('BAD_INPUT', 'The shards are of different splits (their --shard i/n differ in n).');
  }
  const seen = new Set<number>();
  for (const s of shards) {
    if (seen.has(s.index)) throw new CoreError('BAD_INPUT', `Shard ${s.index}/${count} is given twice.`);
    seen.add(s.index);
  }
  const files = shards[0]?.files ?? [];
  if (shards.some((s) => s.files.join('\n') !== files.join('\n'))) {
    throw new CoreError('BAD_INPUT', 'The shards ran different suite files: they are not one run.');
  }
  return files;
}

/** Which shards are missing, for the caller to say ("shard 3/4 is missing"); none when all came. */
export function missingShards(runs: readonly KeptRun[]): number[] {
  const count = runs[0]?.shard?.count ?? 0;
  const have = new Set(runs.map((r) => r.shard?.index));
  return Array.from({ length: count }, (_, i) => i + 1).filter((i) => !have.has(i));
}

export function mergeRuns(runs: readonly KeptRun[]): KeptRun {
  if (runs.length === 0) throw new CoreError('BAD_INPUT', 'Name the shards’ results files to merge.');
  const files = checkShards(runs);
  const order = (file: string): number => {
    const at = files.indexOf(file);
    return at === -1 ? files.length : at;
  };
  const suites = new Map<string, { file: string; name: string; minKappa?: number; cells: CellResult[] }>();
  for (const run of runs) {
    for (const suite of run.suites) {
      const into = suites.get(suite.file) ?? {
        file: suite.file,
        name: suite.name,
        ...(suite.minKappa !== undefined ? { minKappa: suite.minKappa } : {}),
        cells: [],
      };
      into.cells.push(...suite.cells);
      suites.set(suite.file, into);
    }
  }
  const merged = [...suites.values()].sort((a, b) => order(a.file) - order(b.file));
  // A case ran in one shard with all its targets, in their order: a stable sort by case keeps it.
  for (const suite of merged) suite.cells.sort((a, b) => compareKeys(a.caseKey, b.caseKey));

  const broken = new Map<string, BrokenSuite>();
  for (const b of runs.flatMap((r) => r.broken ?? [])) broken.set(b.file, b);
  const attempts: AttemptResult[] = merged.flatMap((s) => s.cells.flatMap((c) => c.attempts));
  const totals = runTotals(attempts);
  const startedAt = Math.min(...runs.map((r) => r.startedAt));
  const endedAt = Math.max(...runs.map((r) => r.startedAt + r.durationMs));
  const profiles = new Map(runs.flatMap((r) => r.where.profiles).map((p) => [`${p.name}\n${p.host}`, p]));
  const what = new Map<string, RunWhat['files'][number]>();
  for (const f of runs.flatMap((r) => r.what.files)) if (!what.has(f.file)) what.set(f.file, f);
  return {
    runId: randomUUID(),
    status: runs.some((r) => r.status === 'cancelled')
      ? 'cancelled'
      : totals.failed > 0 || broken.size > 0
        ? 'failed'
        : 'passed',
    startedAt,
    durationMs: endedAt - startedAt,
    suites: merged,
    ...(broken.size > 0 ? { broken: [...broken.values()] } : {}),
    totals,
    rateLimited: runs.reduce((n, r) => n + r.rateLimited, 0),
    where: { profiles: [...profiles.values()] },
    what: { files: [...what.values()] },
  };
}
