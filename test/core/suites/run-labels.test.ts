// Labels given on the Tests screen (suites:label) are written into the kept run: a store opened
// again on the same folder — the app after a restart — reads them back and calibrates with them.
import { afterAll, expect, test } from 'vitest';
import { labelAttempt, runCalibration } from '../../../electron/core/suites/run-labels';
import { RunStore } from '../../../electron/core/suites/run-store';
import { removeDir, tempDir } from '../../support/mock';
import { cell, run as builtRun } from '../../support/run-builder';

const dir = tempDir('agent-console-run-labels-');
afterAll(() => removeDir(dir));

const retention = () => ({ keep: 200, maxAgeDays: 90 });

test('a label is kept with the run, replaces the attempt’s earlier one, and refuses an unjudged attempt', async () => {
  const judged = (name: string, passed: boolean) =>
    cell(name, [{ passed, reply: `reply ${name}`, verdict: { agent: 'grader', reason: 'r' } }]);
  const [one, two, three] = [judged('1', true), judged('2', false), cell('3', [{ passed: true }])];
  const run = builtRun('00000000-0000-4000-8000-000000000001', {
    'j.yaml': [one, two, three],
  });
  // Kept now, so the store's age bound keeps it.
  run.startedAt = Date.now();
  await new RunStore(dir, retention).save(run);
  const store = new RunStore(dir, retention);
  expect(await runCalibration(store, run.runId)).toMatchObject({ judgedAttempts: 2, labels: [], judges: [] });
  await labelAttempt(store, run.runId, { cellId: one.id, repeat: 1, label: 'pass' });
  await labelAttempt(store, run.runId, {
    cellId: one.id,
    repeat: 1,
    label: 'fail',
    note: 'rude',
  });
  await labelAttempt(store, run.runId, { cellId: two.id, repeat: 1, label: 'fail' });
  await expect(
    labelAttempt(store, run.runId, { cellId: three.id, repeat: 1, label: 'pass' }),
  ).rejects.toThrow('The run has no judged attempt 1 of that cell to label.');

  // "After a restart": another store on the same folder.
  const again = await runCalibration(new RunStore(dir, retention), run.runId);
  expect(again?.labels).toEqual([
    { cellId: one.id, repeat: 1, label: 'fail', note: 'rude' },
    { cellId: two.id, repeat: 1, label: 'fail' },
  ]);
  expect(again?.judges[0]).toMatchObject({
    labelled: 2,
    confusion: { passPass: 0, passFail: 0, failPass: 1, failFail: 1 },
    disagreements: [{ caseName: '1', human: 'fail', judge: 'pass', note: 'rude' }],
  });
});
