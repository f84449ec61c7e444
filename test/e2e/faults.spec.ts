// The fault suite: the whole app — web host, core, the in-process mock, Chromium — through
// the ways the service fails. For each fault: the app keeps working (another screen and back), the
// error is shown in words with its code, nothing typed is lost, and the next action after the
// fault ends succeeds without a reload. Each test saves a screenshot of the fault as shown.
import { join } from 'node:path';
import type { Locator, Page } from '@playwright/test';
import { startMockServer, type MockServer } from '../../mock/server';
import { expect, screenshotPath, test } from './fixtures';
import { chooseAgent, messageBox, nav, replies, send } from './playground-steps';

const draftRestored = (app: Page): Locator =>
  app.getByText('Your message did not go through, so it is back in the box.');

/** Sends what is in the box now (the message the fault put back). */
async function sendAgain(app: Page): Promise<void> {
  await app.getByRole('button', { name: 'Send', exact: true }).click();
}

/** Another screen and back: the playground keeps its transcript and its box. */
async function awayAndBack(app: Page, screen = 'Agents'): Promise<void> {
  await nav(app, screen).click();
  await expect(app.getByRole('heading', { name: screen, level: 1 })).toBeVisible();
  await nav(app, 'Playground').click();
  await expect(app.getByRole('heading', { name: 'Playground', level: 1 })).toBeVisible();
}

test('latency spikes: replies and screens wait, say so, and arrive; the app stays usable meanwhile', async ({
  app,
  mock,
}) => {
  await chooseAgent(app, 'echo');
  mock.control.setFaults({ latencyMs: 2_500 });
  await send(app, 'Slowly, please');
  const reply = replies(app, 'echo').first();
  await expect(reply).toHaveAttribute('data-status', /queued|sending|streaming/);
  // Typing and moving about go on while the service is slow.
  await messageBox(app).fill('typed while waiting');
  await nav(app, 'Threads').click();
  await expect(app.getByRole('table', { name: 'Threads' }).getByRole('status')).toContainText(
    'Loading threads…',
  );
  await app.screenshot({ path: screenshotPath('faults-latency-loading') });
  await nav(app, 'Playground').click();
  await expect(messageBox(app)).toHaveValue('typed while waiting');
  await expect(reply).toHaveAttribute('data-status', 'done');
  await expect(reply.getByTestId('reply-text')).toContainText('Echo: Slowly, please');
  await expect(reply.getByTestId('ttfc')).toHaveText(/\d\.\d+ s/);
  await app.screenshot({ path: screenshotPath('faults-latency-arrived') });

  mock.control.setFaults({ latencyMs: 0 });
  await sendAgain(app);
  await expect(replies(app, 'echo').nth(1)).toHaveAttribute('data-status', 'done');
  await expect(replies(app, 'echo').nth(1).getByTestId('ttfc')).toHaveText(/^\d+ ms$/);
});

test('a burst of 500/502/503 on reads is retried unseen; a longer outage is shown, and the screen recovers by itself', async ({
  app,
  mock,
}) => {
  await messageBox(app).fill('a draft that must survive');
  // A short burst: the client retries GETs with backoff, so the screen just loads.
  mock.control.setFaults({ failNext: { status: 502, count: 1, pathPrefix: '/api/v1/agents' } });
  await nav(app, 'Agents').click();
  const agents = app.getByRole('table', { name: 'Agents' });
  await expect(agents.getByRole('row', { name: /Echo echo/ })).toBeVisible();
  mock.control.setFaults({ failNext: { status: 503, count: 2, pathPrefix: '/api/v1/threads' } });
  await nav(app, 'Threads').click();
  await expect(app.getByTestId('threads-count')).toContainText('5 threads');
  const statuses = mock.control
    .requests()
    .filter((r) => /^\/api\/v1\/(agents|threads)$/.test(r.path))
    .map((r) => r.status);
  expect(statuses).toEqual(expect.arrayContaining([502, 503, 503, 200]));

  // Longer than the retries: the screen says what failed, with the code; the rest of the app works.
  mock.control.setFaults({ failNext: { status: 500, count: 1_000, pathPrefix: '/api/v1/conversations' } });
  await nav(app, 'Conversations').click();
  const table = app.getByRole('table', { name: 'Conversations' });
  await expect(table.getByRole('alert')).toContainText('INTERNAL_ERROR', { timeout: 15_000 });
  await expect(table).toContainText('The conversations could not be loaded.');
  await app.screenshot({ path: screenshotPath('faults-5xx-outage') });
  await nav(app, 'Playground').click();
  await expect(messageBox(app)).toHaveValue('a draft that must survive');

  // The fault ends: coming back to the screen loads it again by itself, no Try again needed.
  mock.control.setFaults({ failNext: null });
  await nav(app, 'Conversations').click();
  await expect(table.getByRole('alert')).toHaveCount(0);
  await expect(table.locator('tbody tr:not(.vt-spacer)').first()).toBeVisible();
});

