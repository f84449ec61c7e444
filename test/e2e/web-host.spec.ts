import { expect, screenshotPath, test } from './fixtures';

test('the web host serves the console to a browser holding the token', async ({ page, host }) => {
  await page.goto(host.url);
  await expect(page.locator('[data-app-state="loaded"]')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Agent Console' })).toBeVisible();
  await page.screenshot({ path: screenshotPath('placeholder'), fullPage: true });
});

test('the web host refuses a browser without the token', async ({ page, host }) => {
  const response = await page.goto(host.origin);
  expect(response?.status()).toBe(401);
  await expect(page.locator('body')).toContainText('Missing or wrong token');
});
