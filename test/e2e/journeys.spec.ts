// Journeys across screens that must land where they promise: hand-offs into the
// playground, a chosen agent that is never swapped behind the user's back, sending per profile and
// key, a reload mid-stream, and a thread's agent from the local record. Each test asserts what
// the user sees, and saves a screenshot of the state it reaches.
import { randomUUID } from 'node:crypto';
import type { Locator, Page } from '@playwright/test';
import { bridgeCall, expect, screenshotPath, test } from './fixtures';
import { chooseAgent, messageBox, nav, replies, send } from './playground-steps';

const picker = (app: Page): Locator => app.getByRole('combobox', { name: 'Agent' });

/** The open session as the core recorded it (its transcript). */
async function recordedSession(app: Page): Promise<{ messages: { role: string; content: string }[] }> {
  const sessionId = await app.getByTestId('session-id').textContent();
  return bridgeCall(app, 'transcripts:get', { kind: 'session', id: sessionId });
}

test('"Continue in playground" on a helpdesk conversation sends into that conversation', async ({ app }) => {
  const sessionId = `hd${randomUUID().replaceAll('-', '')}`;
  await bridgeCall(app, 'chat:send', {
    message: 'My printer is on fire',
    agent: 'helpdesk',
    session_id: sessionId,
    startedHere: true,
  });
  // The playground is on another agent and another session before the hand-off.
  await chooseAgent(app, 'echo');
  const before = await app.getByTestId('session-id').textContent();

  await nav(app, 'Conversations').click();
  await app.getByRole('button', { name: 'Refresh' }).click();
  await app
    .getByRole('table', { name: 'Conversations' })
    .getByRole('row', { name: new RegExp(sessionId) })
    .click();
  const detail = app.getByRole('region', { name: 'Conversation detail' });
  await detail.getByRole('button', { name: 'Continue in playground' }).click();
  await app
    .getByRole('dialog', { name: 'Continue this conversation?' })
    .getByRole('button', { name: 'Continue in playground' })
    .click();

  await expect(picker(app)).toHaveValue('helpdesk');
  await expect(app.getByTestId('session-id')).not.toHaveText(before ?? '');
  // Its known history is shown…
  await expect(app.getByRole('article', { name: 'Your message' }).first()).toContainText(
    'My printer is on fire',
  );
  await expect(replies(app, 'helpdesk')).toHaveCount(1);
  // …and the next message goes to that conversation: the agent remembers the earlier one.
  await send(app, 'Any news on it?');
  const reply = replies(app, 'helpdesk').nth(1);
  await expect(reply).toHaveAttribute('data-status', 'done');
  await expect(reply.getByTestId('reply-text')).toContainText('#2 in this conversation');
  await expect(reply.getByTestId('reply-text')).toContainText('Earlier you asked: "My printer is on fire"');
  await app.screenshot({ path: screenshotPath('journeys-continue-conversation') });
});

test('"Open slowpoke in playground" chooses slowpoke, and the reply comes from it', async ({ app, mock }) => {
  mock.control.setAgent('slowpoke', { latencyMs: 300 });
  await chooseAgent(app, 'echo');
  await nav(app, 'Agents').click();
  await app.getByRole('button', { name: 'Open Slowpoke in playground' }).click();
  await expect(picker(app)).toHaveValue('slowpoke');
  await send(app, 'Are you there?');
  const reply = replies(app, 'slowpoke').first();
  await expect(reply).toHaveAttribute('data-status', 'done');
  await expect(reply.getByTestId('reply-text')).toContainText(
    'After careful thought about "Are you there?": yes.',
  );
  await expect(replies(app, 'echo')).toHaveCount(0);
  await app.screenshot({ path: screenshotPath('journeys-open-agent') });
});

test('a stopped agent opens with the reason shown; a send to it shows AGENT_NOT_FOUND and keeps the text', async ({
  app,
}) => {
  await nav(app, 'Agents').click();
  await app.getByRole('button', { name: 'Open Archivist in playground' }).click();
  await expect(picker(app)).toHaveValue('archivist');
  await expect(app.getByTestId('agent-warning')).toContainText(
    'archivist is stopped: chat will answer 404 AGENT_NOT_FOUND',
  );
  await send(app, 'Please index the 2019 ledgers.');
  const reply = replies(app, 'archivist').first();
  await expect(reply).toHaveAttribute('data-status', 'failed');
  await expect(reply.getByRole('alert')).toContainText('AGENT_NOT_FOUND');
  await expect(reply.getByRole('alert')).toContainText('HTTP 404');
  await expect(messageBox(app)).toHaveValue('Please index the 2019 ledgers.');
  await expect(picker(app)).toHaveValue('archivist');
  await app.screenshot({ path: screenshotPath('journeys-stopped-agent') });
});

