// The chat playground as a developer uses it (issue 5): streamed and plain replies, Stop, a broken
// stream, the 100 KB limit, agents that answer with an error, the rate limit, compare, and
// sessions that come back after a reload. Each test saves a screenshot of the state it reaches.
import type { Locator, Page, Route } from '@playwright/test';
import { composeReply } from '../../mock/agent-replies';
import type { MockServer } from '../../mock/server';
import { sendToAll } from './compare-steps';
import { expect, screenshotPath, test } from './fixtures';

const messageBox = (app: Page): Locator => app.getByRole('textbox', { name: 'Message' });
const replies = (app: Page, agent: string): Locator =>
  app.getByRole('article', { name: `Reply from ${agent}` });

async function chooseAgent(app: Page, slug: string): Promise<void> {
  const picker = app.getByRole('combobox', { name: 'Agent' });
  await expect(picker.locator(`option[value="${slug}"]`)).toBeAttached();
  await picker.selectOption(slug);
}

async function send(app: Page, text: string): Promise<void> {
  await messageBox(app).fill(text);
  await app.getByRole('button', { name: 'Send', exact: true }).click();
}

async function chatRequests(mock: MockServer): Promise<number> {
  return mock.control.requests().filter((r) => r.path.startsWith('/api/v1/chat')).length;
}

/** Adds the tier-30 demo key on Keys and a profile for it on Profiles, and makes it active. */
async function useTier30Profile(app: Page, mock: MockServer): Promise<void> {
  await app.getByRole('link', { name: 'Keys' }).click();
  const keyForm = app.getByRole('form', { name: 'Add a key' });
  await keyForm.getByLabel('Name').fill('thirty');
  await keyForm.getByLabel('Key', { exact: true }).fill(mock.keys.tier30);
  await keyForm.getByLabel('Server').fill(mock.baseUrl);
  await keyForm.getByRole('button', { name: 'Add key' }).click();
  await expect(app.getByRole('table', { name: 'Keys' })).toContainText('thirty');
  await app.getByRole('link', { name: 'Profiles' }).click();
  const form = app.getByRole('form', { name: 'Add a profile' });
  await form.getByLabel('Name').fill('Tier 30');
  await form.getByLabel('Base URL').fill(mock.baseUrl);
  await form.getByLabel('Key').selectOption({ label: `thirty (…${mock.keys.tier30.slice(-4)})` });
  await form.getByLabel('CA certificate (optional, PEM)').fill(mock.ca);
  await form.getByRole('button', { name: 'Add profile' }).click();
  await app.getByRole('listitem', { name: 'Tier 30' }).getByRole('button', { name: 'Use' }).click();
  await expect(app.getByRole('status', { name: 'Rate limit' })).toContainText('of 30/min left');
}

test('echo answers streamed and not streamed; the reply is Markdown, copyable, and copies as curl', async ({
  app,
  mock,
  context,
}) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await expect(app.getByRole('heading', { name: 'Playground', level: 2 })).toBeVisible();
  await expect(app.getByRole('checkbox', { name: 'Stream' })).toBeChecked();
  await app.screenshot({ path: screenshotPath('playground-empty') });
  await chooseAgent(app, 'echo');

  await send(app, 'hello **streamed** world');
  const streamed = replies(app, 'echo').nth(0);
  await expect(streamed).toHaveAttribute('data-status', 'done');
  await expect(streamed.getByTestId('reply-text')).toContainText('Echo: hello streamed world');
  await expect(streamed.getByTestId('reply-text').locator('strong')).toHaveText('streamed');
  await expect(messageBox(app)).toHaveValue('');
  const inspector = streamed.getByRole('complementary', { name: 'Stream inspector' });
  await expect(inspector.getByTestId('chunk-count')).toHaveText(/^[1-9]\d*$/);
  await expect(inspector.getByTestId('ttfc')).toHaveText(/\d+ ms|\d\.\d+ s/);
  await expect(inspector).toContainText('request req_');

  await app.getByRole('checkbox', { name: 'Stream' }).uncheck();
  await send(app, 'a plain reply, please');
  const plain = replies(app, 'echo').nth(1);
  await expect(plain).toHaveAttribute('data-status', 'done');
  await expect(plain.getByTestId('reply-text')).toContainText('Echo: a plain reply, please');
  await expect(plain).toContainText('not streamed');

  // Raw shows the Markdown source; copy gives the reply's text.
  await streamed.getByRole('button', { name: 'Raw' }).click();
  await expect(streamed.getByTestId('reply-text')).toHaveText('Echo: hello **streamed** world');
  await streamed.getByRole('button', { name: 'Copy reply' }).click();
  expect(await app.evaluate(() => navigator.clipboard.readText())).toBe('Echo: hello **streamed** world');

  // Copy as curl: -N for a stream, the mock's CA, the key as a variable, never the key.
  await streamed.getByRole('button', { name: 'Copy as curl' }).click();
  const command = (await streamed.getByLabel('curl command').textContent()) ?? '';
  expect(command).toMatch(/^curl -N --cacert '[^']+' -X POST '/);
  expect(command).toContain(`${mock.baseUrl}/api/v1/chat`);
  expect(command).toContain('"Authorization: Bearer $AGENT_API_KEY"');
  expect(command).toContain('"stream":true');
  expect(command).not.toContain(mock.keys.pro);
  expect(await app.evaluate(() => navigator.clipboard.readText())).toBe(command);

  // The inspector's details: the call's rate-limit headers, and the raw frames ending in [DONE].
  await inspector.getByRole('button', { name: 'Details' }).click();
  await expect(inspector.getByLabel('Rate-limit headers')).toContainText('X-RateLimit-Limit');
  await expect(inspector.getByLabel('Rate-limit headers')).toContainText('60');
  await expect(inspector.getByRole('list', { name: 'Frames' })).toContainText('[DONE]');
  await app.screenshot({ path: screenshotPath('playground-echo') });
});

