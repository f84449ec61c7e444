// The HTML report of `agent-console test --reporter html` as someone opens it: a file from disk (a CI
// artifact) in Chromium, with every request refused and counted. The grid, a failure's expected
// and actual, and the diff against the baseline are on the page, and it asks for nothing.
// Screenshots in light and dark (test-results/screenshots/html-report-*.png).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { expect, test } from '@playwright/test';
import { htmlReport } from '../../electron/core/suites/html-report';
import { diffRuns } from '../../electron/core/suites/run-diff';
import { cell, run } from '../support/run-builder';
import { screenshotLightAndDark } from './fixtures';

const hostile = '<script>document.title="owned"</script><img src="https://tracker.example.com/p.gif">';
const mock = { profileName: 'Embedded mock', agent: 'helpdesk' };
const base = run('3f2a9c1e-0d7b-4f55-9a60-1c2b3d4e5f60', {
  'checkout.yaml': [
    cell('pays by card', [{ ttftMs: 120, totalMs: 300, reply: 'Your payment went through.' }]),
    cell('refunds', [{ ttftMs: 110, totalMs: 280 }]),
    cell('pays by card', [{ ttftMs: 150, totalMs: 320, reply: 'Paid.' }], mock),
  ],
  'greetings.yaml': [cell('says hello', times(100, 104, 98))],
});
const head = run('9b8c7d6e-5f40-4a3b-8c2d-1e0f9a8b7c6d', {
  'checkout.yaml': [
    cell('pays by card', [
      {
        passed: false,
        ttftMs: 130,
        totalMs: 310,
        reply: `Your payment was declined. ${hostile}`,
        expected: 'contains "went through"',
        actual: JSON.stringify(`Your payment was declined. ${hostile}`),
      },
    ]),
    cell('refunds', [{ ttftMs: 115, totalMs: 290 }]),
    cell('pays by card', [{ ttftMs: 140, totalMs: 330, reply: 'Paid.' }], mock),
  ],
  'greetings.yaml': [cell('says hello', times(620, 640, 610))],
});

function times(...ms: number[]) {
  return ms.map((t) => ({ ttftMs: t, totalMs: t + 40 }));
}

test('opened from disk with the network blocked: grid, a failure, the diff; no request at all', async ({
  page,
}) => {
  const dir = mkdtempSync(join(tmpdir(), 'agent-console-html-report-'));
  try {
    const file = join(dir, 'report.html');
    writeFileSync(file, htmlReport(head, { diff: diffRuns(base, head) }));
    const url = pathToFileURL(file).href;
    const requests: string[] = [];
    page.on('request', (request) => {
      if (request.url() !== url) requests.push(request.url());
    });
    await page.route('**', (route) => {
      if (route.request().url() === url) return route.continue();
      requests.push(route.request().url());
      return route.abort();
    });
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(url);

    await expect(page.getByRole('heading', { name: 'Agent tests: failed' })).toBeVisible();
    // The diff first: the regression and the slowdown, with the reply's word diff.
    const diff = page.locator('table').first();
    await expect(diff.getByRole('row', { name: /regression checkout › pays by card/ })).toBeVisible();
    await expect(diff.getByRole('row', { name: /^slower greetings › says hello/ })).toBeVisible();
    await expect(diff.locator('del').first()).toContainText('went');
    await expect(diff.locator('ins').first()).toContainText('was');
    // The grid: suite × case × target.
    await page.locator('#grid').scrollIntoViewIfNeeded();
    const grid = page.locator('h3:has-text("checkout") + table');
    await expect(grid.getByRole('columnheader', { name: 'Embedded mock / echo' })).toBeVisible();
    await expect(grid.getByRole('columnheader', { name: 'Embedded mock / helpdesk' })).toBeVisible();
    await expect(grid.getByRole('row', { name: /pays by card/ })).toContainText('failed');
    // A failure's expected and actual, the markup in the reply as text.
    const failure = page.locator('section.failure').first();
    await expect(failure).toContainText('contains "went through"');
    await expect(failure).toContainText('<script>document.title="owned"</script>');
    await expect(failure).toContainText('data: {"delta":"Echo: "}');
    await expect(page).not.toHaveTitle('owned');
    await expect(page.locator('img')).toHaveCount(0);

    await page.locator('h1').scrollIntoViewIfNeeded();
    await screenshotLightAndDark(page, 'html-report-diff');
    await failure.scrollIntoViewIfNeeded();
    await screenshotLightAndDark(page, 'html-report-failure');
    expect(requests).toEqual([]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