test.describe('in a dark desktop theme', () => {
  test.use({ colorScheme: 'dark' });
  test('the chosen agent is kept when it is stopped, then removed, while a draft is open', async ({
    app,
    mock,
  }) => {
    await chooseAgent(app, 'helpdesk');
    await messageBox(app).fill('A draft for the helpdesk');
    mock.control.setAgent('helpdesk', { status: 'stopped' });
    await app.getByRole('button', { name: 'Refresh agents' }).click();
    const warning = app.getByTestId('agent-warning');
    await expect(warning).toContainText('helpdesk was stopped while you were here');
    await expect(warning).toContainText('your messages go to helpdesk until you choose another agent');
    await expect(picker(app)).toHaveValue('helpdesk');
    await expect(messageBox(app)).toHaveValue('A draft for the helpdesk');
    await app.screenshot({ path: screenshotPath('journeys-agent-stopped-dark') });

    const index = mock.service.state.agents.findIndex((a) => a.slug === 'helpdesk');
    mock.service.state.agents.splice(index, 1);
    mock.service.changed();
    await app.getByRole('button', { name: 'Refresh agents' }).click();
    await expect(warning).toContainText('helpdesk is no longer listed by the service while you were here');
    await expect(picker(app)).toHaveValue('helpdesk');
    await expect(messageBox(app)).toHaveValue('A draft for the helpdesk');
    await app.screenshot({ path: screenshotPath('journeys-agent-removed-dark') });
  });
});

test('a thread opened from the local record after the service dropped it shows its real agent', async ({
  app,
  mock,
}) => {
  await nav(app, 'Threads').click();
  await app.getByRole('button', { name: 'New thread' }).click();
  const form = app.getByRole('form', { name: 'New thread' });
  await form.getByLabel('Title').fill('Printer on fire');
  await form.getByLabel('Agent').selectOption('helpdesk');
  await form.getByLabel('First message').fill('The printer is on fire.');
  await form.getByRole('button', { name: 'Create thread' }).click();
  const detail = app.getByRole('region', { name: 'Thread detail' });
  await expect(detail.locator('.message')).toHaveCount(2);
  await detail.getByRole('textbox', { name: 'Message' }).fill('Still burning.');
  await detail.getByRole('button', { name: 'Send' }).click();
  await expect(detail.locator('.message')).toHaveCount(4);
  const thread = mock.service.state.threads.find((t) => t.title === 'Printer on fire');
  if (!thread) throw new Error('The thread was not created on the mock.');

  mock.control.deleteThread(thread.id);
  await app.reload();
  await app.locator('[data-app-state="ready"]').waitFor();
  await nav(app, 'Threads').click();
  await app.getByRole('searchbox', { name: 'Agent, thread or conversation id' }).fill(thread.id);
  await app.getByRole('button', { name: 'Open', exact: true }).click();
  await expect(detail).toContainText('Still burning.');
  await expect(detail).toContainText('Agenthelpdesk');
  await expect(detail).not.toContainText('unknown');
  await app.screenshot({ path: screenshotPath('journeys-thread-agent') });
});

