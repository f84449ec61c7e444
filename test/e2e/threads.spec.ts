// The Threads browser as support staff use it: create a thread and see the reply, append a message,
// and a thread deleted on the service. Each test saves screenshots.
import { expect, screenshotPath, test } from './fixtures';
import { bodyRows } from './browse-steps';
import { nav } from './playground-steps';

test('threads: create one, see the reply, append a message and see the second reply in place', async ({
  app,
}) => {
  await nav(app, 'Threads').click();
  await expect(app.getByTestId('threads-count')).toContainText('5 threads');
  await app.getByRole('button', { name: 'New thread' }).click();
  const form = app.getByRole('form', { name: 'New thread' });
  await form.getByLabel('Title').fill('Refund for order 1182');
  await form.getByLabel('Agent').selectOption('echo');
  await form.getByLabel('First message').fill('I was charged twice for order 1182.');
  await app.screenshot({ path: screenshotPath('browsers-thread-create') });
  await form.getByRole('button', { name: 'Create thread' }).click();

  const detail = app.getByRole('region', { name: 'Thread detail' });
  await expect(detail.getByRole('heading', { name: 'Refund for order 1182' })).toBeVisible();
  const messages = detail.locator('.message');
  await expect(messages).toHaveCount(2);
  await expect(messages.nth(1)).toContainText('I was charged twice for order 1182.');
  await expect(detail).toContainText('Known from the start');
  await expect(form).toBeHidden();
  await expect(
    app.getByRole('table', { name: 'Threads' }).getByRole('row', { name: /Refund for order 1182/ }),
  ).toBeVisible();

  await detail.getByRole('textbox', { name: 'Message' }).fill('Could you check order 1183 too?');
  await detail.getByRole('button', { name: 'Send' }).click();
  await expect(messages).toHaveCount(4);
  await expect(messages.nth(3)).toContainText('Could you check order 1183 too?');
  await expect(detail.getByRole('textbox', { name: 'Message' })).toHaveValue('');
  await expect(detail).toContainText('Messages4');
  await app.screenshot({ path: screenshotPath('browsers-thread') });

  // Filter by agent and title on the client.
  await app.getByRole('combobox', { name: 'Filter by agent' }).selectOption('echo');
  await app.getByRole('searchbox', { name: 'Filter by title' }).fill('refund for');
  await expect(bodyRows(app, 'Threads')).toHaveCount(1);
  await app.getByRole('searchbox', { name: 'Filter by title' }).fill('no such title');
  await expect(app.getByRole('table', { name: 'Threads' })).toContainText(
    'None of the 6 threads match the filter.',
  );
  await app.screenshot({ path: screenshotPath('browsers-threads-empty') });
});

test('a thread deleted on the service gives "no longer exists" and keeps the typed message', async ({
  app,
  mock,
}) => {
  const thread = mock.service.state.threads[0];
  if (!thread) throw new Error('The mock has no threads.');
  await nav(app, 'Threads').click();
  await app
    .getByRole('table', { name: 'Threads' })
    .getByRole('row', { name: new RegExp(thread.title) })
    .click();
  const detail = app.getByRole('region', { name: 'Thread detail' });
  await expect(detail.getByTestId('history-note')).toContainText('No history known here');

  mock.control.deleteThread(thread.id);
  const typed = 'Please keep this text: the customer wrote it twice already.';
  await detail.getByRole('textbox', { name: 'Message' }).fill(typed);
  await detail.getByRole('button', { name: 'Send' }).click();
  await expect(detail.getByRole('alert')).toContainText('This thread no longer exists');
  await expect(detail.getByRole('textbox', { name: 'Message' })).toHaveValue(typed);
  await expect(detail.getByRole('button', { name: 'Send' })).toBeDisabled();
  await app.screenshot({ path: screenshotPath('browsers-thread-gone') });

  // The text survives leaving the screen, and can start a new thread.
  await nav(app, 'Agents').click();
  await nav(app, 'Threads').click();
  await expect(detail.getByRole('textbox', { name: 'Message' })).toHaveValue(typed);
  await detail.getByRole('button', { name: 'Start a new thread with this message' }).click();
  await expect(app.getByRole('form', { name: 'New thread' }).getByLabel('First message')).toHaveValue(typed);
});
