// The shell as a new user meets it: first run on the embedded mock, keys, profiles, the rate-limit
// gauge and the request log. Each test saves a screenshot of its screen.
import { addKey } from './account-steps';
import { expect, screenshotPath, test } from './fixtures';

test('first run opens on the Embedded mock profile, connected, with every screen in the navigation', async ({
  app,
}) => {
  await expect(app.getByRole('combobox', { name: 'Profile' })).toHaveValue('embedded-mock');
  await expect(app.getByTestId('connection-status')).toHaveText('Connected');
  const nav = app.getByRole('navigation', { name: 'Main' });
  for (const name of [
    'Playground',
    'Threads',
    'Conversations',
    'Agents',
    'Usage',
    'Health',
    'Tests',
    'Keys',
    'Profiles',
    'Log',
  ]) {
    await expect(nav.getByRole('link', { name, exact: true })).toBeVisible();
  }
  // The health check behind "Connected" taught the gauge the demo key's limit.
  await expect(app.getByRole('status', { name: 'Rate limit' })).toContainText('of 60/min left');
  await app.screenshot({ path: screenshotPath('shell-first-run') });
});

test('keys: a bad key shows the shape error, a good one appears masked with its server, and it can be removed', async ({
  app,
  mock,
}) => {
  await app.getByRole('link', { name: 'Keys' }).click();
  const form = app.getByRole('form', { name: 'Add a key' });
  await form.getByLabel('Name').fill('staging');
  await form.getByLabel('Key', { exact: true }).fill('ams_tooShort');
  await expect(form.getByText('A key is 36 characters long; this is 12.')).toBeVisible();
  await expect(form.getByRole('button', { name: 'Add key' })).toBeDisabled();
  await app.screenshot({ path: screenshotPath('keys-shape-error') });

  const secret = mock.keys.ultra;
  await form.getByLabel('Key', { exact: true }).fill(secret);
  await expect(form.getByText('Shown once at creation')).toBeVisible();
  // The server it is for: without one the key cannot be added.
  await expect(form.getByRole('button', { name: 'Add key' })).toBeDisabled();
  await expect(form.getByText('The key is sent to this server only')).toBeVisible();
  await form.getByLabel('Server').fill(`${mock.baseUrl}/`);
  await form.getByRole('button', { name: 'Add key' }).click();
  const table = app.getByRole('table', { name: 'Keys' });
  const row = table.getByRole('row').filter({ hasText: 'staging' });
  await expect(row).toContainText(`…${secret.slice(-4)}`);
  await expect(row).toContainText('System keychain');
  await expect(row).toContainText(new URL(mock.baseUrl).origin);
  await expect(form.getByLabel('Key', { exact: true })).toHaveValue('');
  await expect(form.getByLabel('Server')).toHaveValue('https://');
  expect(await app.content()).not.toContain(secret);
  await app.screenshot({ path: screenshotPath('keys-added') });

  await row.getByRole('button', { name: 'Remove staging' }).click();
  await app
    .getByRole('dialog', { name: 'Remove the key “staging”?' })
    .getByRole('button', { name: 'Remove the key' })
    .click();
  await expect(table.getByRole('row').filter({ hasText: 'staging' })).toHaveCount(0);
});

