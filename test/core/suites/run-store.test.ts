// The run history on disk: bounded by count and by age, runs kept the old way (a folder per suite
// file) joined back into whole runs, a results file of another machine read as hostile input, and
// the git commit of a suite's folder — or none, without an error.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { gitCommit } from '../../../electron/core/suites/run-context';
import { MAX_RESULTS_BYTES, readResultsFile } from '../../../electron/core/suites/run-results-file';
import { RunStore } from '../../../electron/core/suites/run-store';
import { cell, run } from '../../support/run-builder';
import { removeDir, tempDir } from '../../support/mock';

let dir: string;
beforeEach(() => {
  dir = tempDir('agent-console-run-store-');
});
afterEach(() => removeDir(dir));

const DAY = 24 * 60 * 60 * 1000;

describe('bounds', () => {
  test('runs older than the age bound go at the next save, whatever the count', async () => {
    const now = Date.UTC(2026, 10, 28);
    const store = new RunStore(
      join(dir, 'test-runs'),
      () => ({ keep: 100, maxAgeDays: 30 }),
      () => now,
    );
    for (const [id, age] of [
      ['old', 31],
      ['recent', 29],
      ['today', 0],
    ] as const) {
      await store.save({ ...run(id, { 'a.yaml': [cell('x', [{}])] }), startedAt: now - age * DAY });
    }
    expect((await store.list()).map((r) => r.runId)).toEqual(['today', 'recent']);
    // A flag's bound for one run overrides the settings'.
    await store.save({ ...run('now', { 'a.yaml': [cell('x', [{}])] }), startedAt: now + 1 }, { keep: 1 });
    expect((await store.list()).map((r) => r.runId)).toEqual(['now']);
  });

  test('a file that does not parse is skipped, never the reason a list fails', async () => {
    const store = new RunStore(dir);
    await store.save(run('good', { 'a.yaml': [cell('x', [{}])] }));
    writeFileSync(join(dir, '000000000000001-bad.json'), '{ not json');
    writeFileSync(join(dir, '000000000000001-bad.summary.json'), '{ not json');
    expect((await store.list()).map((r) => r.runId)).toEqual(['good']);
    expect(await store.get('bad')).toBeUndefined();
  });
});

test('runs kept a folder per suite file are joined into whole runs by run id, and the folders removed', async () => {
  const part = (folder: string, file: string, runId: string, startedAt: number, passed: boolean) => {
    mkdirSync(join(dir, folder), { recursive: true });
    writeFileSync(
      join(dir, folder, `${String(startedAt).padStart(15, '0')}-${runId}.json`),
      JSON.stringify({
        runId,
        file,
        name: file,
        startedAt,
        status: passed ? 'passed' : 'failed',
        cells: [cell(`${file} case`, [{ passed }])],
      }),
    );
  };
  const now = Date.now();
  part('a'.repeat(24), '/s/a.yaml', 'r1', now - 2000, true);
  part('b'.repeat(24), '/s/b.yaml', 'r1', now - 2000, false);
  part('a'.repeat(24), '/s/a.yaml', 'r2', now - 1000, true);
  const store = new RunStore(dir);
  const runs = await store.list();
  expect(runs.map((r) => [r.runId, r.status, r.what.files.map((f) => f.file)])).toEqual([
    ['r2', 'passed', ['/s/a.yaml']],
    ['r1', 'failed', ['/s/a.yaml', '/s/b.yaml']],
  ]);
  expect(runs[1]?.totals).toMatchObject({ attempts: 2, passed: 1, failed: 1 });
  expect(runs[1]?.where.profiles).toEqual([{ name: 'Embedded mock', host: '' }]);
  expect((await store.get('r1'))?.suites.map((s) => s.cells[0]?.caseName)).toEqual([
    '/s/a.yaml case',
    '/s/b.yaml case',
  ]);
  expect(readdirSync(dir).filter((n) => !n.endsWith('.json'))).toEqual([]);
  expect((await store.previousSuiteRun('/s/a.yaml', 'r2'))?.runId).toBe('r1');
});

describe('a results file from elsewhere', () => {
  test('a bare SuiteRunResult (no where, no what) is read', async () => {
    const file = join(dir, 'results.json');
    const { where: _where, what: _what, ...bare } = run('ci-1', { 'a.yaml': [cell('x', [{}])] });
    writeFileSync(file, JSON.stringify(bare));
    const read = await readResultsFile(file);
    expect(read).toMatchObject({ runId: 'ci-1', where: { profiles: [] }, what: { files: [] } });
  });

  test('one past the size cap is refused unread; a wrong shape says where', async () => {
    const big = join(dir, 'big.json');
    writeFileSync(big, '');
    truncateSync(big, MAX_RESULTS_BYTES + 1);
    await expect(readResultsFile(big)).rejects.toThrow(/may be up to/);
    const wrong = join(dir, 'wrong.json');
    writeFileSync(
      wrong,
      JSON.stringify({ runId: 'x', status: 'passed', startedAt: 1, suites: [{ file: 1 }] }),
    );
    await expect(readResultsFile(wrong)).rejects.toThrow(/not a results file.*suites\.0\.file/);
    const deep = join(dir, 'deep.json');
    writeFileSync(deep, `${'['.repeat(100_000)}${']'.repeat(100_000)}`);
    await expect(readResultsFile(deep)).rejects.toThrow(/not a results file/);
  });
});

describe('the git commit of a suite folder', () => {
  test('a checkout has its HEAD; a plain folder has none, and that is no error', async () => {
    const repo = join(dir, 'repo');
    mkdirSync(repo);
    const git = (...args: string[]) =>
      execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], { cwd: repo })
        .toString()
        .trim();
    git('init', '-q');
    writeFileSync(join(repo, 'a.yaml'), 'name: A\n');
    git('add', '.');
    git('commit', '-qm', 'a suite');
    expect(await gitCommit(repo)).toBe(git('rev-parse', 'HEAD'));
    const plain = join(dir, 'plain');
    mkdirSync(plain);
    expect(await gitCommit(plain)).toBeUndefined();
    expect(await gitCommit(join(dir, 'missing'))).toBeUndefined();
  });
});