test('a reply is safe Markdown: raw HTML shows as text, and a link opens outside only after a yes', async ({
  app,
  context,
}) => {
  await chooseAgent(app, 'echo');
  await send(
    app,
    'see [the docs](https://example.com/docs) <img src=x onerror="window.hacked=1"> <b>bold?</b>',
  );
  const reply = replies(app, 'echo').first();
  await expect(reply).toHaveAttribute('data-status', 'done');
  const text = reply.getByTestId('reply-text');
  await expect(text.locator('img, b')).toHaveCount(0);
  await expect(text).toContainText('<img src=x onerror="window.hacked=1">');
  expect(await app.evaluate(() => (window as { hacked?: number }).hacked)).toBeUndefined();

  let asked = '';
  app.once('dialog', (dialog) => {
    asked = dialog.message();
    void dialog.dismiss();
  });
  await text.getByRole('link', { name: 'the docs' }).click();
  expect(asked).toContain('https://example.com/docs');
  expect(context.pages()).toHaveLength(1);
  expect(app.url()).not.toContain('example.com');

  app.once('dialog', (dialog) => void dialog.accept());
  const popup = context.waitForEvent('page');
  await text.getByRole('link', { name: 'the docs' }).click();
  const opened = await popup;
  expect(await opened.evaluate(() => window.opener)).toBeNull();
  await opened.close();
});

test('a reply the Markdown parser gives up on is shown as plain text, whole', async ({ app }) => {
  const quotes = '>'.repeat(3_000);
  await chooseAgent(app, 'echo');
  await send(app, `deep quote:\n\n${quotes}`);
  const reply = replies(app, 'echo').first();
  await expect(reply).toHaveAttribute('data-status', 'done');
  const text = reply.getByTestId('reply-text');
  await expect(text).toHaveClass(/plain/);
  await expect(text).toContainText(quotes);
  // The screen goes on: the next reply is Markdown again.
  await send(app, 'now **bold**');
  await expect(replies(app, 'echo').nth(1).getByTestId('reply-text').locator('strong')).toHaveText('bold');
});

test('Stop mid-stream on the long-form agent keeps the partial reply, marked stopped', async ({
  app,
  mock,
}) => {
  mock.control.setAgent('storyteller', { chunkDelayMs: 40, chunkCount: 600 });
  await chooseAgent(app, 'storyteller');
  await send(app, 'Tell me a long story');
  const reply = replies(app, 'storyteller').first();
  await expect(reply).toHaveAttribute('data-status', 'streaming');
  await expect
    .poll(async () => Number(await reply.getByTestId('chunk-count').textContent()), { timeout: 10_000 })
    .toBeGreaterThan(15);
  await app.getByRole('form', { name: 'Compose' }).getByRole('button', { name: 'Stop' }).click();
  await expect(reply).toHaveAttribute('data-status', 'stopped');
  await expect(reply.getByTestId('reply-status')).toHaveText('Stopped');
  await expect(reply).toContainText('Stopped by you: the reply above is partial.');
  const partial = (await reply.getByTestId('reply-text').textContent()) ?? '';
  expect(partial.split(' ').length).toBeGreaterThan(10);
  expect(partial.split(' ').length).toBeLessThan(600);
  await expect(reply.getByRole('complementary', { name: 'Stream inspector' })).toContainText(
    'Stopped before [DONE].',
  );
  // Nothing more arrives after Stop.
  const count = await reply.getByTestId('chunk-count').textContent();
  await app.waitForTimeout(300);
  await expect(reply.getByTestId('chunk-count')).toHaveText(count ?? '');
  await app.screenshot({ path: screenshotPath('playground-stopped') });
});

