// curl and HAR in, as a person uses them: a curl command pasted into the Playground in the five
// shapes people paste (headers before or after the URL, --data-raw, -d @file, line continuations,
// --json) fills the composer, the key in it appears nowhere on the page, and the stored profile
// offered for its server sends the message; the Log's own HAR export comes back after a clear;
// a HAR becomes a suite that passes against the mock.
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Locator, Page } from '@playwright/test';
import { expect, screenshotLightAndDark, test } from './fixtures';
import { keyRuns } from '../security/leak-check';
import { messageBox, nav, replies } from './playground-steps';

/** Pastes `text` into `target` as the clipboard would: a real paste event with the text on it. */
async function paste(target: Locator, text: string): Promise<void> {
  await target.focus();
  await target.evaluate((element, pasted) => {
    const data = new DataTransfer();
    data.setData('text/plain', pasted);
    element.dispatchEvent(
      new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }),
    );
  }, text);
}

/** Everything the page holds as text: its markup, every field's value, and browser storage. */
async function everythingOnPage(app: Page): Promise<string> {
  const values = await app.evaluate(() =>
    [...document.querySelectorAll('input, textarea, select')]
      .map((field) => (field as HTMLInputElement).value)
      .join('\n'),
  );
  const storage = await app.evaluate(() => JSON.stringify({ ...localStorage, ...sessionStorage }));
  return `${await app.content()}\n${values}\n${storage}`;
}

const panel = (app: Page) => app.getByRole('region', { name: 'Imported from curl' });
const agentPicker = (app: Page) => app.getByRole('combobox', { name: 'Agent' });
const streamBox = (app: Page) => app.getByRole('checkbox', { name: 'Stream' });

test('the five shapes of a pasted curl fill the composer, and the key in them is nowhere on the page', async ({
  app,
  mock,
}) => {
  const key = mock.keys.pro;
  const chat = `${mock.baseUrl}/api/v1/chat`;
  await expect(agentPicker(app).locator('option[value="helpdesk"]')).toBeAttached();
  const shapes: { name: string; command: string; message: string; agent: string; stream: boolean }[] = [
    {
      name: 'headers before and after the URL',
      command: `curl -H 'Content-Type: application/json' -X POST ${chat} -H "Authorization: Bearer ${key}" -d '{"message":"Where is order 7?","agent":"helpdesk","stream":true}'`,
      message: 'Where is order 7?',
      agent: 'helpdesk',
      stream: true,
    },
    {
      name: '--data-raw',
      command: `curl '${chat}' --header 'Authorization: Bearer ${key}' --data-raw '{"message":"it'\\''s raw","agent":"echo","stream":false}'`,
      message: "it's raw",
      agent: 'echo',
      stream: false,
    },
    {
      name: 'line continuations',
      command: `curl -X POST ${chat} \\\n  -H "Authorization: Bearer $AGENT_API_KEY" \\\n  -H 'Content-Type: application/json' \\\n  -d '{"message":"over lines","agent":"storyteller","stream":true}'`,
      message: 'over lines',
      agent: 'storyteller',
      stream: true,
    },
    {
      name: '--json',
      command: `curl --json '{"message":"json it","agent":"echo"}' ${chat} -H "Authorization: Bearer ${key}"`,
      message: 'json it',
      agent: 'echo',
      stream: false,
    },
  ];
  for (const shape of shapes) {
    await messageBox(app).fill('');
    await paste(messageBox(app), shape.command);
    await expect(panel(app), shape.name).toContainText('Took the message');
    await expect(messageBox(app), shape.name).toHaveValue(shape.message);
    await expect(agentPicker(app), shape.name).toHaveValue(shape.agent);
    if (shape.stream) await expect(streamBox(app), shape.name).toBeChecked();
    else await expect(streamBox(app), shape.name).not.toBeChecked();
    await expect(panel(app)).toContainText(`Server ${mock.baseUrl}`);
    expect(keyRuns(await everythingOnPage(app), key), shape.name).toEqual([]);
  }
  await expect(panel(app)).toContainText('The key written in the command was not kept');
  await screenshotLightAndDark(app, 'imports-curl-pasted');

  // -d @file: the page cannot open the file; it says so and keeps the rest.
  await messageBox(app).fill('');
  await paste(
    messageBox(app),
    `curl -N ${chat} -H 'Accept: text/event-stream' -H "Authorization: Bearer ${key}" -d @body.json`,
  );
  await expect(panel(app)).toContainText(
    'read from the file body.json, which a pasted command cannot open here',
  );
  await expect(panel(app)).toContainText('Took no message');
  await expect(streamBox(app)).toBeChecked();
  await expect(messageBox(app)).toHaveValue('');
  await screenshotLightAndDark(app, 'imports-curl-file');
  expect(keyRuns(await everythingOnPage(app), key)).toEqual([]);

  // A call that is not a chat says what it is and what the Playground takes.
  await paste(messageBox(app), `curl ${mock.baseUrl}/api/v1/agents -H "Authorization: Bearer ${key}"`);
  await expect(panel(app).getByRole('alert')).toContainText('the list of agents');
  await expect(panel(app).getByRole('alert')).toContainText('POST /api/v1/chat');
  // An unclosed quote is refused in words; the command is not echoed.
  await paste(messageBox(app), `curl ${chat} -H "Authorization: Bearer ${key}" -d '{"message":"cut`);
  await expect(panel(app).getByRole('alert')).toContainText('quote that is never closed');
  expect(keyRuns(await everythingOnPage(app), key)).toEqual([]);
  await app.getByRole('button', { name: 'Dismiss the curl import' }).click();
  await expect(panel(app)).toHaveCount(0);

  // A server no profile is for: the panel says so and starts a profile for it, key entered there.
  await paste(messageBox(app), `curl https://agents.example.com/team/api/v1/chat --json '{"message":"hi"}'`);
  await expect(panel(app)).toContainText(
    'Server https://agents.example.com/team: no profile is for this server yet.',
  );
  await panel(app).getByRole('button', { name: 'Create a profile for it…' }).click();
  await expect(app.getByRole('form', { name: 'Add a profile' }).getByLabel('Base URL')).toHaveValue(
    'https://agents.example.com/team',
  );
});