test('504 after the chat timeout: said in words, the message back in the box, and the next send works', async ({
  app,
  mock,
}) => {
  mock.service.chatTimeoutMs = 1_500;
  mock.control.setAgent('echo', { latencyMs: 5_000 });
  await chooseAgent(app, 'echo');
  await send(app, 'Are you there?');
  const reply = replies(app, 'echo').first();
  await expect(reply).toHaveAttribute('data-status', 'failed');
  const alert = reply.getByRole('alert');
  await expect(alert).toContainText('did not answer within');
  await expect(alert).toContainText('TIMEOUT');
  await expect(alert).toContainText('HTTP 504');
  await expect(messageBox(app)).toHaveValue('Are you there?');
  await expect(draftRestored(app)).toBeVisible();
  await app.screenshot({ path: screenshotPath('faults-504-timeout') });
  await awayAndBack(app);
  await expect(messageBox(app)).toHaveValue('Are you there?');

  mock.control.setAgent('echo', { latencyMs: 0 });
  await sendAgain(app);
  await expect(replies(app, 'echo').nth(1)).toHaveAttribute('data-status', 'done');
  await expect(replies(app, 'echo').nth(1).getByTestId('reply-text')).toContainText('Echo: Are you there?');
});

test('dropped and truncated streams keep what arrived, say how they ended, and Retry completes them', async ({
  app,
  mock,
}) => {
  mock.control.setAgent('storyteller', { chunkDelayMs: 5, chunkCount: 40, latencyMs: 0 });
  await chooseAgent(app, 'storyteller');
  mock.control.setFaults({ breakStreams: { afterChunks: 5, mode: 'drop', count: 1 } });
  await send(app, 'Drop part-way');
  const dropped = replies(app, 'storyteller').first();
  await expect(dropped).toHaveAttribute('data-status', 'failed');
  await expect(dropped.getByRole('alert')).toContainText('[DONE] never arrived');
  await expect(dropped.getByRole('alert')).toContainText('STREAM_INCOMPLETE');
  await expect(dropped.getByTestId('chunk-count')).toHaveText('5');

  mock.control.setFaults({ breakStreams: { afterChunks: 3, mode: 'stream_error', count: 1 } });
  await send(app, 'Break part-way');
  const broken = replies(app, 'storyteller').nth(1);
  await expect(broken).toHaveAttribute('data-status', 'failed');
  await expect(broken.getByRole('alert')).toContainText('The stream broke part-way');
  await expect(broken.getByRole('alert')).toContainText('STREAM_ERROR');
  await expect(broken.getByTestId('reply-text')).not.toBeEmpty();
  await app.screenshot({ path: screenshotPath('faults-streams-broken') });

  await awayAndBack(app, 'Threads');
  await expect(dropped.getByTestId('chunk-count')).toHaveText('5');
  await dropped.getByRole('button', { name: 'Retry' }).click();
  await broken.getByRole('button', { name: 'Retry' }).click();
  await expect(dropped).toHaveAttribute('data-status', 'done');
  await expect(broken).toHaveAttribute('data-status', 'done');
  await expect(broken.getByTestId('chunk-count')).toHaveText('40');
});

