// A clean load of the web host and a visit to every screen: the browser's console stays empty of
// errors, no script throws, and nothing the page asks for is missing (the CSP meta tag's
// frame-ancestors and a missing favicon each logged an error on every load).
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';

function watch(page: Page): string[] {
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning')
      problems.push(`console ${message.type()}: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`uncaught: ${error.message}`));
  page.on('response', (response) => {
    if (response.status() >= 400) problems.push(`${response.status()} ${response.url()}`);
  });
  page.on('requestfailed', (request) => {
    // A stream closed because the page moved on is not a failure of the page.
    if (request.failure()?.errorText !== 'net::ERR_ABORTED')
      problems.push(`failed ${request.url()}: ${request.failure()?.errorText}`);
  });
  return problems;
}

test('a clean load and every screen: no console error or warning, no uncaught error, nothing missing', async ({
  page,
  host,
}) => {
  const problems = watch(page);
  await page.goto(host.url);
  await page.locator('[data-app-state="ready"]').waitFor();
  const nav = page.getByRole('navigation', { name: 'Main' });
  const links = nav.getByRole('link');
  const count = await links.count();
  expect(count).toBeGreaterThanOrEqual(10);
  for (let i = 0; i < count; i++) {
    await links.nth(i).click();
    await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible();
    // A moment for the screen's first data (and any error it would log) before the next one.
    await page.waitForTimeout(300);
  }
  // And a reload of the last one, as a user coming back to it would.
  await page.reload();
  await page.locator('[data-app-state="ready"]').waitFor();
  expect(problems).toEqual([]);
});
