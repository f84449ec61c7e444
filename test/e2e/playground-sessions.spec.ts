// Playground sessions: one reopens with its messages after a reload and from the sidebar, and a
// pasted session id is checked as the service checks it.
import { expect, screenshotPath, test } from './fixtures';
import { chooseAgent, replies, send } from './playground-steps';

test('a session reopens with its messages after the page reloads, and from the sidebar', async ({ app }) => {
  await chooseAgent(app, 'helpdesk');
  await send(app, 'Where is my parcel?');
  await expect(replies(app, 'helpdesk').first()).toHaveAttribute('data-status', 'done');
  await send(app, 'It was due on Monday.');
  await expect(replies(app, 'helpdesk').nth(1)).toHaveAttribute('data-status', 'done');
  await expect(replies(app, 'helpdesk').nth(1)).toContainText('#2 in this conversation');
  const sessionId = (await app.getByTestId('session-id').textContent()) ?? '';
  expect(sessionId).toMatch(/^[A-Za-z0-9]{16,128}$/);
  const sidebar = app.getByRole('navigation', { name: 'Sessions' });
  await expect(sidebar.getByRole('button', { name: /4 msg/ })).toBeVisible();

  await app.reload();
  await app.locator('[data-app-state="ready"]').waitFor();
  await expect(app.getByTestId('session-id')).toHaveText(sessionId);
  await expect(app.getByRole('article', { name: 'Your message' })).toHaveText([
    /Where is my parcel\?/,
    /It was due on Monday\./,
  ]);
  await expect(replies(app, 'helpdesk').nth(1)).toContainText('#2 in this conversation');
  await app.screenshot({ path: screenshotPath('playground-session-reloaded') });

  // A new session is empty; the sidebar brings the old one back, and it continues.
  await app.getByRole('button', { name: 'New session' }).click();
  await expect(app.getByRole('article', { name: 'Your message' })).toHaveCount(0);
  await sidebar.getByRole('button', { name: /4 msg/ }).click();
  await expect(app.getByTestId('session-id')).toHaveText(sessionId);
  await expect(app.getByRole('article', { name: 'Your message' })).toHaveCount(2);
  await send(app, 'Any news?');
  await expect(replies(app, 'helpdesk').nth(2)).toContainText('#3 in this conversation');
  await expect(sidebar.getByRole('button', { name: /6 msg/ })).toBeVisible();
  await app.screenshot({ path: screenshotPath('playground-session-continued') });
});

test('a pasted session id is checked as the service checks it', async ({ app }) => {
  await app.getByRole('button', { name: 'Paste a session id' }).click();
  const form = app.getByRole('form', { name: 'Open a session by id' });
  await form.getByLabel('Session id').fill('not valid!');
  await expect(form).toContainText('only letters and digits');
  await expect(form.getByRole('button', { name: 'Open' })).toBeDisabled();
  await form.getByLabel('Session id').fill('a'.repeat(129));
  await expect(form).toContainText('at most 128 characters; this one is 129');
  await app.screenshot({ path: screenshotPath('playground-paste-invalid') });
  await form.getByLabel('Session id').fill('fromElsewhere42');
  await form.getByRole('button', { name: 'Open' }).click();
  await expect(app.getByTestId('session-id')).toHaveText('fromElsewhere42');
  await expect(app.getByText('This console has no record of this session')).toBeVisible();
});
