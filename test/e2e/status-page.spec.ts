// The status page as its readers meet it: published from the Overview into a plain folder, then
// opened from that folder in Chromium with every request refused — it needs none. A bar of 90 days
// per public monitor with each day's availability on hover, the open incident with the update a
// person posted, the maintenance ahead; and nowhere on it, nor in status.json, the service's
// address or its key. Screenshots in light and dark.
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Monitor } from '../../electron/core/monitors/monitor';
import { expect, screenshotLightAndDark, test } from './fixtures';

const MINUTE = 60_000;
const DAY = 1440 * MINUTE;

test('published from the Overview, the page opens from a plain folder with the network refused', async ({
  app,
  core,
  mock,
  home,
}) => {
  // Setup: a public monitor on the embedded mock with three months behind it and a window ahead.
  const profile = core.profiles.active();
  const now = Date.now();
  const ahead = new Date(now - (now % DAY) + 2 * DAY + 2 * 3_600_000);
  const view = await core.monitors.add({
    name: 'Agents API',
    profile: profile?.name as string,
    public: true,
    health: { every: '24h' },
    maintenance: [
      {
        name: 'Database upgrade',
        from: ahead.toISOString(),
        to: new Date(ahead.getTime() + 2 * 3_600_000).toISOString(),
      },
    ],
  });
  const monitor = core.monitors.get(view.id) as Monitor;
  const today = now - (now % DAY);
  for (let d = 89; d >= 1; d--) {
    if (d === 40) continue;
    for (let m = 0; m < 1440; m += 5) {
      const down = (d === 12 && m >= 600 && m < 720) || (d === 3 && m < 30);
      const slow = d === 25 && m >= 300 && m < 400;
      monitor.minutes.record({
        t: today - d * DAY + m * MINUTE,
        s: down ? 'unhealthy' : slow ? 'degraded' : 'healthy',
        n: 1,
      });
    }
  }
  await monitor.health.checkNow();
  mock.control.setHealth({ api: 'down' });
  await monitor.health.checkNow();
  await monitor.health.checkNow();
  const [incident] = core.monitors.incidents.log.list({ open: true });
  core.monitors.incidents.addUpdate(
    incident?.id as string,
    'The api is restarting after a bad deploy; back within 10 minutes.',
  );
  mkdirSync(join(home, 'sites', 'status'), { recursive: true });

  await app.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Overview' }).click();
  await app.getByRole('button', { name: 'Publish status page…' }).click();
  const panel = app.getByRole('region', { name: 'Publish status page' });
  await panel.getByLabel('Folder for the status page').fill('sites/status');
  await panel.getByRole('button', { name: 'Publish' }).click();
  const folder = join(home, 'sites', 'status');
  await expect(panel.getByRole('status')).toContainText(
    `Published to ${folder}: index.html and status.json, with 1 monitor.`,
  );
  await screenshotLightAndDark(app, 'status-page-published');

  // The page from the folder, in a browser that refuses every request it might make.
  const page = await app.context().newPage();
  const asked: string[] = [];
  await page.context().route('**/*', (route) => {
    if (route.request().url().startsWith('file:')) return route.continue();
    asked.push(route.request().url());
    return route.abort();
  });
  await page.goto(pathToFileURL(join(folder, 'index.html')).href);
  await expect(page.getByRole('heading', { name: 'Service status', level: 1 })).toBeVisible();
  await expect(page.getByRole('status')).toHaveText('Major outage');

  const service = page.getByRole('region', { name: 'Agents API', exact: true });
  await expect(service).toContainText('Major outage');
  const days = service.getByRole('list', { name: 'Agents API: the last 90 days' }).getByRole('listitem');
  await expect(days).toHaveCount(90);
  const day = (ago: number) => days.nth(89 - ago);
  const date = (ago: number) => new Date(today - ago * DAY).toISOString().slice(0, 10);
  // Two hours of 24 down: 264 of 288 five-minute checks up, 91.666… % cut to two decimals.
  await expect(day(12)).toHaveAttribute('title', `${date(12)}: 91.66% available, major outage`);
  await expect(day(12)).toHaveAccessibleName(`${date(12)}: 91.66% available, major outage`);
  await expect(day(25)).toHaveAttribute('title', `${date(25)}: 100% available, degraded performance`);
  await expect(day(40)).toHaveAttribute('title', `${date(40)}: no data`);
  await expect(day(1)).toHaveAttribute('title', `${date(1)}: 100% available, operational`);

  const open = page.getByRole('region', { name: 'Incident: Agents API' });
  await expect(open).toContainText('Major outage');
  await expect(open.getByRole('list', { name: 'Updates' })).toContainText(
    'The api is restarting after a bad deploy; back within 10 minutes.',
  );
  await expect(page.getByText('Agents API: Database upgrade')).toBeVisible();
  expect(asked).toEqual([]);

  // Names and words only, in the page and its data.
  const html = await page.content();
  const json = readFileSync(join(folder, 'status.json'), 'utf8');
  for (const text of [html, json]) {
    expect(text).not.toContain(mock.baseUrl);
    expect(text).not.toContain(new URL(mock.baseUrl).host);
    for (const key of Object.values(mock.keys)) expect(text).not.toContain(key);
    expect(text).not.toContain(incident?.firstFailure);
  }
  await day(12).hover();
  await screenshotLightAndDark(page, 'status-page');
  await page.close();
  mock.control.setHealth({ api: 'operational' });
});
