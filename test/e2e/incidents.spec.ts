// Incidents as the person on call meets them: the service goes down, the Overview shows the
// incident under its monitor, not acknowledged; they acknowledge it, post an update, and find it
// with its update on the Health screen, exported as CSV. Screenshots in light and dark.
import { userInfo } from 'node:os';
import { readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { expect, screenshotLightAndDark, test } from './fixtures';

function overview(app: Page) {
  return app.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Overview' }).click();
}

test('an outage opens an incident on the Overview; acknowledged, updated, and listed on Health', async ({
  app,
  core,
  mock,
}) => {
  // Setup: a saved monitor on the embedded mock (the Overview's own form has its tests).
  const profile = core.profiles.active();
  await core.monitors.add({ name: 'Production', profile: profile?.name as string });
  await overview(app);
  const row = app.getByRole('table', { name: 'Monitors' }).locator('tr[data-monitor="Production"]');
  await row.getByRole('button', { name: 'Check now' }).click();
  await expect(row).toHaveAttribute('data-status', 'healthy');

  mock.control.setHealth({ api: 'down' });
  await row.getByRole('button', { name: 'Check now' }).click();
  await expect(row.getByRole('button', { name: 'Check now' })).toBeEnabled();
  await row.getByRole('button', { name: 'Check now' }).click();
  await expect(row).toHaveAttribute('data-status', 'unhealthy');

  const incident = app.getByRole('region', { name: 'Incident on Production' });
  await expect(incident).toContainText('Incident: Unhealthy');
  await expect(incident).toContainText('Not acknowledged');
  await expect(incident).toContainText('Failing: health poll: unhealthy');
  await screenshotLightAndDark(app, 'incident-open');

  await incident.getByRole('button', { name: 'Acknowledge' }).click();
  await expect(incident).toContainText(`Acknowledged by ${userInfo().username}`);
  await expect(incident.getByRole('button', { name: 'Acknowledge' })).toHaveCount(0);

  await incident.getByRole('button', { name: 'Add update…' }).click();
  const form = incident.getByRole('form', { name: 'Incident update' });
  await form
    .getByLabel('Update (what is known, what is being done)')
    .fill('The api is restarting; back in 5 min.');
  await form.getByRole('button', { name: 'Post update' }).click();
  await expect(form).toBeHidden();
  await expect(incident.getByRole('list', { name: 'Updates' })).toContainText(
    `${userInfo().username}: The api is restarting; back in 5 min.`,
  );
  await screenshotLightAndDark(app, 'incident-acknowledged');

  // Kept by the core, not the page: a reload shows it as it was left.
  await app.reload();
  await app.locator('[data-app-state="ready"]').waitFor();
  await overview(app);
  await expect(incident).toContainText(`Acknowledged by ${userInfo().username}`);

  await row.getByRole('button', { name: 'Details' }).click();
  // Drawn on the timeline too: a shaded span from when it opened, named, still open.
  const chart = app.getByRole('main', { name: 'Health' }).locator('.health-chart');
  await expect(chart.locator('.health-incident-span')).toHaveCount(1);
  await expect(chart).toContainText('Incident: Unhealthy (open)');
  await chart.scrollIntoViewIfNeeded();
  await screenshotLightAndDark(app, 'health-timeline-incident');
  const card = app.getByRole('main', { name: 'Health' }).getByRole('region', { name: 'Incidents' });
  await expect(card.getByRole('region', { name: 'Incident on Production' })).toContainText(
    'The api is restarting; back in 5 min.',
  );
  await card.scrollIntoViewIfNeeded();
  await screenshotLightAndDark(app, 'health-incidents');
  const download = app.waitForEvent('download');
  await card.getByRole('button', { name: 'Export CSV' }).click();
  const csv = readFileSync(await (await download).path(), 'utf8');
  expect(csv.split('\r\n')[0]).toBe(
    'id,monitor,status,started,acknowledged_by,acknowledged_at,resolved_at,resolved_by,minutes,failing_checks,first_failure,updates',
  );
  expect(csv).toContain(`Production,Unhealthy,`);
  expect(csv).toContain('The api is restarting; back in 5 min.');

  // Resolved by hand: it leaves the Overview and stays on the Health screen's list.
  await card.getByRole('button', { name: 'Resolve' }).click();
  await expect(card).toContainText(`Resolved: Unhealthy`);
  mock.control.setHealth({ api: 'operational' });
});

test('a maintenance window set in the form: the row reads Maintenance while the service is down, and no incident opens', async ({
  app,
  mock,
}) => {
  await overview(app);
  await app.getByRole('button', { name: 'Add monitor' }).click();
  const form = app.getByRole('form', { name: 'New monitor' });
  await form.getByLabel('Name').fill('Production');
  const now = Date.now();
  const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d+Z$/, 'Z');
  await form
    .getByLabel('Windows (YAML, as in the monitors file; times in UTC unless tz: gives a zone)')
    .fill(`- name: Database upgrade\n  from: ${iso(now - 3_600_000)}\n  to: ${iso(now + 3_600_000)}\n`);
  await form.getByRole('button', { name: 'Add monitor' }).click();
  await expect(form).toBeHidden();

  mock.control.setHealth({ api: 'down' });
  const row = app.getByRole('table', { name: 'Monitors' }).locator('tr[data-monitor="Production"]');
  for (let i = 0; i < 2; i++) {
    await row.getByRole('button', { name: 'Check now' }).click();
    await expect(row.getByRole('button', { name: 'Check now' })).toBeEnabled();
  }
  await expect(row).toHaveAttribute('data-status', 'maintenance');
  await expect(row.getByTestId('maintenance')).toContainText('Database upgrade until');
  await expect(app.getByRole('region', { name: 'Incident on Production' })).toHaveCount(0);
  await screenshotLightAndDark(app, 'overview-maintenance');

  // The form shows the windows as saved, to edit.
  await row.getByRole('button', { name: 'Edit…' }).click();
  await expect(
    app.getByLabel('Windows (YAML, as in the monitors file; times in UTC unless tz: gives a zone)'),
  ).toHaveValue(/name: Database upgrade/);
  mock.control.setHealth({ api: 'operational' });
});