test('profiles: add one for another key, test its connection, and switch to it', async ({ app, mock }) => {
  await addKey(app, { name: 'thirty', secret: mock.keys.tier30, server: mock.baseUrl });

  await app.getByRole('link', { name: 'Profiles' }).click();
  const form = app.getByRole('form', { name: 'Add a profile' });
  await form.getByLabel('Name').fill('Local tier 30');
  await form.getByLabel('Base URL').fill(mock.baseUrl);
  await form
    .getByRole('combobox', { name: 'Key', exact: true })
    .selectOption({ label: `thirty (…${mock.keys.tier30.slice(-4)})` });
  await expect(form.getByText(`Sent only to ${new URL(mock.baseUrl).origin}`)).toBeVisible();
  await form.getByLabel('CA certificate (optional, PEM)').fill(mock.ca);
  await form.getByRole('button', { name: 'Add profile' }).click();

  const card = app.getByRole('listitem', { name: 'Local tier 30' });
  await card.getByRole('button', { name: 'Test connection' }).click();
  await expect(card.getByRole('status')).toContainText('Connected in');
  await card.getByRole('button', { name: 'Use' }).click();
  await expect(app.getByRole('combobox', { name: 'Profile' })).toHaveValue(/.+/);
  await expect(app.getByRole('combobox', { name: 'Profile' }).locator('option:checked')).toHaveText(
    'Local tier 30',
  );
  await expect(app.getByTestId('connection-status')).toHaveText('Connected');
  await expect(app.getByRole('status', { name: 'Rate limit' })).toContainText('of 30/min left');
  await app.screenshot({ path: screenshotPath('profiles') });

  // And back, from the header.
  await app.getByRole('combobox', { name: 'Profile' }).selectOption('embedded-mock');
  await expect(card.getByText('Active')).toHaveCount(0);
});

test('profiles: a key added at the command line has no server yet; its first profile here asks for the key again', async ({
  app,
  core,
  mock,
}) => {
  // What `agent-console keys add` leaves: a key not yet allowed to go to any server.
  await core.vault.add({ name: 'from the terminal', secret: mock.keys.tier30, sessionOnly: true });
  const origin = new URL(mock.baseUrl).origin;
  await app.getByRole('link', { name: 'Keys' }).click();
  const keys = app.getByRole('table', { name: 'Keys' });
  const row = keys.getByRole('row').filter({ hasText: 'from the terminal' });
  await expect(row).toContainText('No server yet');
  await app.screenshot({ path: screenshotPath('keys-no-server-yet') });

  await app.getByRole('link', { name: 'Profiles' }).click();
  const form = app.getByRole('form', { name: 'Add a profile' });
  await form.getByLabel('Name').fill('From the terminal');
  await form.getByLabel('Base URL').fill(mock.baseUrl);
  await form
    .getByRole('combobox', { name: 'Key', exact: true })
    .selectOption({ label: `from the terminal (…${mock.keys.tier30.slice(-4)})` });
  await expect(form.getByText('This key has no server yet')).toBeVisible();
  await form.getByLabel('CA certificate (optional, PEM)').fill(mock.ca);
  await form.getByRole('button', { name: 'Add profile' }).click();

  // Not bound by the click alone: the user types the key.
  const confirm = app.getByRole('form', { name: 'Confirm the new server' });
  await expect(confirm.getByRole('heading', { name: 'Send this key to its first server?' })).toBeVisible();
  await expect(confirm).toContainText('added at the command line without a server');
  await expect(confirm).toContainText(origin);
  expect(core.vault.list().find((k) => k.name === 'from the terminal')?.origins).toBeUndefined();
  await app.screenshot({ path: screenshotPath('profiles-confirm-first-server') });
  await confirm.getByLabel('Type or paste the key again to confirm').fill(mock.keys.pro);
  await confirm.getByRole('button', { name: 'Confirm and add profile' }).click();
  await expect(app.getByRole('alert')).toContainText('That is not the secret of key "from the terminal"');
  await expect(app.getByRole('listitem', { name: 'From the terminal' })).toHaveCount(0);

  await confirm.getByLabel('Type or paste the key again to confirm').fill(mock.keys.tier30);
  await confirm.getByRole('button', { name: 'Confirm and add profile' }).click();
  const card = app.getByRole('listitem', { name: 'From the terminal' });
  await card.getByRole('button', { name: 'Test connection' }).click();
  await expect(card.getByRole('status')).toContainText('Connected in');
  await expect(confirm).toHaveCount(0);
  await app.getByRole('link', { name: 'Keys' }).click();
  await expect(row).toContainText(origin);
});