test('malformed JSON and a wrong content type: named as the service’s fault, nothing lost, the next call works', async ({
  app,
  mock,
}) => {
  // A screen whose reply is not JSON.
  mock.control.setFaults({ malformedNext: { kind: 'bad-json', count: 1_000, pathPrefix: '/api/v1/agents' } });
  await nav(app, 'Agents').click();
  const agents = app.getByRole('table', { name: 'Agents' });
  await expect(agents.getByRole('alert')).toContainText('INVALID_RESPONSE');
  await expect(agents.getByRole('alert')).toContainText('is not JSON');
  await app.screenshot({ path: screenshotPath('faults-bad-json') });
  mock.control.setFaults({ malformedNext: null });
  await agents.getByRole('button', { name: 'Try again' }).click();
  await expect(agents.getByRole('row', { name: /Echo echo/ })).toBeVisible();

  // A chat reply that is not JSON, and a stream under the wrong content type.
  await nav(app, 'Playground').click();
  await chooseAgent(app, 'echo');
  await app.getByRole('checkbox', { name: 'Stream' }).uncheck();
  mock.control.setFaults({ malformedNext: { kind: 'bad-json', count: 1, pathPrefix: '/api/v1/chat' } });
  await send(app, 'Plain reply, garbled');
  const garbled = replies(app, 'echo').first();
  await expect(garbled).toHaveAttribute('data-status', 'failed');
  await expect(garbled.getByRole('alert')).toContainText('does not match its spec');
  await expect(garbled.getByRole('alert')).toContainText('INVALID_RESPONSE');
  await expect(messageBox(app)).toHaveValue('Plain reply, garbled');

  await app.getByRole('checkbox', { name: 'Stream' }).check();
  mock.control.setFaults({
    malformedNext: { kind: 'wrong-content-type', count: 1, pathPrefix: '/api/v1/chat' },
  });
  await messageBox(app).fill('Streamed, wrong type');
  await sendAgain(app);
  const wrongType = replies(app, 'echo').nth(1);
  await expect(wrongType).toHaveAttribute('data-status', 'failed');
  await expect(wrongType.getByRole('alert')).toContainText('INVALID_RESPONSE');
  await expect(wrongType.getByRole('alert')).toContainText('text/html');
  await expect(messageBox(app)).toHaveValue('Streamed, wrong type');
  await app.screenshot({ path: screenshotPath('faults-wrong-content-type') });

  await awayAndBack(app);
  await sendAgain(app);
  await expect(replies(app, 'echo').nth(2)).toHaveAttribute('data-status', 'done');
  await expect(replies(app, 'echo').nth(2).getByTestId('reply-text')).toContainText(
    'Echo: Streamed, wrong type',
  );
});

test('a key revoked mid-session: INVALID_KEY with the way to Keys, the message kept; a valid key again works', async ({
  app,
  mock,
}) => {
  await chooseAgent(app, 'echo');
  await send(app, 'Before the revocation');
  await expect(replies(app, 'echo').first()).toHaveAttribute('data-status', 'done');
  mock.control.revokeKey('pro');
  await send(app, 'After the revocation');
  const refused = replies(app, 'echo').nth(1);
  await expect(refused).toHaveAttribute('data-status', 'failed');
  await expect(refused.getByRole('alert')).toContainText('The service refused the key');
  await expect(refused.getByRole('alert')).toContainText('INVALID_KEY');
  await expect(refused.getByRole('alert')).toContainText('HTTP 401');
  await expect(refused.getByRole('button', { name: 'Open Keys' })).toBeVisible();
  await expect(messageBox(app)).toHaveValue('After the revocation');
  await app.screenshot({ path: screenshotPath('faults-key-revoked') });
  await refused.getByRole('button', { name: 'Open Keys' }).click();
  await expect(app.getByRole('heading', { name: 'Keys', level: 1 })).toBeVisible();
  await nav(app, 'Playground').click();
  await expect(messageBox(app)).toHaveValue('After the revocation');

  // The mock has no un-revoke (nor has the service): the key is made valid in its state directly,
  // standing in for the user choosing a working key.
  const key = mock.service.state.keys.find((k) => k.id === 'pro');
  if (key) key.revoked = false;
  await sendAgain(app);
  await expect(replies(app, 'echo').nth(2)).toHaveAttribute('data-status', 'done');
});