/** What the mock's agent says to `message` (its replies are deterministic), as the service sends it. */
function agentSays(mock: MockServer, slug: string, message: string): string {
  const agent = mock.service.state.agents.find((a) => a.slug === slug);
  if (!agent) throw new Error(`The mock has no agent ${slug}.`);
  return composeReply(agent, message, []);
}

test('long replies stream in whole: formatted at the end up to 128,000 characters, plain past that', async ({
  app,
  mock,
}) => {
  // Full speed, 9 words a chunk: each reply arrives in a burst, as from a fast service. Past 16,000
  // characters a reply streams as plain text, a screenful first and the rest over the next frames.
  mock.control.setAgent('storyteller', { latencyMs: 0, chunkDelayMs: 0, chunkCount: 600, wordsPerChunk: 9 });
  await chooseAgent(app, 'storyteller');
  await send(app, 'A story of some length.');
  const medium = replies(app, 'storyteller').nth(0);
  await expect(medium).toHaveAttribute('data-status', 'done');
  const mediumSaid = agentSays(mock, 'storyteller', 'A story of some length.');
  expect(mediumSaid.length).toBeGreaterThan(16_000);
  expect(mediumSaid.length).toBeLessThan(128_000);
  const formatted = medium.getByTestId('reply-text');
  await expect(formatted).toHaveClass(/markdown/);
  expect((await formatted.textContent())?.trim()).toBe(mediumSaid);

  mock.control.setAgent('storyteller', { chunkCount: 3_000 });
  await send(app, 'A very long story, please.');
  const long = replies(app, 'storyteller').nth(1);
  await expect(long).toHaveAttribute('data-status', 'done');
  const longSaid = agentSays(mock, 'storyteller', 'A very long story, please.');
  expect(longSaid.length).toBeGreaterThan(128_000);
  const plain = long.getByTestId('reply-text');
  await expect(plain).toHaveAttribute('data-rendered-chars', String(longSaid.length));
  expect(await plain.textContent()).toBe(longSaid);
  await expect(long).toContainText(
    `Shown as plain text: at ${(longSaid.length / 1024).toFixed(0)} KB this reply is too long to format.`,
  );
  // The transcript followed the reply down: its last words are in view.
  await expect(plain.getByText(longSaid.slice(-30))).toBeInViewport();
  await app.screenshot({ path: screenshotPath('playground-long-reply') });
});

test('the transcript follows a streaming reply down, and stays where the user scrolls up to', async ({
  app,
  mock,
}) => {
  // About 12 s of a paced reply, long enough to stream as plain text.
  mock.control.setAgent('storyteller', { latencyMs: 0, chunkDelayMs: 20, chunkCount: 600, wordsPerChunk: 9 });
  await chooseAgent(app, 'storyteller');
  await send(app, 'A story to read along.');
  const reply = replies(app, 'storyteller').first();
  const transcript = app.locator('.pg-scroll');
  const fromBottom = (): Promise<number> =>
    transcript.evaluate((el) => el.scrollHeight - el.scrollTop - el.clientHeight);
  // Where a scroll comes to rest: keys scroll smoothly, over several frames.
  const restingTop = async (): Promise<number> => {
    for (;;) {
      const top = await transcript.evaluate((el) => el.scrollTop);
      await app.waitForTimeout(150);
      if ((await transcript.evaluate((el) => el.scrollTop)) === top) return top;
    }
  };
  await expect
    .poll(() => transcript.evaluate((el) => el.scrollHeight > 3 * el.clientHeight), { timeout: 10_000 })
    .toBe(true);
  expect(await fromBottom()).toBeLessThan(48);

  // The user scrolls up to read: the reply goes on streaming below, and the view stays put, also
  // when at 16,000 characters the reply turns from Markdown to plain text under the reader.
  const text = reply.getByTestId('reply-text');
  await expect(text).toHaveClass(/markdown/);
  await transcript.hover();
  await app.mouse.wheel(0, -400);
  await expect.poll(fromBottom).toBeGreaterThan(300);
  const readingAt = await restingTop();
  await expect(text).toHaveClass(/live-text/, { timeout: 15_000 });
  await expect
    .poll(async () => Number(await text.getAttribute('data-rendered-chars')))
    .toBeGreaterThan(16_000);
  expect(await transcript.evaluate((el) => el.scrollTop)).toBe(readingAt);
  await expect(reply).toHaveAttribute('data-status', 'streaming');

  // Back at the bottom, it follows again.
  await app.mouse.wheel(0, 1_000_000);
  await expect.poll(fromBottom).toBeLessThan(48);
  const followingFrom = await transcript.evaluate((el) => el.scrollTop);
  await expect.poll(() => transcript.evaluate((el) => el.scrollTop)).toBeGreaterThan(followingFrom + 200);

  // From the keyboard too: Page Up in the transcript stays put while the reply grows, End follows.
  await text.click();
  await expect(transcript).toBeFocused();
  await app.keyboard.press('PageUp');
  await expect.poll(fromBottom).toBeGreaterThan(300);
  const keyedAt = await restingTop();
  const keyedHeight = await transcript.evaluate((el) => el.scrollHeight);
  await expect.poll(() => transcript.evaluate((el) => el.scrollHeight)).toBeGreaterThan(keyedHeight + 200);
  expect(await transcript.evaluate((el) => el.scrollTop)).toBe(keyedAt);
  await expect(reply).toHaveAttribute('data-status', 'streaming');
  await app.keyboard.press('End');

  await expect(reply).toHaveAttribute('data-status', 'done', { timeout: 20_000 });
  const said = agentSays(mock, 'storyteller', 'A story to read along.');
  await expect(text.getByText(said.slice(-30))).toBeInViewport();
});

