// Usage and Health as a person uses them, through the web host: the usage charts come from the
// mock's 90 seeded days and follow the period; the health monitor follows the mock's components
// from healthy to degraded to unhealthy and back, with each confirmed change on the timeline and
// a browser notification (a page-side Notification stub records them). Screenshots of both screens.
import { readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import type { HealthUpdate } from '../../shared/health';
import type { ConsoleCore } from '../../electron/core/console-core';
import { expect, screenshotPath, test } from './fixtures';

const count = (n: number) => n.toLocaleString('en-US');

/** Replaces the browser's Notification with one that records, starting at "not asked yet" (or as given). */
async function stubNotifications(page: Page, permission: NotificationPermission = 'default'): Promise<void> {
  await page.addInitScript((initial) => {
    const shown: { title: string; body?: string }[] = [];
    class RecordingNotification {
      static permission: NotificationPermission = initial;
      static async requestPermission(): Promise<NotificationPermission> {
        RecordingNotification.permission = 'granted';
        return 'granted';
      }
      constructor(title: string, options?: NotificationOptions) {
        shown.push({ title, ...(options?.body ? { body: options.body } : {}) });
      }
    }
    Object.assign(window, { Notification: RecordingNotification, shownNotifications: shown });
  }, permission);
}

const shownNotifications = (page: Page) =>
  page.evaluate(() => (window as unknown as { shownNotifications: { title: string }[] }).shownNotifications);

/** Clicks "Check now" and waits for the check's sample to be in the monitor's history. */
async function checkNow(page: Page, core: ConsoleCore): Promise<void> {
  const before = core.health.history.size;
  await page.getByRole('button', { name: 'Check now' }).click();
  await expect.poll(() => core.health.history.size).toBeGreaterThan(before);
}

test('usage: charts from the seeded 90 days, following the period, with tables, CSV and incident bands', async ({
  app,
  mock,
  core,
}) => {
  // An incident in the monitor's history first, so the latency chart has a band to draw.
  mock.control.setHealth({ gateway: 'down' });
  await core.health.checkNow();
  mock.control.setHealth({ gateway: 'operational' });
  await core.health.checkNow();

  await app.getByRole('link', { name: 'Usage', exact: true }).click();
  const screen = app.locator('.usage-screen');
  const expected30 = mock.service.usageReport(30).usage;
  await expect(screen.getByTestId('usage-total-requests')).toHaveText(count(expected30.total_requests));
  await expect(screen.getByTestId('usage-total-tokens')).toHaveText(count(expected30.total_tokens));
  expect(expected30.total_requests).toBeGreaterThan(0);
  // The charts arrive in their own chunk: four charts, bars for 30 days, the agents, one incident band.
  await expect(screen.locator('.recharts-surface')).toHaveCount(4);
  const requestsCard = screen.getByRole('region', { name: 'Requests per day' });
  // A day without requests has no bar to draw.
  const busyDays = expected30.daily.filter((d) => d.requests > 0).length;
  expect(busyDays).toBeGreaterThan(25);
  await expect(requestsCard.locator('.recharts-bar-rectangle')).toHaveCount(busyDays);
  const latencyCard = screen.getByRole('region', { name: 'Average latency (ms)' });
  await expect(latencyCard.locator('.recharts-reference-area')).toHaveCount(1);
  await expect(latencyCard).toContainText('Shaded: 1 health incident');
  await expect(
    screen.getByRole('region', { name: 'By agent' }).locator('.recharts-bar-rectangle'),
  ).toHaveCount(expected30.by_agent.length);
  await app.screenshot({ path: screenshotPath('usage-30-days'), fullPage: true });

  // Each chart has a table; the latency table names the incident on today's row.
  await requestsCard.getByRole('button', { name: 'Table' }).click();
  const requestsTable = requestsCard.getByRole('table');
  await expect(requestsTable.locator('tbody tr')).toHaveCount(30);
  await expect(requestsTable.locator('tbody tr').last()).toContainText(
    String(expected30.daily.at(-1)?.requests ?? 0),
  );
  await latencyCard.getByRole('button', { name: 'Table' }).click();
  await expect(latencyCard.getByRole('table').locator('tbody tr').last()).toContainText('Unhealthy');

  // Another period: 7 days by preset, then 90 typed.
  await screen.getByRole('button', { name: '7 days' }).click();
  const expected7 = mock.service.usageReport(7).usage;
  await expect(screen.getByTestId('usage-total-requests')).toHaveText(count(expected7.total_requests));
  await expect(requestsTable.locator('tbody tr')).toHaveCount(7);
  await screen.getByRole('spinbutton').fill('90');
  const expected90 = mock.service.usageReport(90).usage;
  await expect(screen.getByTestId('usage-total-requests')).toHaveText(count(expected90.total_requests));
  await expect(requestsTable.locator('tbody tr')).toHaveCount(90);
  await app.screenshot({ path: screenshotPath('usage-90-days-tables'), fullPage: true });

  // CSV export of the period shown.
  const download = app.waitForEvent('download');
  await screen.getByRole('button', { name: 'Export daily CSV' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/^usage-daily-\d{4}-\d{2}-\d{2}-to-\d{4}-\d{2}-\d{2}\.csv$/);
  const lines = readFileSync((await file.path()) as string, 'utf8')
    .trimEnd()
    .split('\r\n');
  expect(lines[0]).toBe('date,requests,tokens,avg_latency_ms');
  expect(lines).toHaveLength(91);
});

test('health: degraded, then unhealthy, then healthy again — on the timeline, notified each time', async ({
  page,
  host,
  mock,
  core,
}) => {
  const updates: HealthUpdate[] = [];
  core.health.subscribe((update) => updates.push(update));
  core.health.start();
  await stubNotifications(page);
  await page.goto(host.url);
  await page.locator('[data-app-state="ready"]').waitFor();
  await page.getByRole('link', { name: 'Health', exact: true }).click();

  const status = page.getByTestId('health-status');
  await expect(status).toHaveText('Healthy');
  await expect(page.getByTestId('health-version')).toHaveText('1.0.0-mock');
  await expect(page.getByTestId('health-countdown')).toContainText(/in \d+ s/);
  await page.getByRole('button', { name: 'Enable desktop notifications' }).click();
  await expect(page.getByTestId('notification-state')).toContainText('On:');

  // A component down: degraded at once on screen, confirmed (and notified) on the second check.
  mock.control.setHealth({ agents: 'down' });
  await checkNow(page, core);
  await expect(status).toHaveText('Degraded');
  await expect(page.getByText('The service works, with problems: agents down.')).toBeVisible();
  await expect(page.getByTestId('health-pending')).toBeVisible();
  await checkNow(page, core);
  await expect(page.getByTestId('health-pending')).toBeHidden();
  const events = page.getByTestId('health-events');
  await expect(events).toContainText('Degraded (was healthy)');
  await expect
    .poll(async () => (await shownNotifications(page)).map((n) => n.title))
    .toEqual(['Service degraded']);
  await expect(page.locator('.health-chart .health-band rect').first()).toBeVisible();
  await page.screenshot({ path: screenshotPath('health-degraded'), fullPage: true });

  // A critical component down: unhealthy.
  mock.control.setHealth({ api: 'down' });
  await checkNow(page, core);
  await checkNow(page, core);
  await expect(status).toHaveText('Unhealthy');
  await expect(events).toContainText('Unhealthy (was degraded)');
  await expect(page.locator('.health-component-bad')).toHaveCount(2);
  await page.screenshot({ path: screenshotPath('health-unhealthy'), fullPage: true });

  // Everything back: healthy again.
  mock.control.setHealth({ api: 'operational', agents: 'operational' });
  await checkNow(page, core);
  await checkNow(page, core);
  await expect(status).toHaveText('Healthy');
  await expect(events).toContainText('Healthy (was unhealthy)');
  await expect
    .poll(async () => (await shownNotifications(page)).map((n) => n.title))
    .toEqual(['Service degraded', 'Service unhealthy', 'Service healthy again']);
  // One `health:update` with a notifying transition per change: the same three.
  expect(updates.flatMap((u) => (u.transition?.notify ? [u.transition.to] : []))).toEqual([
    'degraded',
    'unhealthy',
    'healthy',
  ]);
  // The timeline draws a vertical line for each change, over the status band and response times.
  await expect(page.locator('.health-chart .recharts-reference-line')).toHaveCount(3);
  await expect(page.getByTestId('uptime-1h')).toContainText('%');

  // A restart and a deploy of the service are marked too (the mock must have been up a few seconds,
  // so a restart moves its start time past the monitor's tolerance).
  await expect.poll(() => mock.service.healthReport().uptime_seconds, { timeout: 15_000 }).toBeGreaterThan(6);
  mock.control.restart();
  mock.control.setVersion('1.1.0');
  await checkNow(page, core);
  await expect(page.getByTestId('health-version')).toHaveText('1.1.0');
  await expect(events).toContainText('Restart (uptime went down)');
  await expect(events).toContainText('Deploy 1.0.0-mock → 1.1.0');
  await expect(page.locator('.health-chart .recharts-reference-line')).toHaveCount(5);
  await page.screenshot({ path: screenshotPath('health-timeline'), fullPage: true });

  // A shorter interval through the bridge (health:configure); set last, so no scheduled check
  // lands between the clicks above. The next check is then at most 10 s away.
  await page.getByRole('combobox', { name: 'Check every' }).selectOption('10000');
  await expect.poll(() => core.health.intervalMs).toBe(10_000);
  await expect(page.getByTestId('health-countdown')).toContainText(/in ([0-9]|10) s/);
});

test('health: a key the service refuses reads "Key rejected", not unhealthy', async ({ app, mock, core }) => {
  mock.control.updateKey('pro', { plan: 'free' });
  core.health.start();
  await app.getByRole('link', { name: 'Health', exact: true }).click();
  await expect(app.getByTestId('health-status')).toHaveText('Key rejected');
  await expect(app.getByText(/refused this profile’s API key \(HTTP 403 PLAN_REQUIRED\)/)).toBeVisible();
  await expect(app.getByTestId('uptime-1h')).toContainText('nothing known of the service');
  await expect(app.locator('.health-chart .recharts-surface')).toBeVisible();
  await app.screenshot({ path: screenshotPath('health-key-rejected'), fullPage: true });
});

test('health: a change is notified in the browser from the first screen, before the Health screen was ever opened', async ({
  page,
  host,
  mock,
  core,
}) => {
  // Notifications allowed in an earlier session; this one opens on the Playground and stays there.
  await stubNotifications(page, 'granted');
  await page.goto(host.url);
  await page.locator('[data-app-state="ready"]').waitFor();
  await expect(page.getByRole('textbox', { name: 'Message' })).toBeVisible();
  await core.health.checkNow(false);
  mock.control.setHealth({ agents: 'down' });
  await core.health.checkNow(false);
  await core.health.checkNow(false);
  await expect
    .poll(async () => (await shownNotifications(page)).map((n) => n.title))
    .toEqual(['Service degraded']);
});