test('a plan downgraded mid-session: PLAN_REQUIRED in chat and on screens; restored, both work again', async ({
  app,
  mock,
}) => {
  await chooseAgent(app, 'echo');
  await send(app, 'On the Pro plan');
  await expect(replies(app, 'echo').first()).toHaveAttribute('data-status', 'done');
  mock.control.updateKey('pro', { plan: 'free' });
  await send(app, 'On the free plan');
  const refused = replies(app, 'echo').nth(1);
  await expect(refused).toHaveAttribute('data-status', 'failed');
  await expect(refused.getByRole('alert')).toContainText('no active Pro or Ultra plan');
  await expect(refused.getByRole('alert')).toContainText('PLAN_REQUIRED');
  await expect(refused.getByRole('alert')).toContainText('HTTP 403');
  await expect(messageBox(app)).toHaveValue('On the free plan');
  await app.screenshot({ path: screenshotPath('faults-plan-downgraded') });
  await nav(app, 'Threads').click();
  const threads = app.getByRole('table', { name: 'Threads' });
  await expect(threads.getByRole('alert')).toContainText('PLAN_REQUIRED');

  mock.control.updateKey('pro', { plan: 'pro' });
  await threads.getByRole('button', { name: 'Try again' }).click();
  await expect(app.getByTestId('threads-count')).toContainText('5 threads');
  await nav(app, 'Playground').click();
  await expect(messageBox(app)).toHaveValue('On the free plan');
  await sendAgain(app);
  await expect(replies(app, 'echo').nth(2)).toHaveAttribute('data-status', 'done');
});

test('the mock stopped and restarted on its port: NETWORK while down, the message kept; back by itself after', async ({
  app,
  mock,
  core,
}) => {
  await chooseAgent(app, 'echo');
  await send(app, 'While it runs');
  await expect(replies(app, 'echo').first()).toHaveAttribute('data-status', 'done');
  const port = Number(new URL(mock.baseUrl).port);
  await mock.close();

  await send(app, 'While it is down');
  const down = replies(app, 'echo').nth(1);
  await expect(down).toHaveAttribute('data-status', 'failed');
  await expect(down.getByRole('alert')).toContainText('could not be reached');
  await expect(down.getByRole('alert')).toContainText('NETWORK');
  await expect(messageBox(app)).toHaveValue('While it is down');
  await nav(app, 'Threads').click();
  const threads = app.getByRole('table', { name: 'Threads' });
  await expect(threads.getByRole('alert')).toContainText('NETWORK', { timeout: 15_000 });
  await app.screenshot({ path: screenshotPath('faults-mock-down') });

  // The same data dir (same CA, keys and state) on the same port, as `npm run mock` restarted.
  const again: MockServer = await startMockServer({ dataDir: join(core.dataDir, 'mock'), port });
  mock.close = () => again.close(); // the fixture's teardown closes the running one
  await threads.getByRole('button', { name: 'Try again' }).click();
  await expect(app.getByTestId('threads-count')).toContainText('5 threads');
  await nav(app, 'Playground').click();
  await expect(messageBox(app)).toHaveValue('While it is down');
  await sendAgain(app);
  await expect(replies(app, 'echo').nth(2)).toHaveAttribute('data-status', 'done');
  await expect(replies(app, 'echo').nth(2).getByTestId('reply-text')).toContainText('Echo: While it is down');
  await app.screenshot({ path: screenshotPath('faults-mock-restarted') });
});
