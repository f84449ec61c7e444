// Channels and the name on incidents as a person sets them in the app: the monitor form adds a
// Discord webhook, a PagerDuty routing key and an email channel one by one, each listed by kind and
// host with its secret kept out of the page and the monitors file, and the test notification
// reaches the Discord receiver in Discord's shape. In Settings, the name people acknowledge
// incidents as: the OS user's as placeholder, a name saved to settings.json, and the Overview's
// acknowledgement under it. Screenshots in light and dark.
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { userInfo } from 'node:os';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { expect, screenshotLightAndDark, test } from './fixtures';

let receiver: Server;
let receiverUrl: string;
const posted: { path: string; body: Record<string, unknown> }[] = [];

test.beforeAll(async () => {
  receiver = createServer((req, res) => {
    let text = '';
    req.on('data', (d: Buffer) => (text += d.toString()));
    req.on('end', () => {
      posted.push({ path: req.url ?? '', body: JSON.parse(text) as Record<string, unknown> });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
});

test.afterAll(async () => {
  await new Promise((resolve) => receiver.close(resolve));
});

const nav = (app: Page, name: string) =>
  app.getByRole('navigation', { name: 'Main' }).getByRole('link', { name }).click();
const row = (app: Page, name: string) =>
  app.getByRole('table', { name: 'Monitors' }).locator(`tr[data-monitor="${name}"]`);

test('the monitor form adds Discord, PagerDuty and email channels, their secrets kept out of sight', async ({
  app,
  core,
}) => {
  const routingKey = 'R0uT1nGkEy0fTh3e2eTe5t0123456789';
  const password = 'Smtp-pa55word-of-the-e2e-test';
  await nav(app, 'Overview');
  await app.getByRole('button', { name: 'Add monitor' }).click();
  let form = app.getByRole('form', { name: 'New monitor' });
  await form.getByLabel('Name').fill('Production');
  await form.getByLabel('Channel').selectOption('Discord');
  await form.getByLabel('Discord webhook URL (kept in the keychain)').fill(`${receiverUrl}/discord/t0ken`);
  await form.getByRole('button', { name: 'Add monitor' }).click();
  await expect(form).toBeHidden();

  await row(app, 'Production').getByRole('button', { name: 'Test notification' }).click();
  await expect(row(app, 'Production').getByRole('status')).toContainText('Sent to 1 channel.');
  expect(posted.at(-1)).toMatchObject({
    path: '/discord/t0ken',
    body: { content: 'Test notification: Production', embeds: [{ title: 'Test notification' }] },
  });

  await row(app, 'Production').getByRole('button', { name: 'Edit…' }).click();
  form = app.getByRole('form', { name: 'Edit Production' });
  await form.getByLabel('Channel').selectOption('PagerDuty');
  await form.getByLabel('Routing key (Events API v2 integration key, kept in the keychain)').fill(routingKey);
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(form).toBeHidden();

  await row(app, 'Production').getByRole('button', { name: 'Edit…' }).click();
  await form.getByLabel('Channel').selectOption('Email');
  await form.getByLabel('SMTP server').fill('smtp.example.com');
  await form.getByLabel('User').fill('monitor');
  await form.getByLabel('Password (kept in the keychain)').fill(password);
  await form.getByLabel('From').fill('not an address');
  await form.getByLabel('To (addresses, comma-separated)').fill('oncall@example.com, ops@example.com');
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(form.getByText('An email address such as ops@example.com.')).toBeVisible();
  await form.getByLabel('From').fill('monitor@example.com');
  await form.scrollIntoViewIfNeeded();
  await screenshotLightAndDark(app, 'monitor-form-email-channel');
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(form).toBeHidden();

  await row(app, 'Production').getByRole('button', { name: 'Edit…' }).click();
  const channels = form.getByRole('list', { name: 'Webhooks' }).getByRole('listitem');
  await expect(channels).toHaveText([
    /^Discord → kept in the keychain/,
    /^PagerDuty → https:\/\/events\.pagerduty\.com\/… \(routing key kept in the keychain\)/,
    /^Email → smtp\.example\.com:587 → oncall@example\.com, ops@example\.com/,
  ]);
  await form.scrollIntoViewIfNeeded();
  await screenshotLightAndDark(app, 'monitor-form-channels');
  const page = await app.content();
  const file = readFileSync(join(core.dataDir, 'monitors.yaml'), 'utf8');
  for (const secret of [routingKey, password, '/discord/t0ken']) {
    expect(page).not.toContain(secret);
    expect(file).not.toContain(secret);
  }
  expect(file).toContain('kind: email');
});

test('Settings: the name people acknowledge incidents as, the OS user’s until one is saved', async ({
  app,
  core,
  mock,
}) => {
  const osUser = userInfo().username;
  await nav(app, 'Settings');
  const card = app.getByRole('region', { name: 'Incidents' });
  const field = card.getByLabel('Your name on incidents');
  await expect(field).toHaveAttribute('placeholder', osUser);
  await expect(field).toHaveValue('');
  await field.fill('  Dana (SRE) ');
  await card.getByRole('button', { name: 'Save' }).click();
  await expect(card.getByRole('status')).toHaveText('Saved: incidents are acknowledged as Dana (SRE).');
  // On disk when it says saved; a reload reads it back.
  expect(JSON.parse(readFileSync(core.settings.path, 'utf8'))).toMatchObject({ incidentName: 'Dana (SRE)' });
  await screenshotLightAndDark(app, 'settings-incident-name');
  await app.reload();
  await app.locator('[data-app-state="ready"]').waitFor();
  await nav(app, 'Settings');
  await expect(field).toHaveValue('Dana (SRE)');

  // The Overview's acknowledgement carries it.
  await core.monitors.add({ name: 'Production', profile: core.profiles.active()?.name as string });
  await nav(app, 'Overview');
  mock.control.setHealth({ api: 'down' });
  for (let i = 0; i < 2; i++) {
    await row(app, 'Production').getByRole('button', { name: 'Check now' }).click();
    await expect(row(app, 'Production').getByRole('button', { name: 'Check now' })).toBeEnabled();
  }
  const incident = app.getByRole('region', { name: 'Incident on Production' });
  await incident.getByRole('button', { name: 'Acknowledge' }).click();
  await expect(incident).toContainText('Acknowledged by Dana (SRE)');
  mock.control.setHealth({ api: 'operational' });

  // Cleared, it is the OS user's again.
  await nav(app, 'Settings');
  await field.fill('');
  await card.getByRole('button', { name: 'Save' }).click();
  await expect(card.getByRole('status')).toHaveText(`Saved: incidents are acknowledged as ${osUser}.`);
  expect(JSON.parse(readFileSync(core.settings.path, 'utf8'))).not.toHaveProperty('incidentName');
});
