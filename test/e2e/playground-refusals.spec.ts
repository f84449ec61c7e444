// What stops a message in the playground, and what the user is told: the 100 KB limit, stopped and
// failing agents, an agent error and a refused key, a 429, and a burst on a tier-30 key that waits
// out the limit. Each test saves a screenshot of the state it reaches.
import type { Page } from '@playwright/test';
import type { MockServer } from '../../mock/server';
import { addKey, addProfile } from './account-steps';
import { expect, screenshotPath, test } from './fixtures';
import { chooseAgent, messageBox, replies, send } from './playground-steps';

async function chatRequests(mock: MockServer): Promise<number> {
  return mock.control.requests().filter((r) => r.path.startsWith('/api/v1/chat')).length;
}

/** Adds the tier-30 demo key on Keys and a profile for it on Profiles, and makes it active. */
async function useTier30Profile(app: Page, mock: MockServer): Promise<void> {
  const key = { name: 'thirty', secret: mock.keys.tier30 };
  await addKey(app, { ...key, server: mock.baseUrl });
  await addProfile(app, { name: 'Tier 30', baseUrl: mock.baseUrl, key, ca: mock.ca });
  await app.getByRole('listitem', { name: 'Tier 30' }).getByRole('button', { name: 'Use' }).click();
  await expect(app.getByRole('status', { name: 'Rate limit' })).toContainText('of 30/min left');
}

test('a message over 100 KB (UTF-8 bytes) is blocked before sending and stays in the box', async ({
  app,
  mock,
}) => {
  await chooseAgent(app, 'echo');
  const before = await chatRequests(mock);
  // 51,201 × "é" is 102,402 bytes, though only 51,201 characters.
  const tooBig = 'é'.repeat(51_201);
  await messageBox(app).fill(tooBig);
  await expect(app.getByTestId('byte-counter')).toHaveText('100.0 KB of 100 KB');
  const problem = app.getByRole('alert').filter({ hasText: 'bytes' });
  await expect(problem).toContainText('102,402 bytes');
  await expect(problem).toContainText('at most 102,400 (100 KB)');
  await expect(app.getByRole('button', { name: 'Send', exact: true })).toBeDisabled();
  await messageBox(app).press('Control+Enter');
  await app.screenshot({ path: screenshotPath('playground-too-big') });
  expect(await chatRequests(mock)).toBe(before);
  await expect(app.getByRole('article', { name: 'Your message' })).toHaveCount(0);
  expect((await messageBox(app).inputValue()).length).toBe(51_201);

  // Exactly 100 KB goes (as one JSON reply: echoed back in 12-character chunks it would take a while).
  await app.getByRole('checkbox', { name: 'Stream' }).uncheck();
  await messageBox(app).fill('a'.repeat(102_400));
  await expect(app.getByTestId('byte-counter')).toHaveText('100.0 KB of 100 KB');
  await expect(problem).toHaveCount(0);
  await messageBox(app).press('Control+Enter');
  await expect(replies(app, 'echo').first()).toHaveAttribute('data-status', 'done');
  expect(await chatRequests(mock)).toBe(before + 1);
});

test('stopped and failing agents are listed with the reason and can be chosen, to see the service answer', async ({
  app,
}) => {
  const picker = app.getByRole('combobox', { name: 'Agent' });
  const archivist = picker.locator('option[value="archivist"]');
  await expect(archivist).toBeEnabled();
  await expect(archivist).toHaveText(/stopped: chat will answer 404 AGENT_NOT_FOUND/);
  await expect(picker.locator('option[value="ledger-bot"]')).toBeEnabled();
  await expect(picker.locator('option[value="ledger-bot"]')).toHaveText(/502 AGENT_ERROR/);
  await expect(picker.locator('option[value="echo"]')).toBeEnabled();

  // A failing agent: the service's own 502 is shown in place and the text stays in the box.
  await picker.selectOption('ledger-bot');
  await expect(app.getByTestId('agent-warning')).toContainText('ledger-bot is in error');
  await send(app, 'Reconcile March');
  const reply = replies(app, 'ledger-bot').first();
  await expect(reply).toHaveAttribute('data-status', 'failed');
  await expect(reply.getByRole('alert')).toContainText('AGENT_ERROR');
  await expect(messageBox(app)).toHaveValue('Reconcile March');

  // In compare mode too.
  await app.getByRole('radio', { name: 'Compare' }).check();
  const group = app.getByRole('group', { name: 'Agents to compare' });
  await expect(group.getByRole('checkbox', { name: /archivist/ })).toBeEnabled();
  await expect(group.getByRole('checkbox', { name: /ledger-bot/ })).toBeEnabled();
  await expect(group.getByRole('checkbox', { name: /echo/ })).toBeEnabled();
  await expect(group).toContainText('archivist(stopped)');
  await app.screenshot({ path: screenshotPath('playground-agents-unavailable') });
});