test('Import from curl… takes a paste, and the offered stored profile sends the message with a streamed reply', async ({
  app,
  core,
  mock,
}) => {
  mock.control.setAgent('echo', { latencyMs: 0, chunkDelayMs: 5 });
  // A second stored profile for the mock's server; the Embedded mock stays the active one.
  const stored = await core.vault.add({
    name: 'team key',
    secret: mock.keys.pro,
    sessionOnly: true,
    origins: [new URL(mock.baseUrl).origin],
  });
  core.profiles.add({ name: 'Team', baseUrl: mock.baseUrl, keyId: stored.id, caCertPem: mock.ca });
  const profiles = app.getByRole('combobox', { name: 'Profile' });
  await expect(profiles.getByRole('option', { name: 'Team' })).toBeAttached();

  await app.getByRole('button', { name: 'Import from curl…' }).click();
  const dialog = app.getByRole('dialog', { name: 'Import from curl' });
  await paste(
    dialog.getByRole('textbox', { name: 'Paste a curl command' }),
    `curl -N ${mock.baseUrl}/api/v1/chat ^\n  -H "Authorization: Bearer ${mock.keys.pro}" ^\n  --json "{\\"message\\":\\"from the team\\",\\"agent\\":\\"echo\\",\\"stream\\":true}"`,
  );
  await expect(dialog).toBeHidden();
  await expect(messageBox(app)).toHaveValue('from the team');
  await expect(panel(app)).toContainText('sending with the active profile Embedded mock');
  await panel(app).getByRole('button', { name: 'Use profile Team' }).click();
  await expect(profiles).toHaveValue(/./);
  await expect(profiles.locator('option:checked')).toHaveText('Team');
  await expect(panel(app)).toContainText('sending with the active profile Team');
  await screenshotLightAndDark(app, 'imports-curl-profile');

  await app.getByRole('button', { name: 'Send', exact: true }).click();
  const reply = replies(app, 'echo').last();
  await expect(reply).toContainText('Echo: from the team');
  // Streamed: the inspector times its first chunk.
  await expect(reply.getByRole('complementary', { name: 'Stream inspector' })).toContainText('first chunk');
  expect(keyRuns(await everythingOnPage(app), mock.keys.pro)).toEqual([]);
});

test('the Log’s HAR export comes back after a clear, marked as imported; a HAR becomes a suite that passes', async ({
  app,
  core,
  home,
  mock,
}) => {
  mock.control.setAgent('echo', { latencyMs: 0, chunkDelayMs: 0 });
  await core.chat.send({ message: 'first', agent: 'echo' });
  const { stream, recorded } = await core.chat.stream({ message: 'second', agent: 'echo' });
  for await (const _chunk of stream) {
    // Read to its end, as the bridge reads it.
  }
  await recorded;
  await nav(app, 'Log').click();
  const rows = app.getByRole('table', { name: 'Requests' }).locator('tbody tr');
  await expect(rows.filter({ hasText: '/api/v1/chat' })).toHaveCount(2);
  const rowTexts = async () =>
    (await rows.allInnerTexts()).map((text) => text.replace('HAR/', '/').replace(/\s+/g, ' ').trim());
  const before = await rowTexts();

  const download = app.waitForEvent('download');
  await app.getByRole('button', { name: 'Export HAR' }).click();
  const harPath = join(home, 'session.har');
  await (await download).saveAs(harPath);
  await app.getByRole('button', { name: 'Clear', exact: true }).click();
  await app.getByRole('dialog').getByRole('button', { name: 'Clear the log' }).click();
  await expect(app.getByText('No requests yet.')).toBeVisible();

  await app.getByLabel('Import HAR…').setInputFiles(harPath);
  await expect(app.getByRole('status').filter({ hasText: 'Imported' })).toContainText(
    `Imported ${before.length} requests from session.har`,
  );
  await expect(rows.filter({ has: app.getByTitle('Imported from session.har') })).toHaveCount(before.length);
  // The same requests, in the same order: time, method, path, status, duration and request id.
  expect(await rowTexts()).toEqual(before);
  await rows.filter({ hasText: '/api/v1/chat' }).first().click();
  const detail = app.getByRole('region', { name: 'Request detail' });
  await expect(detail).toContainText('session.har');
  await expect(detail).toContainText('"message":"second"');
  await screenshotLightAndDark(app, 'imports-har-log');

  // The same file as test cases, in a folder of the user's.
  const folder = join(home, 'suites');
  mkdirSync(folder);
  await nav(app, 'Tests').click();
  await app.getByLabel('Folder of suite files').fill(folder);
  await app.getByRole('button', { name: 'Open', exact: true }).click();
  await app.getByLabel('Import HAR as cases…').setInputFiles(harPath);
  await expect(app.getByRole('status').filter({ hasText: 'Wrote' })).toContainText(
    'Wrote 2 cases from session.har to session.yaml',
  );
  await expect(app.getByRole('list', { name: 'Suites' })).toContainText('Imported from session.har');
  expect(readFileSync(join(folder, 'session.yaml'), 'utf8')).toContain('contains: "Echo: second"');
  await screenshotLightAndDark(app, 'imports-har-cases');
  await app.getByRole('button', { name: 'Run all' }).click();
  await expect(app.getByTestId('run-progress')).toContainText('· passed', { timeout: 60_000 });
});