test('a stream broken by the service shows the error in place with the partial reply, and Retry', async ({
  app,
  mock,
}) => {
  mock.control.setAgent('storyteller', { chunkDelayMs: 5, chunkCount: 60, latencyMs: 0 });
  mock.control.setFaults({ breakStreams: { afterChunks: 6, mode: 'stream_error', count: 1 } });
  await chooseAgent(app, 'storyteller');
  await send(app, 'Break, please');
  const broken = replies(app, 'storyteller').first();
  await expect(broken).toHaveAttribute('data-status', 'failed');
  const alert = broken.getByRole('alert');
  await expect(alert).toContainText('The stream broke part-way');
  await expect(alert).toContainText('STREAM_ERROR');
  await expect(alert).toContainText(/request req_/);
  await expect(broken.getByTestId('chunk-count')).toHaveText('6');
  expect(
    ((await broken.getByTestId('reply-text').textContent()) ?? '').split(' ').length,
  ).toBeGreaterThanOrEqual(6);
  await app.screenshot({ path: screenshotPath('playground-stream-error') });

  // A dropped connection: no [DONE], said so in the inspector.
  mock.control.setFaults({ breakStreams: { afterChunks: 4, mode: 'drop', count: 1 } });
  await send(app, 'Drop, please');
  const dropped = replies(app, 'storyteller').nth(1);
  await expect(dropped).toHaveAttribute('data-status', 'failed');
  await expect(dropped.getByRole('alert')).toContainText('STREAM_INCOMPLETE');
  await expect(dropped.getByRole('complementary', { name: 'Stream inspector' })).toContainText(
    'The stream ended without [DONE]',
  );
  await expect(dropped.getByTestId('reply-text')).not.toBeEmpty();

  // Retry sends the same message again, in place.
  await dropped.getByRole('button', { name: 'Retry' }).click();
  await expect(dropped).toHaveAttribute('data-status', 'done');
  await expect(dropped.getByTestId('chunk-count')).toHaveText('60');
  await expect(app.getByRole('article', { name: 'Your message' })).toHaveCount(2);
  await app.screenshot({ path: screenshotPath('playground-stream-retry') });
});

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
  await expect(app.getByRole('heading', { name: 'Keys', level: 2 })).toBeVisible();
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

test.describe('in a dark desktop theme', () => {
  test.use({ colorScheme: 'dark' });
  test('replies, the inspector and errors stay readable', async ({ app, mock }) => {
    await chooseAgent(app, 'echo');
    await send(app, 'Some `code`, a [link](https://example.com) and a list:\n\n- one\n- two');
    await expect(replies(app, 'echo').first()).toHaveAttribute('data-status', 'done');
    mock.control.setAgent('storyteller', { chunkDelayMs: 5, chunkCount: 40, latencyMs: 0 });
    mock.control.setFaults({ breakStreams: { afterChunks: 8, mode: 'stream_error', count: 1 } });
    await chooseAgent(app, 'storyteller');
    await send(app, 'Break in the dark');
    await expect(replies(app, 'storyteller').first()).toHaveAttribute('data-status', 'failed');
    await replies(app, 'storyteller')
      .first()
      .getByRole('complementary', { name: 'Stream inspector' })
      .getByRole('button', { name: 'Details' })
      .click();
    const [background, text] = await app.evaluate(() => {
      const style = getComputedStyle(document.querySelector('.pg-scroll') as Element);
      return [style.backgroundColor, style.color];
    });
    expect(background).toBe('rgb(27, 31, 42)');
    expect(text).toBe('rgb(229, 232, 239)');
    await app.screenshot({ path: screenshotPath('playground-dark') });
  });
});
