// Judge calibration: 20 judged attempts labelled by a person who disagrees with the judge on 3 of
// them. Agreement, Cohen's κ and the confusion table are checked against the computation written
// out by hand below, from the labels CSV as `agent-console test --labels` reads it.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { calibrate, cohensKappa } from '../../shared/calibration';
import type { KeptRun } from '../../shared/run-history';
import { cell, run as run_ } from '../support/run-builder';
import { readLabelsFile, resolveLabels } from '../../electron/core/suites/labels-file';
import { removeDir, tempDir } from '../support/mock';

const dir = tempDir('agent-console-labels-');
afterAll(() => removeDir(dir));

/** Case i's judge passed for i < 12 (12 passes, 8 failures). */
const judgePassed = (i: number): boolean => i < 12;

const run = (minKappa?: number): KeptRun => {
  const cells = Array.from({ length: 20 }, (_, i) =>
    cell(`case ${i + 1}`, [
      {
        passed: judgePassed(i),
        reply: `reply ${i + 1}`,
        verdict: { agent: 'grader', score: judgePassed(i) ? 5 : 2, reason: `reason ${i + 1}` },
      },
    ]),
  );
  const built = run_('calibrated', { 'j.yaml': cells });
  if (minKappa !== undefined) (built.suites[0] as KeptRun['suites'][number]).minKappa = minKappa;
  return built;
};

test('3 disagreements of 20: agreement, κ and the confusion table as computed by hand', async () => {
  // The person agrees with the judge except on cases 1 and 2 (judge pass, person fail) and
  // case 13 (judge fail, person pass).
  const human = (i: number): string => {
    if (i === 0 || i === 1) return 'fail';
    if (i === 12) return 'pass';
    return judgePassed(i) ? 'pass' : 'fail';
  };
  const rows = Array.from(
    { length: 20 },
    (_, i) => `case ${i + 1},echo,1,${human(i)}${i === 1 ? ',"too curt, wrong order"' : ''}`,
  );
  const file = join(dir, 'labels.csv');
  writeFileSync(file, `case,agent,repeat,label,note\n${rows.join('\n')}\n`);
  const { labels, problems } = resolveLabels(run(0.7), await readLabelsFile(file), file);
  expect(problems).toEqual([]);
  expect(labels).toHaveLength(20);

  // By hand, rows the person, columns the judge:
  //               judge pass  judge fail
  //   human pass      10           1        (12 judge passes − 2 the person failed; case 13)
  //   human fail       2           7        (cases 1 and 2; 8 judge failures − case 13)
  // po = (10 + 7) / 20 = 0.85
  // person passes 11/20 = 0.55, judge passes 12/20 = 0.6
  // pe = 0.55 × 0.6 + 0.45 × 0.4 = 0.33 + 0.18 = 0.51
  // κ = (0.85 − 0.51) / (1 − 0.51) = 0.34 / 0.49 = 0.6938…
  const [judge] = calibrate(run(0.7), labels);
  expect(judge?.confusion).toEqual({ passPass: 10, passFail: 1, failPass: 2, failFail: 7 });
  expect(judge?.labelled).toBe(20);
  expect(judge?.agreement).toBe(0.85);
  expect(judge?.kappa).toBeCloseTo(0.34 / 0.49, 12);
  expect(judge).toMatchObject({
    file: '/work/suites/j.yaml',
    line: 7,
    grader: 'grader',
    minKappa: 0.7,
    trusted: false,
  });
  expect(judge?.disagreements.map((d) => [d.caseName, d.human, d.judge, d.reply, d.reason, d.note])).toEqual([
    ['case 1', 'fail', 'pass', 'reply 1', 'reason 1', undefined],
    ['case 2', 'fail', 'pass', 'reply 2', 'reason 2', 'too curt, wrong order'],
    ['case 13', 'pass', 'fail', 'reply 13', 'reason 13', undefined],
  ]);
  // The same labels against a lower bar: trusted.
  expect(calibrate(run(0.6), labels)[0]?.trusted).toBe(true);
});

test('κ is undefined when both said the same one thing, and a label that matches nothing is said', async () => {
  expect(cohensKappa({ passPass: 5, passFail: 0, failPass: 0, failFail: 0 })).toBeNull();
  expect(cohensKappa({ passPass: 3, passFail: 0, failPass: 0, failFail: 3 })).toBe(1);
  const file = join(dir, 'stray.csv');
  writeFileSync(file, 'case,agent,repeat,label\ncase 99,echo,1,pass\ncase 1,echo,1,fail\n');
  const { labels, problems } = resolveLabels(run(), await readLabelsFile(file), file);
  expect(labels).toHaveLength(1);
  expect(problems).toEqual([
    'stray.csv line 2: no judged attempt of case "case 99" on agent "echo", repeat 1, in this run.',
  ]);
  writeFileSync(file, 'case,agent,repeat,label\ncase 1,echo,1,maybe\n');
  await expect(readLabelsFile(file)).rejects.toThrow(
    'stray.csv line 2: the label is pass or fail (got "maybe").',
  );
});
