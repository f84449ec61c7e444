// "Save as test case" from a recorded conversation, as a support person makes a test of one: a
// conversation with the helpdesk is recorded, opened in Conversations, saved as a case into a new
// suite file of the Tests folder, and the Tests screen shows it marked, to run: it passes against
// the mock, each turn with the recorded message. A search hit saves its conversation the same way.
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { bridgeCall, expect, screenshotLightAndDark, test } from './fixtures';
import { nav } from './playground-steps';

let folder: string;
test.beforeEach(({ home }) => {
  folder = mkdtempSync(join(home, 'agent-tests-saved-'));
});
test.afterEach(() => rmSync(folder, { recursive: true, force: true }));

const MESSAGES = ['Hello, I am Ada and I need a refund.', 'It is order 4711.', 'Any news?'];

/** A conversation with the helpdesk of these messages, recorded; the Tests folder open. */
async function recordAndOpenFolder(app: Page, messages: readonly string[]): Promise<string> {
  const sessionId = `pg${randomUUID().replaceAll('-', '')}`;
  for (const message of messages) {
    await bridgeCall(app, 'chat:send', {
      message,
      agent: 'helpdesk',
      session_id: sessionId,
      startedHere: true,
    });
  }
  await nav(app, 'Tests').click();
  await app.getByLabel('Folder of suite files').fill(folder);
  await app.getByRole('button', { name: 'Open', exact: true }).click();
  return sessionId;
}

test('a recorded conversation saved as a test case, opened in Tests, passes when run', async ({ app }) => {
  const sessionId = await recordAndOpenFolder(app, MESSAGES);
  await expect(app.getByText('This folder holds no suite files')).toBeVisible();

  await nav(app, 'Conversations').click();
  await app.getByRole('button', { name: 'Refresh' }).click();
  await app
    .getByRole('table', { name: 'Conversations' })
    .getByRole('row', { name: new RegExp(sessionId) })
    .click();
  const detail = app.getByRole('region', { name: 'Conversation detail' });
  await expect(detail.locator('.message')).toHaveCount(6);
  await detail.getByRole('button', { name: 'Save as test case' }).click();
  const dialog = app.getByRole('dialog', { name: 'Save as test case' });
  await expect(dialog).toContainText('This conversation’s messages as the turns of one case for helpdesk');
  await expect(dialog.getByRole('combobox')).toHaveValue('__new__');
  await dialog.getByRole('textbox', { name: 'New file name' }).fill('from-conversations.yaml');
  await dialog.getByRole('button', { name: 'Save case' }).click();

  // The Tests screen, the new case marked with where to edit it.
  await expect(app).toHaveURL(/#\/tests$/);
  const note = app.getByRole('status').filter({ hasText: 'Saved “Hello, I am Ada and I need a refund.”' });
  await expect(note).toContainText('to from-conversations.yaml, line 6: edit its turns and assertions there');
  const saved = app.locator('.tests-case-saved');
  await expect(saved).toContainText('Hello, I am Ada and I need a refund.');
  const text = readFileSync(join(folder, 'from-conversations.yaml'), 'utf8');
  expect(text).toContain('- message: It is order 4711.');
  expect(text).toContain('- remembers: "4711"');
  await screenshotLightAndDark(app, 'tests-saved-from-conversation');

  await saved.getByRole('button', { name: 'Run case Hello, I am Ada and I need a refund.' }).click();
  await expect(app.getByTestId('run-progress')).toContainText('· passed', { timeout: 60_000 });
  await app
    .getByRole('button', { name: /Hello, I am Ada and I need a refund\. on helpdesk: passed/ })
    .click();
  const turns = app.locator('.tests-step');
  await expect(turns).toHaveCount(3);
  await expect(turns.nth(2)).toContainText('Any news?');
  await expect(turns.nth(2)).toContainText('Refund issued for order 4711.');
  await screenshotLightAndDark(app, 'tests-saved-conversation-run');
});

test('a history search hit saves its conversation as a test case', async ({ app }) => {
  await recordAndOpenFolder(app, MESSAGES.slice(0, 2));
  await app.keyboard.press('Control+k');
  await app.getByRole('searchbox').first().fill('4711');
  await app
    .getByRole('button', { name: /Save .* as test case/ })
    .first()
    .click();
  const dialog = app.getByRole('dialog', { name: 'Save as test case' });
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: 'Save case' }).click();
  await expect(app.locator('.tests-case-saved')).toContainText('Hello, I am Ada and I need a refund.');
  expect(readFileSync(join(folder, 'saved-cases.yaml'), 'utf8')).toContain('- message: It is order 4711.');
});

test('a reply reviewed wrong, with the right answer in its note, is what the saved case expects: the agent that still says otherwise fails it', async ({
  app,
}) => {
  const sessionId = await recordAndOpenFolder(app, MESSAGES.slice(0, 2));
  await nav(app, 'Conversations').click();
  await app.getByRole('button', { name: 'Refresh' }).click();
  await app
    .getByRole('table', { name: 'Conversations' })
    .getByRole('row', { name: new RegExp(sessionId) })
    .click();
  const detail = app.getByRole('region', { name: 'Conversation detail' });
  // The support person's review of the second reply: wrong, and what it should have said.
  await detail.getByRole('button', { name: 'Review message 4' }).click();
  const form = detail.getByRole('form', { name: 'Review of message 4' });
  await form.getByRole('radio', { name: 'Wrong' }).check();
  await form
    .getByRole('textbox', { name: /Note/ })
    .fill('It asked for the order again.\nShould say: Refund issued for order 4711 today.');
  await form.getByRole('button', { name: 'Save review' }).click();
  await expect(detail.locator('.messages > li').nth(3).locator('.verdict')).toHaveText('Wrong');

  await detail.getByRole('button', { name: 'Save as test case' }).click();
  const dialog = app.getByRole('dialog', { name: 'Save as test case' });
  await dialog.getByRole('textbox', { name: 'New file name' }).fill('reviewed.yaml');
  await dialog.getByRole('button', { name: 'Save case' }).click();
  await expect(app.locator('.tests-case-saved')).toContainText('Hello, I am Ada and I need a refund.');
  const text = readFileSync(join(folder, 'reviewed.yaml'), 'utf8');
  expect(text).toContain('Refund issued for order 4711 today.');
  expect(text).not.toContain('It asked for the order again.');

  await app
    .locator('.tests-case-saved')
    .getByRole('button', { name: 'Run case Hello, I am Ada and I need a refund.' })
    .click();
  await expect(app.getByTestId('run-progress')).toContainText('· failed', { timeout: 60_000 });
  await app
    .getByRole('button', { name: /Hello, I am Ada and I need a refund\. on helpdesk: failed/ })
    .click();
  await expect(app.locator('.tests-step').nth(1)).toContainText('Refund issued for order 4711 today.');
});
