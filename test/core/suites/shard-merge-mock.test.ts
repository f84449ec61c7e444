// A run split across machines: four `--shard i/4` runs of the same suites against the real mock,
// each kept with its shard, joined by `test merge` (run-merge.ts), equal one unsharded run case
// for case — the cells, their statuses, checks and replies, and the JUnit report, times aside.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import type { KeptRun } from '../../../shared/run-history';
import type { SuiteRunResult } from '../../../shared/suite-run';
import { junitReport } from '../../../electron/core/suites/junit-report';
import { mergeRuns, missingShards } from '../../../electron/core/suites/run-merge';
import { shardCases } from '../../../electron/core/suites/run-slice';
import { loadSuiteFile, type LoadedSuite } from '../../../electron/core/suites/suite-loader';
import { runSuites } from '../../../electron/core/suites/suite-runner';
import { suiteTargets } from '../../../electron/core/suites/suite-targets';
import { removeDir, tempDir } from '../../support/mock';
import { run as builtRun } from '../../support/run-builder';
import { suiteHarnessForFile } from '../../support/suite-harness';

const setup = suiteHarnessForFile();
const dir = tempDir('agent-console-shards-');
afterAll(() => removeDir(dir));

function write(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

async function suites(): Promise<LoadedSuite[]> {
  const rows = Array.from({ length: 9 }, (_, i) => `${4700 + i},${i % 5 === 0 ? 'refund' : 'order'}`);
  write('orders.csv', `order,word\n${rows.join('\n')}\n`);
  const orders = write(
    'orders.yaml',
    [
      'name: Orders',
      'targets: { agents: [echo, helpdesk] }',
      'defaults: { stream: false }',
      'cases:',
      '  - name: order',
      '    message: "{{word}} {{order}}"',
      '    vars-file: orders.csv',
      '    assert: [{ contains: refund }]', // fails for the rows that say "order": failures merge too
      '  - name: greets',
      '    message: hello',
      '    assert: [{ contains: hello }]',
    ].join('\n'),
  );
  const judged = write(
    'judged.yaml',
    [
      'name: Judged',
      'targets: { agents: [echo] }',
      'grader: { agent: grader }',
      'cases:',
      '  - name: issued',
      '    message: the refund was issued',
      '    assert: [{ judge: { rubric: \'Says "refund" "issued"\' } }]',
    ].join('\n'),
  );
  return [await loadSuiteFile(orders, {}), await loadSuiteFile(judged, {})];
}

async function run(loaded: LoadedSuite[], shard?: { index: number; count: number }): Promise<KeptRun> {
  const { harness } = setup;
  const picked = shard ? shardCases(loaded, shard.index, shard.count) : loaded;
  const result: SuiteRunResult = await runSuites(
    picked.map((suite) => ({
      suite,
      targets: suiteTargets(suite, { resolveProfile: () => harness.profile }),
    })),
    { exchange: harness.exchange, concurrency: 4 },
  );
  return {
    ...result,
    where: { profiles: [{ name: 'Mock', host: 'mock' }] },
    what: { files: picked.map((s) => ({ file: s.file, name: s.name })) },
    ...(shard ? { shard: { ...shard, files: loaded.map((s) => s.file) } } : {}),
  };
}

/** A run case for case, without what differs between any two runs (ids, times, session ids). */
function cases(result: SuiteRunResult): unknown {
  return result.suites.map((s) => ({
    file: s.file,
    cells: s.cells.map((c) => ({
      id: c.id,
      name: c.caseName,
      status: c.status,
      judgeScore: c.stats.judgeScore,
      attempts: c.attempts.map((a) => ({
        status: a.status,
        steps: a.steps.map((st) => ({ reply: st.reply, checks: st.checks })),
      })),
    })),
  }));
}

/** JUnit without what differs between any two runs: times, session and request ids. */
const timeless = (xml: string): string =>
  xml
    .replace(/ time(stamp)?="[^"]*"/g, '')
    .replace(/session suite[0-9a-f]+/g, 'session …')
    .replace(/first chunk \d+ ms, /g, '')
    .replace(/total \d+ ms, request req_\w+/g, 'total …');

test('four shards merged equal one unsharded run, case for case, and in JUnit', async () => {
  const loaded = await suites();
  const whole = await run(loaded);
  const shards = [];
  for (const index of [3, 1, 4, 2]) shards.push(await run(loaded, { index, count: 4 }));
  // Each shard ran a part, none all of it.
  expect(shards.map((s) => s.totals.attempts)).toEqual([5, 6, 4, 6]);
  const merged = mergeRuns(shards);
  expect(merged.totals).toEqual(whole.totals);
  expect(merged.status).toBe('failed');
  expect(cases(merged)).toEqual(cases(whole));
  expect(timeless(junitReport(merged))).toEqual(timeless(junitReport(whole)));
  expect(merged.shard).toBeUndefined();
});

test('a missing shard, a shard twice, or a run without --shard is said', () => {
  const run = (shard?: { index: number; count: number }): KeptRun => ({
    ...builtRun('r', {}),
    ...(shard ? { shard: { ...shard, files: ['a.yaml'] } } : {}),
  });
  expect(missingShards([run({ index: 1, count: 3 })])).toEqual([2, 3]);
  expect(() => mergeRuns([run({ index: 1, count: 2 }), run({ index: 1, count: 2 })])).toThrow(
    'Shard 1/2 is given twice.',
  );
  expect(() => mergeRuns([run({ index: 1, count: 2 }), run({ index: 2, count: 3 })])).toThrow(
    'The shards are of different splits',
  );
  expect(() => mergeRuns([run({ index: 1, count: 2 }), run()])).toThrow(
    'Results 2 is no shard (it ran without --shard).',
  );
});
