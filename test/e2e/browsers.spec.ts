// The Agents browser as support staff use it, and what all three browsers share: page, search,
// status badges, the detail and the playground; loading and error states with a retry; open by
// id; a dark theme. Conversations are in conversations.spec.ts, threads in threads.spec.ts. Each
// test saves screenshots.
import { expect, screenshotPath, test } from './fixtures';
import { addAgents, bodyRows } from './browse-steps';
import { nav } from './playground-steps';

test('agents: page through with the service total, search, status badges, detail and playground', async ({
  app,
  mock,
}) => {
  addAgents(mock, 24); // with the 9 seeded: 33
  await nav(app, 'Agents').click();
  const table = app.getByRole('table', { name: 'Agents' });
  await expect(table.getByRole('row', { name: /Echo echo/ })).toBeVisible();
  const pager = app.getByRole('navigation', { name: 'Agents pages' });
  await expect(pager).toContainText('1–20 of 33');
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
  await expect(pager).toContainText('21–33 of 33');
  await expect(bodyRows(app, 'Agents')).toHaveCount(13);
  await expect(pager.getByRole('button', { name: 'Next' })).toBeDisabled();
  await pager.getByLabel('Page size').selectOption('50');
  await expect(pager).toContainText('1–33 of 33');
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
