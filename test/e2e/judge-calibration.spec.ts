// Judge calibration on the Tests screen: a judged suite runs against the mock's grader, a person
// labels three judged cells (one with a note), and the screen shows each judge's agreement, κ
// against the suite's min-kappa, the confusion table and the disagreements — still there after
// the page is loaded again, since the labels are kept with the run.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { expect, screenshotLightAndDark, test } from './fixtures';

let folder: string;
test.beforeEach(({ home }) => {
  folder = mkdtempSync(join(home, 'agent-tests-judges-'));
  writeFileSync(
    join(folder, 'refunds.yaml'),
    [
      'name: Refunds judged',
      'targets: { agents: [echo] }',
      'grader: { agent: grader }',
      'min-kappa: 0.5',
      'cases:',
      '  - name: says {{msg}}',
      "    message: '{{msg}}'",
      '    vars: [{ msg: the refund was issued }, { msg: your refund is on its way }, { msg: refund issued today }]',
      '    assert: [{ judge: { rubric: \'Says "refund" "issued"\' } }]',
    ].join('\n'),
  );
});
test.afterEach(() => rmSync(folder, { recursive: true, force: true }));

async function label(app: Page, cell: string, verdict: 'Pass' | 'Fail', note?: string): Promise<void> {
  await app.getByRole('button', { name: cell }).click();
  const form = app.getByRole('form', { name: 'Your verdict on attempt 1' });
  await form.getByRole('radio', { name: verdict }).check();
  if (note) await form.getByRole('textbox', { name: 'Note' }).fill(note);
  await form.getByRole('button', { name: 'Save label' }).click();
  await expect(form.getByRole('button', { name: 'Saved' })).toBeVisible();
}

test('labelled judged cells calibrate the judge, and the labels are kept with the run', async ({ app }) => {
  await app.getByRole('link', { name: 'Tests' }).click();
  await app.getByLabel('Folder of suite files').fill(folder);
  await app.getByRole('button', { name: 'Open', exact: true }).click();
  await app.getByRole('button', { name: 'Run all' }).click();
  await expect(app.getByTestId('run-progress')).toContainText(/· (passed|failed)/, { timeout: 60_000 });
  const panel = app.getByRole('region', { name: 'Judge calibration' });
  await expect(panel).toContainText('Open a judged cell and label it pass or fail');

  // The judge passed "issued" and "today" and failed "on its way" (3 of 5: "issued" missing).
  await label(app, 'says the refund was issued on echo: passed', 'Fail', 'too curt for a customer');
  await label(app, 'says your refund is on its way on echo: failed', 'Pass');
  await label(app, 'says refund issued today on echo: passed', 'Pass');

  // By hand: human × judge = [[1, 1], [1, 0]]; po = 1/3, pe = 2/3 × 2/3 + 1/3 × 1/3 = 5/9,
  // κ = (1/3 − 5/9) / (4/9) = −0.5.
  const agreement = panel.getByTestId('judge-agreement');
  await expect(agreement).toHaveText('3 labelled · agreement 33% · κ -0.50, min-kappa 0.5: NOT TRUSTWORTHY');
  const table = panel.getByRole('table', { name: 'Confusion table' });
  await expect(table.getByRole('row', { name: /Human pass/ })).toHaveText('Human pass11');
  await expect(table.getByRole('row', { name: /Human fail/ })).toHaveText('Human fail10');
  const disagreements = panel.getByRole('list', { name: 'Disagreements' }).getByRole('listitem');
  await expect(disagreements).toHaveCount(2);
  await expect(disagreements.first()).toContainText('says the refund was issued');
  await expect(disagreements.first()).toContainText('human fail, judge pass');
  await expect(disagreements.first()).toContainText('Reply: Echo: the refund was issued');
  await expect(disagreements.first()).toContainText("Judge: Says 'refund', 'issued'; missing nothing.");
  await expect(disagreements.first()).toContainText('Note: too curt for a customer');
  // Each cell has a form of its own: the first one's note went to it alone.
  await expect(disagreements.nth(1)).toContainText('says your refund is on its way');
  await expect(disagreements.nth(1)).not.toContainText('Note:');
  await panel.scrollIntoViewIfNeeded();
  await screenshotLightAndDark(app, 'tests-judge-calibration');

  // A new page knows no run: the newest kept one, with its labels, is calibrated.
  await app.reload();
  await app.locator('[data-app-state="ready"]').waitFor();
  await app.getByRole('link', { name: 'Tests' }).click();
  await expect(
    app.getByRole('region', { name: 'Judge calibration' }).getByTestId('judge-agreement'),
  ).toHaveText('3 labelled · agreement 33% · κ -0.50, min-kappa 0.5: NOT TRUSTWORTHY');
});
