// The chat playground as a developer uses it: streamed and plain replies as Markdown, Stop, long
// replies, following a reply down, a broken stream, and a dark theme. What stops a message is in
// playground-refusals.spec.ts, compare in playground-compare.spec.ts, sessions in
// playground-sessions.spec.ts. Each test saves a screenshot of the state it reaches.
import type { MockServer } from '../../mock/server';
import { composeReply } from '../../mock/agent-replies';
import { expect, screenshotPath, test } from './fixtures';
import { chooseAgent, messageBox, replies, send } from './playground-steps';

test('echo answers streamed and not streamed; the reply is Markdown, copyable, and copies as curl', async ({
  app,
  mock,
  context,
}) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await expect(app.getByRole('heading', { name: 'Playground', level: 1 })).toBeVisible();
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

  // Asked in the console's own dialog, with the whole address; Cancel opens nothing.
  await text.getByRole('link', { name: 'the docs' }).click();
  const ask = app.getByRole('dialog', { name: 'Open this link outside the console?' });
  await expect(ask.getByTestId('link-url')).toHaveText('https://example.com/docs');
  await ask.getByRole('button', { name: 'Cancel' }).click();
  await expect(ask).toHaveCount(0);
  expect(context.pages()).toHaveLength(1);
  expect(app.url()).not.toContain('example.com');

  const popup = context.waitForEvent('page');
  await text.getByRole('link', { name: 'the docs' }).click();
  await ask.getByRole('button', { name: 'Open link' }).click();
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

test('a reply in emoji, Chinese and Japanese is drawn in real glyphs, not boxes', async ({ app }) => {
  const text = '🚀 数据 こんにちは';
  await chooseAgent(app, 'echo');
  await send(app, text);
  const reply = replies(app, 'echo').first();
  await expect(reply).toHaveAttribute('data-status', 'done');
  await expect(reply.getByTestId('reply-text')).toContainText(`Echo: ${text}`);
  // Each character drawn in the reply's font differs from what the font draws for a character no
  // font has (the "tofu" box): a missing emoji or CJK font would draw them all alike.
  const tofu = await reply.getByTestId('reply-text').evaluate(
    (element, chars) => {
      const font = getComputedStyle(element).font;
      const draw = (char: string) => {
        const canvas = document.createElement('canvas');
        canvas.width = canvas.height = 48;
        const context = canvas.getContext('2d') as CanvasRenderingContext2D;
        context.font = font.replace(/\d+(\.\d+)?px/, '32px');
        context.fillText(char, 4, 38);
        return canvas.toDataURL();
      };
      const missing = draw('\u{10FFFD}');
      return chars.filter((char) => draw(char) === missing);
    },
    [...text.replaceAll(' ', '')],
  );
  expect(tofu).toEqual([]);
  await reply.screenshot({ path: screenshotPath('playground-emoji-cjk') });
});