test("a message on profile B is sent while profile A's key is used up; the header and the playground agree", async ({
  app,
  core,
  mock,
}) => {
  mock.control.setAgent('echo', { latencyMs: 0, chunkDelayMs: 0 });
  // Profile A: the tier-30 demo key (setup; the Profiles screen has its own tests).
  const key = await core.vault.add({
    name: 'thirty',
    secret: mock.keys.tier30,
    sessionOnly: true,
    origins: [new URL(mock.baseUrl).origin],
  });
  core.profiles.add({ name: 'Tier 30', baseUrl: mock.baseUrl, keyId: key.id, caCertPem: mock.ca });
  const profiles = app.getByRole('combobox', { name: 'Profile' });
  await expect(profiles.getByRole('option', { name: 'Tier 30' })).toBeAttached();
  await profiles.selectOption({ label: 'Tier 30' });
  const gauge = app.getByRole('status', { name: 'Rate limit' });
  await expect(gauge).toContainText('of 30/min left');
  await chooseAgent(app, 'echo');

  // Another caller (the CLI, say) uses up A's key for this minute, through the same limiter.
  const profileA = core.profile('Tier 30');
  const limiter = core.limiters.for(key.id, 30);
  for (let i = 0; limiter.state().remaining > 0 && i < 40; i++) {
    await core.chat.send({ profile: profileA, message: `burn ${i}`, agent: 'echo' });
  }
  await expect(gauge.getByTestId('rate-remaining')).toHaveText('0');

  await send(app, 'Held on A');
  const held = replies(app, 'echo').first();
  await expect(held.getByTestId('rate-countdown')).toContainText('Waiting for the rate limit (30/min)');
  await expect(gauge).toContainText(/[1-9]\d* waiting for the limit/);
  await app.screenshot({ path: screenshotPath('journeys-profile-a-held') });

  // Profile B (its own key) sends at once: nothing of A's holds it.
  await profiles.selectOption({ label: 'Embedded mock' });
  await expect(gauge).not.toContainText('waiting for the limit');
  await send(app, 'Sent on B');
  const sent = replies(app, 'echo').first();
  await expect(sent).toHaveAttribute('data-status', 'done', { timeout: 10_000 });
  await expect(sent.getByTestId('reply-text')).toContainText('Echo: Sent on B');
  await expect(app.getByText('Queued behind the messages before it.')).toHaveCount(0);
  await app.screenshot({ path: screenshotPath('journeys-profile-b-sent') });

  // A's message is still waiting for its own key, as the header says on A.
  expect(limiter.state().queued).toBeGreaterThan(0);
  await profiles.selectOption({ label: 'Tier 30' });
  await expect(gauge).toContainText(/[1-9]\d* waiting for the limit/);
});

test('a reload mid-stream shows the reply as far as it came, growing live to its end', async ({
  app,
  mock,
}) => {
  mock.control.setAgent('storyteller', { latencyMs: 0, chunkDelayMs: 50, chunkCount: 120 });
  await chooseAgent(app, 'storyteller');
  await send(app, 'Tell me a long story');
  const reply = replies(app, 'storyteller').first();
  const text = reply.getByTestId('reply-text');
  await expect(reply).toHaveAttribute('data-status', 'streaming');
  await expect.poll(async () => (await text.textContent())?.length ?? 0).toBeGreaterThan(40);

  await app.reload();
  await app.locator('[data-app-state="ready"]').waitFor();
  // The session comes back with the message and the reply so far, still streaming…
  await expect(app.getByRole('article', { name: 'Your message' })).toContainText('Tell me a long story');
  await expect(reply).toHaveAttribute('data-status', 'streaming');
  const shown = (await text.textContent())?.length ?? 0;
  expect(shown).toBeGreaterThan(40);
  await app.screenshot({ path: screenshotPath('journeys-reload-mid-stream') });
  // …and growing, live, to its end.
  await expect.poll(async () => (await text.textContent())?.length ?? 0).toBeGreaterThan(shown);
  await expect(reply).toHaveAttribute('data-status', 'done', { timeout: 15_000 });
  await expect(replies(app, 'storyteller')).toHaveCount(1);
  const recorded = await recordedSession(app);
  const final = recorded.messages.at(-1);
  expect(final?.role).toBe('agent');
  expect((final?.content.length ?? 0) > shown).toBe(true);
  await expect(text).toHaveText(final?.content ?? '');
});

test('a message still waiting its turn when the page reloads comes back in the box, not lost nor sent twice', async ({
  app,
  mock,
}) => {
  mock.control.setAgent('storyteller', { latencyMs: 0, chunkDelayMs: 50, chunkCount: 80 });
  await chooseAgent(app, 'storyteller');
  await send(app, 'First, a long story');
  const first = replies(app, 'storyteller').first();
  await expect(first).toHaveAttribute('data-status', 'streaming');
  // The second waits behind the first reply of the same session.
  await send(app, 'Then a second question');
  await expect(replies(app, 'storyteller').nth(1)).toHaveAttribute('data-status', 'queued');
  await expect(messageBox(app)).toHaveValue('');

  await app.reload();
  await app.locator('[data-app-state="ready"]').waitFor();
  await expect(messageBox(app)).toHaveValue('Then a second question');
  await expect(
    app.getByText('A message that was still waiting to be sent when the page closed is back in the box'),
  ).toBeVisible();
  await app.screenshot({ path: screenshotPath('journeys-waiting-restored') });
  // The first goes on to its end; the second was never sent behind the user's back.
  await expect(first).toHaveAttribute('data-status', 'done', { timeout: 15_000 });
  await expect(replies(app, 'storyteller')).toHaveCount(1);
  const recorded = await recordedSession(app);
  expect(recorded.messages.filter((m) => m.role === 'user').map((m) => m.content)).toEqual([
    'First, a long story',
  ]);
});