test('a bad profile is refused in words, and the form keeps what was typed', async ({ app }) => {
  await app.getByRole('link', { name: 'Profiles' }).click();
  const form = app.getByRole('form', { name: 'Add a profile' });
  await form.getByLabel('Name').fill('Plain http');
  await form.getByLabel('Base URL').fill('http://agents.example.com');
  await form.getByRole('combobox', { name: 'Key', exact: true }).selectOption({ index: 1 });
  await form.getByRole('button', { name: 'Add profile' }).click();
  await expect(app.getByRole('alert')).toContainText('INSECURE_URL');
  await expect(form.getByLabel('Base URL')).toHaveValue('http://agents.example.com');
  await app.screenshot({ path: screenshotPath('profiles-error') });
});

test('the gauge: remaining falls as requests are made, and the reset countdown runs', async ({
  app,
  mock,
}) => {
  const gauge = app.getByRole('status', { name: 'Rate limit' });
  await expect(gauge).toContainText('of 60/min left');
  await app.getByRole('link', { name: 'Profiles' }).click();
  // What the first screen asked for (the playground's agents) has landed: the count stands still.
  const remaining = app.getByTestId('rate-remaining');
  let before = -1;
  await expect
    .poll(
      async () => {
        const now = Number(await remaining.textContent());
        const settled = now === before;
        before = now;
        return settled;
      },
      { intervals: [500] },
    )
    .toBe(true);
  const card = app.getByRole('listitem', { name: 'Embedded mock' });
  for (let i = 0; i < 3; i++) {
    await card.getByRole('button', { name: 'Test connection' }).click();
    await expect(card.getByRole('button', { name: 'Test connection' })).toBeEnabled();
  }
  // At least the three calls came off, and the gauge says what the service's own window says (a
  // background call of the console, a health poll or a refetch, may land meanwhile too).
  await expect
    .poll(async () => {
      const shown = Number(await remaining.textContent());
      const service = 60 - mock.service.window.count('pro', Date.now());
      return shown === service && shown <= before - 3;
    })
    .toBe(true);
  const first = await app.getByTestId('rate-reset').textContent();
  await expect(app.getByTestId('rate-reset')).not.toHaveText(first ?? '', { timeout: 3_000 });
  await app.screenshot({ path: screenshotPath('gauge') });
});

test('the log lists the calls; a request copies as curl without the secret; JSON and HAR export', async ({
  app,
  mock,
  context,
}) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await app.getByRole('link', { name: 'Log' }).click();
  const table = app.getByRole('table', { name: 'Requests' });
  await expect(table.getByRole('row').filter({ hasText: '/api/v1/health' }).first()).toBeVisible();
  await table.getByRole('row').filter({ hasText: '/api/v1/health' }).first().click();
  const detail = app.getByRole('region', { name: 'Request detail' });
  await expect(detail).toContainText('x-ratelimit-limit');
  await detail.getByRole('button', { name: 'Copy as curl' }).click();
  const command = await detail.getByLabel('curl command').textContent();
  expect(command).toContain('curl --cacert');
  expect(command).toContain('"Authorization: Bearer $AGENT_API_KEY"');
  expect(command).toContain(`${mock.baseUrl}/api/v1/health`);
  expect(command).not.toContain(mock.keys.pro);
  const clipboard = await app.evaluate(() => navigator.clipboard.readText());
  expect(clipboard).toBe(command);
  await app.screenshot({ path: screenshotPath('log') });

  const download = app.waitForEvent('download');
  await app.getByRole('button', { name: 'Export HAR' }).click();
  const har = JSON.parse(
    await (await (await download).createReadStream()).toArray().then((b) => Buffer.concat(b).toString()),
  );
  expect(har.log.version).toBe('1.2');
  expect(JSON.stringify(har)).not.toContain(mock.keys.pro);
});

