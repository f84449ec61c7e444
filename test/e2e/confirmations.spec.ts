// Destructive actions as a user meets them: each asks first in the console's own dialog, naming
// what will be lost and how many; focus starts on Cancel and Escape cancels, so a stray key loses
// nothing; the browser's native confirm() is never used. Reset mock, confirmed, also empties the
// playground's sessions list and the browsers. Screenshots in light and dark.
import type { Locator, Page } from '@playwright/test';
import { expect, screenshotLightAndDark, test } from './fixtures';
import { chooseAgent, nav, replies, send } from './playground-steps';

/** A native dialog would block the page: any one fails the test. */
function refuseNativeDialogs(app: Page): string[] {
  const native: string[] = [];
  app.on('dialog', (dialog) => {
    native.push(dialog.message());
    void dialog.dismiss();
  });
  return native;
}

async function chat(app: Page, agent: string, text: string): Promise<void> {
  await nav(app, 'Playground').click();
  await chooseAgent(app, agent);
  await send(app, text);
  await expect(replies(app, agent).last()).toHaveAttribute('data-status', 'done');
}

/** The dialog is open with focus on its safe button; Escape closes it and nothing happened. */
async function escapeCancels(app: Page, dialog: Locator): Promise<void> {
  await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await app.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
}

test('Reset mock asks first, naming what it deletes and how many; then the sessions list and browsers are empty', async ({
  app,
  mock,
}) => {
  const native = refuseNativeDialogs(app);
  await chat(app, 'echo', 'first session');
  await app.getByRole('button', { name: 'New session' }).click();
  await chat(app, 'helpdesk', 'second session');
  const sessions = app.getByRole('navigation', { name: 'Sessions' }).getByRole('listitem');
  await expect(sessions).toHaveCount(2);
  const held = mock.service.state;
  const [conversations, threads] = [held.conversations.length, held.threads.length];

  await nav(app, 'Mock').click();
  await app.getByRole('button', { name: 'Flaky agent', exact: true }).click();
  await expect(app.getByRole('button', { name: 'Flaky agent', exact: true })).toHaveAttribute(
    'aria-pressed',
    'true',
  );
  await app.getByRole('button', { name: 'Reset mock' }).click();
  const dialog = app.getByRole('dialog', { name: 'Reset the mock?' });
  await expect(dialog).toContainText(
    `This deletes the ${conversations} conversations and ${threads} threads it holds, and this console's records of 2 sessions with it; its demo data comes back. It turns chaos off (Flaky agent).`,
  );
  await screenshotLightAndDark(app, 'confirm-reset-mock');
  // Escape: nothing was reset.
  await escapeCancels(app, dialog);
  await expect(app.getByRole('button', { name: 'Flaky agent', exact: true })).toHaveAttribute(
    'aria-pressed',
    'true',
  );
  expect(mock.service.state.conversations).toHaveLength(conversations);

  await app.getByRole('button', { name: 'Reset mock' }).click();
  await dialog.getByRole('button', { name: 'Reset the mock' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(app.getByRole('button', { name: 'Flaky agent', exact: true })).toHaveAttribute(
    'aria-pressed',
    'false',
  );
  // The sessions the mock no longer holds are gone from the playground's list.
  await nav(app, 'Playground').click();
  await expect(sessions).toHaveCount(0);
  await expect(app.getByRole('navigation', { name: 'Sessions' })).toContainText(
    'Sessions you chat in appear here',
  );
  // The browsers read the mock again: none of the conversations of this test is listed.
  await nav(app, 'Conversations').click();
  await expect(app.getByRole('main')).not.toContainText('first session');
  expect(native).toEqual([]);
});

test('removing a profile, a key, a monitor, a session and the log asks in the app’s dialog with what is lost', async ({
  app,
  mock,
}) => {
  const native = refuseNativeDialogs(app);
  await chat(app, 'echo', 'hello there');

  // Forget a session: how many messages, with whom. Its × shows on hover.
  const session = app.getByRole('navigation', { name: 'Sessions' }).getByRole('listitem');
  await session.hover();
  await app.getByRole('button', { name: /^Forget session / }).click();
  const forget = app.getByRole('dialog', { name: 'Forget this session?' });
  await expect(forget).toContainText("This deletes this computer's record of its 2 messages with echo.");
  await escapeCancels(app, forget);
  await expect(session).toHaveCount(1);
  await session.hover();
  await app.getByRole('button', { name: /^Forget session / }).click();
  await forget.getByRole('button', { name: 'Forget the session' }).click();
  await expect(session).toHaveCount(0);

  // The log: how many requests.
  await nav(app, 'Log').click();
  await app.getByRole('button', { name: 'Clear', exact: true }).click();
  const clear = app.getByRole('dialog', { name: 'Clear the log?' });
  await expect(clear).toContainText(/This deletes the \d+ requests in the log/);
  await screenshotLightAndDark(app, 'confirm-clear-log');
  await escapeCancels(app, clear);
  await expect(app.getByRole('table', { name: 'Requests' })).toContainText('/api/v1/chat');
  await app.getByRole('button', { name: 'Clear', exact: true }).click();
  await clear.getByRole('button', { name: 'Clear the log' }).click();
  await expect(app.getByRole('table', { name: 'Requests' })).not.toContainText('/api/v1/chat');

  // A key and a profile that uses it.
  await nav(app, 'Keys').click();
  const keyForm = app.getByRole('form', { name: 'Add a key' });
  await keyForm.getByLabel('Name').fill('spare');
  await keyForm.getByLabel('Key', { exact: true }).fill(mock.keys.tier30);
  await keyForm.getByLabel('Server').fill(mock.baseUrl);
  await keyForm.getByRole('button', { name: 'Add key' }).click();
  const keyRow = app.getByRole('table', { name: 'Keys' }).getByRole('row').filter({ hasText: 'spare' });
  await keyRow.getByRole('button', { name: 'Remove spare' }).click();
  const removeKey = app.getByRole('dialog', { name: 'Remove the key “spare”?' });
  await expect(removeKey).toContainText(`This deletes its secret (…${mock.keys.tier30.slice(-4)})`);
  await expect(removeKey).toContainText('The key itself stays valid at the service.');
  await screenshotLightAndDark(app, 'confirm-remove-key');
  await escapeCancels(app, removeKey);
  await expect(keyRow).toHaveCount(1);
  await keyRow.getByRole('button', { name: 'Remove spare' }).click();
  await removeKey.getByRole('button', { name: 'Remove the key' }).click();
  await expect(keyRow).toHaveCount(0);

  // A monitor.
  await nav(app, 'Overview').click();
  await app.getByRole('button', { name: 'Add monitor' }).click();
  const monitorForm = app.getByRole('form', { name: 'New monitor' });
  await monitorForm.getByLabel('Name').fill('Night watch');
  await monitorForm.getByRole('button', { name: 'Add monitor' }).click();
  const monitorRow = app
    .getByRole('table', { name: 'Monitors' })
    .getByRole('row')
    .filter({ hasText: 'Night watch' });
  await monitorRow.getByRole('button', { name: 'Edit…' }).click();
  await app.getByRole('button', { name: 'Remove monitor' }).click();
  const removeMonitor = app.getByRole('dialog', { name: 'Remove the monitor “Night watch”?' });
  await expect(removeMonitor).toContainText('This deletes 1 monitor of Embedded mock: its checks stop');
  await escapeCancels(app, removeMonitor);
  await app.getByRole('button', { name: 'Remove monitor' }).click();
  await removeMonitor.getByRole('button', { name: 'Remove the monitor' }).click();
  await expect(monitorRow).toHaveCount(0);
  expect(native).toEqual([]);
});
