// The Conversations browser as support staff use it: filter by agent, page with the total, sort and
// keep the view; open one started in the playground by its session id; export every page of a
// filter; replay against another agent; 10,000 of them, virtualised. Each test saves screenshots.
import { randomUUID } from 'node:crypto';
import { bridgeCall, expect, screenshotPath, test } from './fixtures';
import { addConversations, bodyRows, downloaded } from './browse-steps';
import { nav } from './playground-steps';

test('conversations: filter by agent, page through with the total, sort, and keep the view', async ({
  app,
  mock,
}) => {
  addConversations(mock, 'helpdesk', 30);
  await nav(app, 'Conversations').click();
  const pager = app.getByRole('navigation', { name: 'Conversations pages' });
  await expect(pager).toContainText('1–20 of 78');
  await app.getByRole('combobox', { name: 'Filter by agent' }).selectOption('helpdesk');
  // 30 added + 8 seeded.
  await expect(pager).toContainText('1–20 of 38');
  const rows = bodyRows(app, 'Conversations');
  await expect(rows).toHaveCount(20);
  for (const agent of await rows.locator('td:nth-child(2)').allTextContents()) expect(agent).toBe('helpdesk');
  await pager.getByRole('button', { name: 'Next' }).click();
  await expect(pager).toContainText('21–38 of 38');
  await expect(rows).toHaveCount(18);
  await expect(pager.getByRole('button', { name: 'Next' })).toBeDisabled();

  // Sort within the loaded rows.
  const table = app.getByRole('table', { name: 'Conversations' });
  await table.getByRole('button', { name: 'Messages' }).click();
  await expect(table.getByRole('columnheader', { name: 'Messages' })).toHaveAttribute(
    'aria-sort',
    'ascending',
  );
  const counts = (await rows.locator('td:nth-child(3)').allTextContents()).map(Number);
  expect(counts).toEqual([...counts].sort((a, b) => a - b));
  await table.getByRole('button', { name: 'Messages' }).click();
  await expect(table.getByRole('columnheader', { name: 'Messages' })).toHaveAttribute(
    'aria-sort',
    'descending',
  );
  await app.screenshot({ path: screenshotPath('browsers-conversations') });

  await nav(app, 'Agents').click();
  await expect(app.getByRole('table', { name: 'Agents' })).toBeVisible();
  await nav(app, 'Conversations').click();
  await expect(app.getByRole('combobox', { name: 'Filter by agent' })).toHaveValue('helpdesk');
  await expect(pager).toContainText('21–38 of 38');
  await expect(table.getByRole('columnheader', { name: 'Messages' })).toHaveAttribute(
    'aria-sort',
    'descending',
  );
});