test('keyboard only: reach a screen from the navigation and add a key', async ({ app }) => {
  let focused = '';
  for (let i = 0; i < 20 && focused !== 'Keys'; i++) {
    await app.keyboard.press('Tab');
    focused = await app.evaluate(() => document.activeElement?.textContent ?? '');
  }
  expect(focused).toBe('Keys');
  await app.keyboard.press('Enter');
  await expect(app.getByRole('heading', { name: 'Keys', level: 1 })).toBeVisible();
  await app.getByRole('form', { name: 'Add a key' }).getByLabel('Name').focus();
  await app.keyboard.type('typed');
  await app.keyboard.press('Tab');
  await app.keyboard.type('abc_ABCDEFGHIJKLMNOPQRSTUVWXYZ123456');
  // The Server field; tabbing in selects its "https://", so the whole base URL is typed.
  await app.keyboard.press('Tab');
  await app.keyboard.type('https://agents.example.com');
  await app.keyboard.press('Enter');
  await expect(app.getByRole('table', { name: 'Keys' })).toContainText('typed');
});

// A screen's code is fetched when the screen is first shown. While it comes the screen
// says so; when it cannot be fetched it says that, and the next visit fetches it again.
test('a screen still loading says so, then shows; one whose code failed loads on the next visit', async ({
  app,
}) => {
  const nav = app.getByRole('navigation', { name: 'Main' });
  let fetches = 0;
  let release: () => void = () => undefined;
  const released = new Promise<void>((resolve) => (release = resolve));
  await app.route(/\/assets\/keys-screen-[\w-]+\.js$/, async (route) => {
    fetches += 1;
    if (fetches === 1) return route.abort('connectionreset');
    await released;
    return route.continue();
  });
  await nav.getByRole('link', { name: 'Keys', exact: true }).click();
  const failure = app.getByRole('alert').filter({ hasText: 'This screen could not be loaded.' });
  await expect(failure).toBeVisible();
  await app.screenshot({ path: screenshotPath('screen-code-failed') });

  await nav.getByRole('link', { name: 'Log', exact: true }).click();
  await expect(failure).toHaveCount(0);
  await nav.getByRole('link', { name: 'Keys', exact: true }).click();
  await expect(app.getByText('Loading Keys…')).toBeVisible();
  await app.screenshot({ path: screenshotPath('screen-loading') });
  release();
  await expect(app.getByRole('form', { name: 'Add a key' })).toBeVisible();
  await expect(app.getByText('Loading Keys…')).toHaveCount(0);
});

test.describe('in a dark desktop theme', () => {
  test.use({ colorScheme: 'dark' });
  test('the console follows it, with readable contrast', async ({ app }) => {
    await app.getByRole('link', { name: 'Keys' }).click();
    const [background, text] = await app.evaluate(() => {
      const style = getComputedStyle(document.body);
      return [style.backgroundColor, style.color];
    });
    expect(background).toBe('rgb(18, 21, 28)');
    expect(text).toBe('rgb(229, 232, 239)');
    await app.screenshot({ path: screenshotPath('keys-dark') });
  });
});

test('a screen chosen from the sidebar takes focus at its heading, as a screen reader expects', async ({
  app,
}) => {
  const nav = app.getByRole('navigation', { name: 'Main' });
  for (const name of ['Threads', 'Keys', 'Playground']) {
    await nav.getByRole('link', { name, exact: true }).click();
    await expect(app.getByRole('heading', { name, level: 1 })).toBeFocused();
  }
  // From the keyboard too; Tab then goes on inside the screen, not back in the sidebar.
  await nav.getByRole('link', { name: 'Log', exact: true }).focus();
  await app.keyboard.press('Enter');
  await expect(app.getByRole('heading', { name: 'Log', level: 1 })).toBeFocused();
  await app.keyboard.press('Tab');
  await expect(nav.getByRole('link', { name: 'Log', exact: true })).not.toBeFocused();
});
