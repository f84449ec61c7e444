// Compare in the playground: one message to several agents, streamed side by side with their
// timing, each waiting for its first chunk on its own, and what one failing agent (or all) means
// for the message. Each test saves a screenshot of the state it reaches.
import type { Locator, Route } from '@playwright/test';
import { sendToAll } from './compare-steps';
import { expect, screenshotPath, test } from './fixtures';
import { chooseAgent, messageBox, replies, send } from './playground-steps';

test('compare: one message to two agents, streamed side by side with their timing', async ({ app, mock }) => {
  mock.control.setAgent('storyteller', { chunkDelayMs: 10, chunkCount: 80, latencyMs: 100 });
  await app.getByRole('radio', { name: 'Compare' }).check();
  const group = app.getByRole('group', { name: 'Agents to compare' });
  // The first two deployed agents start ticked; with fewer than two, nothing can be sent.
  await expect(group.getByRole('checkbox', { checked: true })).toHaveCount(2);
  const ticked = group.getByRole('checkbox', { checked: true });
  while ((await ticked.count()) > 0) await ticked.first().uncheck();
  await expect(app.getByRole('button', { name: 'Send to all' })).toBeDisabled();
  await app.screenshot({ path: screenshotPath('playground-compare-empty') });
  await group.getByRole('checkbox', { name: /echo/ }).check();
  await group.getByRole('checkbox', { name: /storyteller/ }).check();
  await messageBox(app).fill('Which of you is faster?');
  await app.getByRole('button', { name: 'Send to all' }).click();
  const round = app.getByRole('listitem', { name: 'Comparison' });
  const echo = round.getByRole('article', { name: 'Reply from echo' });
  const story = round.getByRole('article', { name: 'Reply from storyteller' });
  await expect(echo).toHaveAttribute('data-status', 'done');
  await expect(story).toHaveAttribute('data-status', 'done');
  await expect(echo.getByTestId('reply-text')).toContainText('Echo: Which of you is faster?');
  await expect(story.getByTestId('chunk-count')).toHaveText('80');
  for (const reply of [echo, story]) {
    await expect(reply.getByTestId('ttfc')).toHaveText(/\d+ ms|\d\.\d+ s/);
    await expect(reply.getByTestId('total')).toHaveText(/\d+ ms|\d\.\d+ s/);
  }
  // Side by side: the two columns share a row.
  const [a, b] = [await echo.boundingBox(), await story.boundingBox()];
  expect(a && b && Math.abs(a.y - b.y) < 2 && a.x < b.x).toBe(true);
  await app.screenshot({ path: screenshotPath('playground-compare') });
});

test('a reply says it waits for its first chunk only until text is there, in chat and in compare', async ({
  app,
  mock,
}) => {
  mock.control.setAgent('storyteller', { chunkDelayMs: 100, chunkCount: 60, latencyMs: 0 });
  // The answer to chat:stream comes after the stream's first chunks, as it can on a busy machine:
  // the events arrive on their own channel while the call's answer is on its way.
  await app.route('**/bridge/calls', async (route: Route) => {
    const calls = JSON.parse(route.request().postData() ?? '[]') as [string, unknown][];
    if (!calls.some(([call]) => call === 'chat:stream')) return route.continue();
    const response = await route.fetch();
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    await route.fulfill({ response });
  });
  const waiting = (reply: Locator): Locator => reply.getByText('Waiting for the first chunk…');
  await chooseAgent(app, 'storyteller');
  await send(app, 'Tell me a long story.');
  const reply = replies(app, 'storyteller').first();
  // Read at once, not waited for: the line must be gone as soon as there is text, not later.
  await expect(reply.getByTestId('reply-text')).not.toBeEmpty();
  expect(await waiting(reply).count()).toBe(0);

  await sendToAll(app, ['echo', 'storyteller'], 'And another.');
  const story = app
    .getByRole('listitem', { name: 'Comparison' })
    .getByRole('article', { name: 'Reply from storyteller' });
  await expect(story.getByTestId('reply-text')).not.toBeEmpty();
  expect(await waiting(story).count()).toBe(0);
});

test('compare: one agent of four failing leaves the message sent; all failing puts it back', async ({
  app,
}) => {
  await sendToAll(app, ['echo', 'helpdesk', 'glitch', 'archivist'], 'Who is there?');
  const round = app.getByRole('listitem', { name: 'Comparison' }).first();
  await expect(round.getByRole('article', { name: 'Reply from archivist' })).toHaveAttribute(
    'data-status',
    'failed',
  );
  await expect(round.getByRole('article', { name: 'Reply from echo' })).toHaveAttribute(
    'data-status',
    'done',
  );
  await expect(app.getByText(/back in the box/)).toHaveCount(0);
  await expect(messageBox(app)).toHaveValue('');

  await sendToAll(app, ['archivist', 'ledger-bot'], 'Anyone?');
  await expect(app.getByText('No agent got your message, so it is back in the box.')).toBeVisible();
  await expect(messageBox(app)).toHaveValue('Anyone?');
});