test('a conversation started from the playground opens by session id with its transcript; continue asks first', async ({
  app,
}) => {
  const sessionId = `pg${randomUUID().replaceAll('-', '')}`;
  // What the playground sends for a new session it started.
  await bridgeCall(app, 'chat:send', {
    message: 'Where is my invoice?',
    agent: 'echo',
    session_id: sessionId,
    startedHere: true,
  });
  await bridgeCall(app, 'chat:send', {
    message: 'And the one before?',
    agent: 'echo',
    session_id: sessionId,
    startedHere: true,
  });

  await nav(app, 'Conversations').click();
  await app.getByRole('button', { name: 'Refresh' }).click();
  const row = app
    .getByRole('table', { name: 'Conversations' })
    .getByRole('row', { name: new RegExp(sessionId) });
  await expect(row).toContainText('Known');
  await row.click();
  const detail = app.getByRole('region', { name: 'Conversation detail' });
  await expect(detail).toContainText('echo');
  await expect(detail).toContainText('Known from the start: 4 messages');
  const messages = detail.locator('.message');
  await expect(messages).toHaveCount(4);
  await expect(messages.nth(0)).toContainText('Where is my invoice?');
  await expect(messages.nth(1)).toContainText('Where is my invoice?');
  await expect(messages.nth(2)).toContainText('And the one before?');
  await app.screenshot({ path: screenshotPath('browsers-conversation-transcript') });

  // A seeded conversation: no history here, said plainly.
  await app.getByRole('table', { name: 'Conversations' }).locator('tbody tr:not(.vt-spacer)').nth(1).click();
  await expect(detail.getByTestId('history-note')).toContainText('No history known here');
  await app.screenshot({ path: screenshotPath('browsers-conversation-unknown') });

  // Open by id from the search box lands on it again.
  await nav(app, 'Threads').click();
  await app.getByRole('searchbox', { name: 'Agent, thread or conversation id' }).fill(sessionId);
  await app.getByRole('button', { name: 'Open', exact: true }).click();
  await expect(app).toHaveURL(/#\/conversations$/);
  await expect(detail).toContainText(sessionId);
  await expect(detail.locator('.message')).toHaveCount(4);

  await detail.getByRole('button', { name: 'Continue in playground' }).click();
  const dialog = app.getByRole('dialog', { name: 'Continue this conversation?' });
  await expect(dialog).toContainText('added to its history on the service');
  await app.screenshot({ path: screenshotPath('browsers-conversation-continue') });
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
  await expect(app).toHaveURL(/#\/conversations$/);
  await detail.getByRole('button', { name: 'Continue in playground' }).click();
  await dialog.getByRole('button', { name: 'Continue in playground' }).click();
  await expect(app).toHaveURL(/#\/playground$/);
});

test('export: every page of the filter as CSV (and JSON), paced by the limiter, with progress', async ({
  app,
  mock,
}) => {
  addConversations(mock, 'storyteller', 242);
  // Slow replies, so the progress of the page-by-page read can be seen.
  mock.control.setFaults({ latencyMs: 400 });
  await nav(app, 'Conversations').click();
  await app.getByRole('combobox', { name: 'Filter by agent' }).selectOption('storyteller');
  const pager = app.getByRole('navigation', { name: 'Conversations pages' });
  await expect(pager).toContainText('of 250');

  const download = app.waitForEvent('download');
  await app.getByRole('button', { name: 'Export CSV' }).click();
  const progress = app.getByRole('status', { name: 'Loading every page' });
  await expect(progress).toContainText('of storyteller');
  await expect(progress).toContainText(/page [12] of 3/);
  await app.screenshot({ path: screenshotPath('browsers-export-progress') });
  const csv = await downloaded(await download);
  const lines = csv.trimEnd().split('\r\n');
  expect(lines[0]).toBe('id,session_id,agent,message_count,started_at,last_message_at,status');
  expect(lines).toHaveLength(251);
  expect(new Set(lines.slice(1).map((l) => l.split(',')[0])).size).toBe(250);
  expect(lines.slice(1).every((l) => l.split(',')[2] === 'storyteller')).toBe(true);
  await expect(app.getByTestId('export-status')).toContainText('Exported 250 conversations');
  await app.screenshot({ path: screenshotPath('browsers-export-done') });

  // JSON reuses the pages just read: no request goes out for it.
  mock.control.setFaults({ latencyMs: 0 });
  const before = mock.control.requests().length;
  const jsonDownload = app.waitForEvent('download');
  await app.getByRole('button', { name: 'Export JSON' }).click();
  const json = JSON.parse(await downloaded(await jsonDownload)) as {
    filter: { agent: string };
    conversations: unknown[];
  };
  expect(json.filter.agent).toBe('storyteller');
  expect(json.conversations).toHaveLength(250);
  expect(mock.control.requests().length).toBe(before);
});

test('replay: a known conversation against a second agent, side by side with the original replies', async ({
  app,
}) => {
  const sessionId = `rp${randomUUID().replaceAll('-', '')}`;
  for (const message of ['How do I reset my password?', 'And my two-factor device?']) {
    await bridgeCall(app, 'chat:send', { message, agent: 'echo', session_id: sessionId, startedHere: true });
  }
  await nav(app, 'Conversations').click();
  await app.getByRole('searchbox', { name: 'Agent, thread or conversation id' }).fill(sessionId);
  await app.getByRole('button', { name: 'Open', exact: true }).click();
  const detail = app.getByRole('region', { name: 'Conversation detail' });
  await expect(detail.locator('.message')).toHaveCount(4);
  await detail.getByRole('button', { name: 'Replay…' }).click();

  const replay = app.getByRole('region', { name: 'Replay' });
  await replay.getByRole('combobox', { name: 'Replay agent' }).selectOption('helpdesk');
  await replay.getByRole('button', { name: 'Run replay' }).click();
  await expect(replay.getByTestId('replay-progress')).toContainText('2 of 2 replayed');
  const table = replay.getByRole('table', { name: 'Replay comparison' });
  await expect(table.getByRole('columnheader')).toHaveText([
    'Message',
    'Original · echo',
    'Replay · helpdesk',
  ]);
  const rows = table.locator('tbody tr');
  await expect(rows).toHaveCount(2);
  // Echo repeats the message; the helpdesk answers something else.
  await expect(rows.nth(0).locator('td').nth(1)).toContainText('How do I reset my password?');
  await expect(rows.nth(0).locator('td').nth(2)).not.toBeEmpty();
  await expect(rows.nth(0).locator('td').nth(2)).not.toHaveText('How do I reset my password?');
  await expect(rows.nth(1).locator('td').nth(0)).toContainText('And my two-factor device?');
  await replay.scrollIntoViewIfNeeded();
  await app.screenshot({ path: screenshotPath('browsers-replay'), fullPage: true });
});

test('10,000 conversations load page by page and scroll virtualised; the scroll is kept', async ({
  app,
  mock,
}) => {
  test.setTimeout(120_000);
  addConversations(mock, 'slowpoke', 10_000 - 48, Date.now() - 2 * 86_400_000);
  // 100 pages of 100: raise the key's tier so the limiter need not spread them over two minutes.
  mock.control.updateKey('pro', { tier: 300 });
  await nav(app, 'Conversations').click();
  const pager = app.getByRole('navigation', { name: 'Conversations pages' });
  await expect(pager).toContainText('of 10000');
  await pager.getByLabel('Page size').selectOption('all');
  await expect(app.getByRole('status', { name: 'Loading every page' })).toBeVisible();
  await expect(pager).toContainText('All 10000 of 10000', { timeout: 60_000 });

  const rows = bodyRows(app, 'Conversations');
  expect(await rows.count()).toBeLessThan(80);
  const height = await rows.first().evaluate((tr) => tr.getBoundingClientRect().height);
  expect(height).toBe(36);
  const scroller = app.locator('.vt-scroll');
  await scroller.evaluate((el) => (el.scrollTop = el.scrollHeight));
  await expect(
    app.getByRole('table', { name: 'Conversations' }).locator('tr[aria-rowindex="10001"]'),
  ).toBeVisible();
  expect(await rows.count()).toBeLessThan(80);
  await scroller.evaluate((el) => (el.scrollTop = 36 * 5000));
  await expect(
    app.getByRole('table', { name: 'Conversations' }).locator('tr[aria-rowindex="5002"]'),
  ).toBeVisible();
  await app.screenshot({ path: screenshotPath('browsers-conversations-10k') });

  await nav(app, 'Threads').click();
  await nav(app, 'Conversations').click();
  await expect(
    app.getByRole('table', { name: 'Conversations' }).locator('tr[aria-rowindex="5002"]'),
  ).toBeVisible();
  expect(await scroller.evaluate((el) => el.scrollTop)).toBe(36 * 5000);
});
