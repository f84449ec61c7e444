// Labels given on the Tests screen (suites:label) are written into the kept run: a store opened
// again on the same folder — the app after a restart — reads them back and calibrates with them.
import { afterAll, expect, test } from 'vitest';
import type { KeptRun } from '../../../shared/run-history';
import type { CellResult } from '../../../shared/suite-run';
import { labelAttempt, runCalibration } from '../../../electron/core/suites/run-labels';
import { RunStore } from '../../../electron/core/suites/run-store';
import { removeDir, tempDir } from '../../support/mock';

const dir = tempDir('agent-console-run-labels-');
afterAll(() => removeDir(dir));

const retention = () => ({ keep: 200, maxAgeDays: 90 });

function cell(name: string, judged: boolean, passed: boolean): CellResult {
  return {
    id: `j.yaml#${name}@mock/echo`,
    caseKey: name,
    caseName: name,
    caseLine: 5,
    target: { key: 'mock/echo', profileId: 'mock', profileName: 'Mock', agent: 'echo' },
    status: passed ? 'passed' : 'failed',
    stats: { runs: 1, passed: passed ? 1 : 0, flaky: false },
    attempts: [
      {
        repeat: 1,
        status: passed ? 'passed' : 'failed',
        startedAt: Date.now(),
        durationMs: 1,
        steps: [
          {
            index: 0,
            line: 6,
            message: 'hi',
            state: 'done',
            streamed: false,
            status: 200,
            reply: `reply ${name}`,
            chunks: 0,
            frames: [],
            framesDropped: 0,
            rateLimited: 0,
            checks: [
              judged
                ? {
                    kind: 'judge',
                    line: 9,
                    passed,
                    expected: 'e',
                    actual: 'a',
                    verdict: { agent: 'grader', reason: 'r' },
                  }
                : { kind: 'contains', line: 9, passed, expected: 'e', actual: 'a' },
            ],
          },
        ],
      },
    ],
  };
}

test('a label is kept with the run, replaces the attempt’s earlier one, and refuses an unjudged attempt', async () => {
  const run: KeptRun = {
    runId: '00000000-0000-4000-8000-000000000001',
    status: 'passed',
    startedAt: Date.now(),
    durationMs: 5,
    suites: [
      {
        file: 'j.yaml',
        name: 'J',
        cells: [cell('1', true, true), cell('2', true, false), cell('3', false, true)],
      },
    ],
    totals: { attempts: 3, passed: 2, failed: 1, cancelled: 0, skipped: 0 },
    rateLimited: 0,
    where: { profiles: [] },
    what: { files: [] },
  };
  await new RunStore(dir, retention).save(run);
  const store = new RunStore(dir, retention);
  expect(await runCalibration(store, run.runId)).toMatchObject({ judgedAttempts: 2, labels: [], judges: [] });
  await labelAttempt(store, run.runId, { cellId: 'j.yaml#1@mock/echo', repeat: 1, label: 'pass' });
  await labelAttempt(store, run.runId, {
    cellId: 'j.yaml#1@mock/echo',
    repeat: 1,
    label: 'fail',
    note: 'rude',
  });
  await labelAttempt(store, run.runId, { cellId: 'j.yaml#2@mock/echo', repeat: 1, label: 'fail' });
  await expect(
    labelAttempt(store, run.runId, { cellId: 'j.yaml#3@mock/echo', repeat: 1, label: 'pass' }),
  ).rejects.toThrow('The run has no judged attempt 1 of that cell to label.');

  // "After a restart": another store on the same folder.
  const again = await runCalibration(new RunStore(dir, retention), run.runId);
  expect(again?.labels).toEqual([
    { cellId: 'j.yaml#1@mock/echo', repeat: 1, label: 'fail', note: 'rude' },
    { cellId: 'j.yaml#2@mock/echo', repeat: 1, label: 'fail' },
  ]);
  expect(again?.judges[0]).toMatchObject({
    labelled: 2,
    confusion: { passPass: 0, passFail: 0, failPass: 1, failFail: 1 },
    disagreements: [{ caseName: '1', human: 'fail', judge: 'pass', note: 'rude' }],
  });
});