test('errors in words: an agent error puts the message back in the box, a bad key links to Keys', async ({
  app,
  mock,
}) => {
  await chooseAgent(app, 'glitch');
  await app.getByRole('checkbox', { name: 'Stream' }).uncheck();
  await send(app, 'Will this work?');
  const reply = replies(app, 'glitch').first();
  await expect(reply).toHaveAttribute('data-status', 'failed');
  await expect(reply.getByRole('alert')).toContainText('had an internal error while answering');
  await expect(reply.getByRole('alert')).toContainText('AGENT_ERROR');
  await expect(reply.getByRole('alert')).toContainText('HTTP 502');
  await expect(messageBox(app)).toHaveValue('Will this work?');
  await expect(app.getByText('Your message did not go through, so it is back in the box.')).toBeVisible();
  await app.screenshot({ path: screenshotPath('playground-agent-error') });

  // Retry takes the copy out of the box, so it is not sent twice.
  await chooseAgent(app, 'echo');
  mock.control.setFaults({ failNext: { status: 401, count: 1, pathPrefix: '/api/v1/chat' } });
  await send(app, 'With a bad key');
  const refused = replies(app, 'echo').first();
  await expect(refused.getByRole('alert')).toContainText('INVALID_KEY');
  await expect(refused.getByRole('alert')).toContainText('The service refused the key');
  await refused.getByRole('button', { name: 'Retry' }).click();
  await expect(refused).toHaveAttribute('data-status', 'done');
  await expect(messageBox(app)).toHaveValue('');

  mock.control.setFaults({ failNext: { status: 401, count: 1, pathPrefix: '/api/v1/chat' } });
  await send(app, 'Again with a bad key');
  const again = replies(app, 'echo').nth(1);
  await again.getByRole('button', { name: 'Open Keys' }).click();
  await expect(app.getByRole('heading', { name: 'Keys', level: 1 })).toBeVisible();
});

test('a 429 shows a countdown; "Send when allowed" sends it when the wait is over', async ({ app, mock }) => {
  await chooseAgent(app, 'echo');
  mock.control.setFaults({ failNext: { status: 429, count: 1, pathPrefix: '/api/v1/chat' } });
  await send(app, 'Limited once');
  const reply = replies(app, 'echo').first();
  await expect(reply).toHaveAttribute('data-status', 'failed');
  await expect(reply.getByRole('alert')).toContainText('RATE_LIMITED');
  await expect(reply.getByTestId('rate-countdown')).toContainText(/You can send again (in \d+ s|now)/);
  await expect(messageBox(app)).toHaveValue('Limited once');
  await app.screenshot({ path: screenshotPath('playground-rate-limited') });
  await reply.getByRole('button', { name: 'Send when allowed' }).click();
  await expect(messageBox(app)).toHaveValue('');
  await expect(reply).toHaveAttribute('data-status', 'done', { timeout: 15_000 });
  await expect(reply.getByTestId('reply-text')).toContainText('Echo: Limited once');
});

test('with the tier-30 demo key, a burst of sends waits out the limit with a countdown and loses nothing', async ({
  app,
  mock,
}) => {
  test.setTimeout(180_000);
  await useTier30Profile(app, mock);
  await app.getByRole('link', { name: 'Playground' }).click();
  await chooseAgent(app, 'echo');
  await app.getByRole('checkbox', { name: 'Stream' }).uncheck();
  const burst = 34;
  for (let i = 1; i <= burst; i++) {
    await messageBox(app).fill(`burst ${i}`);
    await messageBox(app).press('Control+Enter');
  }
  // Every message is in the transcript at once; the ones past the limit wait with a countdown.
  await expect(app.getByRole('article', { name: 'Your message' })).toHaveCount(burst);
  const countdown = app.getByTestId('rate-countdown').first();
  await expect(countdown).toContainText(/Sends in \d+ s/, { timeout: 30_000 });
  await expect(app.getByRole('status', { name: 'Rate limit' })).toContainText('0 of 30/min left');
  await countdown.scrollIntoViewIfNeeded();
  await app.screenshot({ path: screenshotPath('playground-rate-burst') });
  // No 429 was needed: the console held the requests it knew would be refused.
  expect(mock.control.requests().filter((r) => r.status === 429)).toHaveLength(0);

  await expect(app.locator('[aria-label="Reply from echo"][data-status="done"]')).toHaveCount(burst, {
    timeout: 120_000,
  });
  for (const i of [1, 17, burst]) {
    await expect(
      replies(app, 'echo')
        .nth(i - 1)
        .getByTestId('reply-text'),
    ).toHaveText(`Echo: burst ${i}`);
  }
});
