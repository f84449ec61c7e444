// The Agents, Conversations and Threads browsers as support staff use them: page, filter, open,
// continue, create, append, export, replay, and open by id. Each test saves screenshots.
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { Download, Page } from '@playwright/test';
import type { MockServer } from '../../mock/server';
import { bridgeCall, expect, screenshotPath, test } from './fixtures';

function addAgents(mock: MockServer, count: number): void {
  const base = mock.service.state.agents[0];
  if (!base) throw new Error('The mock has no agents.');
  for (let i = 0; i < count; i++) {
    mock.service.state.agents.push({
      ...structuredClone(base),
      agent_id: randomUUID(),
      slug: `extra-${String(i).padStart(2, '0')}`,
      name: `Extra ${String(i).padStart(2, '0')}`,
      status: i % 5 === 4 ? 'stopped' : 'deployed',
    });
  }
  mock.service.changed();
}

function addConversations(
  mock: MockServer,
  agent: string,
  count: number,
  startMs = Date.now() - 86_400_000,
): void {
  for (let i = 0; i < count; i++) {
    const at = new Date(startMs - i * 60_000).toISOString();
    mock.service.state.conversations.push({
      id: `conv_${agent.replace(/\W/g, '')}${i}`,
      agent,
      session_id: `${agent.replace(/\W/g, '')}Session${i}`,
      message_count: 2 + (i % 7) * 2,
      started_at: at,
      last_message_at: at,
      history: [],
    });
  }
}

async function downloaded(download: Download): Promise<string> {
  const path = await download.path();
  return readFileSync(path, 'utf8');
}

function nav(app: Page, name: string) {
  return app.getByRole('navigation', { name: 'Main' }).getByRole('link', { name, exact: true });
}

/** Rows of a browser table, without the header row. */
function bodyRows(app: Page, table: string) {
  return app.getByRole('table', { name: table }).locator('tbody tr:not(.vt-spacer)');
}

test('agents: page through with the service total, search, status badges, detail and playground', async ({
  app,
  mock,
}) => {
  addAgents(mock, 25);
  await nav(app, 'Agents').click();
  const table = app.getByRole('table', { name: 'Agents' });
  await expect(table.getByRole('row', { name: /Echo echo/ })).toBeVisible();
  const pager = app.getByRole('navigation', { name: 'Agents pages' });
  await expect(pager).toContainText('1–20 of 32');
  await expect(pager).toContainText('page 1 of 2');
  await expect(bodyRows(app, 'Agents')).toHaveCount(20);
  // Badges, both models, and the deployment time relative with the exact time on hover.
  const ledger = table.getByRole('row', { name: /Ledger Bot/ });
  await expect(ledger.locator('.status-badge')).toHaveText('error');
  await expect(table.getByRole('row', { name: /Archivist/ }).locator('.status-badge')).toHaveText('stopped');
  await expect(table.getByRole('row', { name: /Echo echo/ })).toContainText('None');
  await expect(table.getByRole('row', { name: /Storyteller/ })).toContainText('mock-small-2026-05');
  await expect(table.getByRole('row', { name: /Echo echo/ }).locator('time')).toHaveText(/days? ago/);
  await expect(table.getByRole('row', { name: /Echo echo/ }).locator('time')).toHaveAttribute(
    'title',
    /\d{4}-\d\d-\d\dT/,
  );
  await app.screenshot({ path: screenshotPath('browsers-agents') });

  await pager.getByRole('button', { name: 'Next' }).click();
  await expect(pager).toContainText('21–32 of 32');
  await expect(bodyRows(app, 'Agents')).toHaveCount(12);
  await expect(pager.getByRole('button', { name: 'Next' })).toBeDisabled();
  await pager.getByLabel('Page size').selectOption('50');
  await expect(pager).toContainText('1–32 of 32');
  await expect(pager.getByRole('button', { name: 'Next' })).toBeDisabled();

  await app.getByRole('searchbox', { name: 'Search' }).fill('story');
  await expect(bodyRows(app, 'Agents')).toHaveCount(1);
  await table.getByRole('row', { name: /Storyteller/ }).click();
  const detail = app.getByRole('region', { name: 'Agent detail' });
  await expect(detail).toContainText('Writes long-form answers');
  await expect(detail).toContainText('mock-large-2026-05');
  await app.screenshot({ path: screenshotPath('browsers-agents-detail') });

  // The view is kept when leaving and coming back.
  await nav(app, 'Threads').click();
  await nav(app, 'Agents').click();
  await expect(app.getByRole('searchbox', { name: 'Search' })).toHaveValue('story');
  await expect(pager.getByLabel('Page size')).toHaveValue('50');
  await expect(detail).toBeVisible();

  await detail.getByRole('button', { name: 'Open in playground' }).click();
  await expect(app).toHaveURL(/#\/playground$/);
});

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

test('loading and error states, with a retry that recovers', async ({ app, mock }) => {
  // Other screens may list agents too: the fault holds until it is cleared.
  mock.control.setFaults({ failNext: { status: 403, count: 1000, pathPrefix: '/api/v1/agents' } });
  await nav(app, 'Agents').click();
  const table = app.getByRole('table', { name: 'Agents' });
  await expect(table.getByRole('alert')).toContainText('PLAN_REQUIRED');
  await expect(table).toContainText('The agents could not be loaded.');
  await app.screenshot({ path: screenshotPath('browsers-agents-error') });
  mock.control.setFaults({ failNext: null });
  await table.getByRole('button', { name: 'Try again' }).click();
  await expect(table.getByRole('row', { name: /Echo echo/ })).toBeVisible();

  mock.control.setFaults({ latencyMs: 1500 });
  await nav(app, 'Threads').click();
  await expect(app.getByRole('table', { name: 'Threads' }).getByRole('status')).toContainText(
    'Loading threads…',
  );
  await app.screenshot({ path: screenshotPath('browsers-threads-loading') });
  await expect(app.getByTestId('threads-count')).toContainText('5 threads');
});

test('an unknown id says so; an agent slug and a thread id open their detail', async ({ app, mock }) => {
  await nav(app, 'Agents').click();
  const search = app.getByRole('searchbox', { name: 'Agent, thread or conversation id' });
  await search.fill('nothing-has-this-id');
  await app.getByRole('button', { name: 'Open', exact: true }).click();
  await expect(app.getByRole('status').filter({ hasText: 'Nothing has the id' })).toBeVisible();

  await search.fill('ledger-bot');
  await app.getByRole('button', { name: 'Open', exact: true }).click();
  await expect(app.getByRole('region', { name: 'Agent detail' })).toContainText('Reconciles invoices');

  const thread = mock.service.state.threads[2];
  if (!thread) throw new Error('The mock has no threads.');
  await search.fill(thread.id);
  await app.getByRole('button', { name: 'Open', exact: true }).click();
  await expect(app).toHaveURL(/#\/threads$/);
  await expect(app.getByRole('region', { name: 'Thread detail' })).toContainText(thread.id);
  await app.screenshot({ path: screenshotPath('browsers-open-by-id') });
});

test.describe('in a dark desktop theme', () => {
  test.use({ colorScheme: 'dark' });
  test('the browsers stay readable', async ({ app }) => {
    await nav(app, 'Agents').click();
    await app
      .getByRole('table', { name: 'Agents' })
      .getByRole('row', { name: /Helpdesk/ })
      .click();
    await expect(app.getByRole('region', { name: 'Agent detail' })).toBeVisible();
    await app.screenshot({ path: screenshotPath('browsers-agents-dark') });
  });
});
