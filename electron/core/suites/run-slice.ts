// Which of a run's expanded cases this process sends (docs/architecture.md, "Datasets and
// shards"): `--sample N --seed S`, a reproducible sample of them, and `--shard i/n`, the i-th of n
// deterministic slices, so n machines (a CI matrix) share one run and `test merge` joins them.
// Both keep the cases' order and take nothing from the files but the cases they name.
import { seededRandom } from '../../../shared/seeded-random';
import type { LoadedSuite } from './suite-loader';

/** Each suite with only the cases `keep` picks by their position in the whole run; empty suites dropped. */
function pick(suites: readonly LoadedSuite[], keep: (position: number) => boolean): LoadedSuite[] {
  let position = 0;
  return suites
    .map((suite) => ({ ...suite, cases: suite.cases.filter(() => keep(position++)) }))
    .filter((suite) => suite.cases.length > 0);
}

function caseCount(suites: readonly LoadedSuite[]): number {
  return suites.reduce((n, s) => n + s.cases.length, 0);
}

/**
 * `size` of the run's cases, chosen by `seed` (a partial Fisher–Yates shuffle of their positions):
 * the same files, size and seed give the same cases on every machine. All of them when there are
 * no more than `size`.
 */
export function sampleCases(suites: readonly LoadedSuite[], size: number, seed: number): LoadedSuite[] {
  const total = caseCount(suites);
  if (size >= total) return [...suites];
  const random = seededRandom(seed);
  const positions = Array.from({ length: total }, (_, i) => i);
  for (let i = 0; i < size; i++) {
    const j = i + Math.floor(random() * (total - i));
    [positions[i], positions[j]] = [positions[j] as number, positions[i] as number];
  }
  const chosen = new Set(positions.slice(0, size));
  return pick(suites, (p) => chosen.has(p));
}

/** Shard `index` (1-based) of `count`: every count-th case from the index-th, so shards stay even. */
export function shardCases(suites: readonly LoadedSuite[], index: number, count: number): LoadedSuite[] {
  return pick(suites, (p) => p % count === index - 1);
}

/** `--shard i/n` read: 1 ≤ i ≤ n; undefined when it does not say that. */
export function parseShard(spec: string): { index: number; count: number } | undefined {
  const match = /^(\d+)\/(\d+)$/.exec(spec.trim());
  if (!match) return undefined;
  const index = Number(match[1]);
  const count = Number(match[2]);
  return index >= 1 && count >= 1 && index <= count && count <= 1000 ? { index, count } : undefined;
}
