// The Mock screen: what an integration sees when the service's dashboard revokes a key,
// an agent fails, the service goes down, streams break — and recorded replies played back.
import type { Locator, Page } from '@playwright/test';
import { expect, screenshotPath, test } from './fixtures';
import { messageBox } from './playground-steps';

const lastReply = (app: Page, agent: string): Locator =>
  app.getByRole('article', { name: `Reply from ${agent}` }).last();

async function openMock(app: Page): Promise<Locator> {
  await app
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: 'Mock', exact: true })
    .click();
  const screen = app.getByRole('main', { name: 'Mock' });
  await expect(screen.getByRole('heading', { name: 'Mock', level: 1 })).toBeVisible();
  return screen;
}

async function sendIn(app: Page, agent: string, text: string, stream = true): Promise<Locator> {
  await app.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Playground' }).click();
  const picker = app.getByRole('combobox', { name: 'Agent' });
  await expect(picker.locator(`option[value="${agent}"]`)).toBeAttached();
  await picker.selectOption(agent);
  const toggle = app.getByRole('checkbox', { name: 'Stream' });
  if ((await toggle.isChecked()) !== stream) await toggle.click();
  await messageBox(app).fill(text);
  await app.getByRole('button', { name: 'Send', exact: true }).click();
  const reply = lastReply(app, agent);
  await expect(reply).not.toHaveAttribute('data-status', /sending|streaming|queued/);
  return reply;
}

test('the Mock screen shows only on the Embedded mock profile, with keys, agents, health and chaos', async ({
  app,
  mock,
}) => {
  const screen = await openMock(app);
  for (const region of [
    'Chaos presets',
    'Mock keys',
    'Mock agents',
    'Mock service',
    'Fixtures',
    'Requests the mock received',
  ]) {
    await expect(screen.getByRole('region', { name: region })).toBeVisible();
  }
  await expect(screen.getByRole('row', { name: 'Mock key pro' })).toContainText('ams_…');
  await app.screenshot({ path: screenshotPath('mock-screen'), fullPage: true });

  // Another profile (a real service, say): no Mock screen in the navigation.
  await app.getByRole('link', { name: 'Profiles' }).click();
  const form = app.getByRole('form', { name: 'Add a profile' });
  await form.getByLabel('Name').fill('Elsewhere');
  await form.getByLabel('Base URL').fill(mock.baseUrl);
  await form.getByRole('combobox', { name: 'Key', exact: true }).selectOption({ index: 1 });
  await form.getByLabel('CA certificate (optional, PEM)').fill(mock.ca);
  await form.getByRole('button', { name: 'Add profile' }).click();
  await app.getByRole('listitem', { name: 'Elsewhere' }).getByRole('button', { name: 'Use' }).click();
  await expect(
    app.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Mock', exact: true }),
  ).toHaveCount(0);
});

test('revoking the active key at the mock: the playground says INVALID_KEY and leads to Keys', async ({
  app,
}) => {
  // A user mid-session: the playground already knows the agents when the key is revoked.
  await expect(await sendIn(app, 'echo', 'hello', false)).toContainText('hello');
  const screen = await openMock(app);
  await screen.getByRole('button', { name: 'Revoke pro' }).click();
  await app
    .getByRole('dialog', { name: 'Revoke the mock key “pro”?' })
    .getByRole('button', { name: 'Revoke the key' })
    .click();
  await expect(screen.getByRole('row', { name: 'Mock key pro' })).toContainText('Revoked');
  const reply = await sendIn(app, 'echo', 'still there?', false);
  await expect(reply).toContainText('INVALID_KEY');
  await app.screenshot({ path: screenshotPath('mock-revoked-key') });
  await reply.getByRole('button', { name: 'Open Keys' }).click();
  await expect(app.getByRole('heading', { name: 'Keys', level: 1 })).toBeVisible();
});

test('an agent switched to error: the playground shows AGENT_ERROR', async ({ app, mock }) => {
  const screen = await openMock(app);
  await screen.getByRole('combobox', { name: 'Status of helpdesk' }).selectOption('error');
  await expect(screen.getByRole('combobox', { name: 'Status of helpdesk' })).toHaveValue('error');
  // The picker learns of it at once: listed with what the service will answer, and still choosable,
  // so that the service's own answer can be seen.
  await app.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Playground' }).click();
  const option = app.getByRole('combobox', { name: 'Agent' }).locator('option[value="helpdesk"]');
  await expect(option).toContainText('502 AGENT_ERROR');
  await expect(option).toBeEnabled();

  // As with the real service, an agent can also fail after it was chosen, before any list says so:
  // the send answers AGENT_ERROR, in words, in place.
  await screen
    .page()
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: 'Mock', exact: true })
    .click();
  await screen.getByRole('combobox', { name: 'Status of helpdesk' }).selectOption('deployed');
  await app.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Playground' }).click();
  await expect(option).not.toContainText('AGENT_ERROR');
  await app.getByRole('combobox', { name: 'Agent' }).selectOption('helpdesk');
  mock.control.setAgent('helpdesk', { status: 'error' }); // behind the console's back
  await messageBox(app).fill('hello?');
  await app.getByRole('button', { name: 'Send', exact: true }).click();
  await expect(lastReply(app, 'helpdesk')).toContainText('AGENT_ERROR');
  await app.screenshot({ path: screenshotPath('mock-agent-error') });
});

test('"outage" turns the Health screen unhealthy on the next check; the header shows the chaos', async ({
  app,
}) => {
  const screen = await openMock(app);
  await screen.getByRole('button', { name: 'Outage', exact: true }).click();
  await expect(app.getByTestId('chaos-badge')).toHaveText('Chaos on: Outage');
  await app.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Health' }).click();
  await app.getByRole('button', { name: 'Check now' }).click();
  await expect(app.getByTestId('health-status')).toHaveAttribute('data-status', 'unhealthy');
  await app.screenshot({ path: screenshotPath('mock-outage-health') });
  await app.getByTestId('chaos-badge').click();
  await screen.getByRole('button', { name: 'Reset mock' }).click();
  await app
    .getByRole('dialog', { name: 'Reset the mock?' })
    .getByRole('button', { name: 'Reset the mock' })
    .click();
  await expect(app.getByTestId('chaos-badge')).toHaveCount(0);
});

test('"broken streams": the reply ends with a clear error and keeps the partial text', async ({ app }) => {
  const screen = await openMock(app);
  await screen.getByRole('button', { name: 'Broken streams', exact: true }).click();
  const reply = await sendIn(
    app,
    'echo',
    'a message long enough to arrive in several chunks before the break',
  );
  await expect(reply).toHaveAttribute('data-status', 'failed');
  await expect(reply).toContainText('STREAM_INCOMPLETE');
  await expect(reply.getByTestId('reply-text')).toContainText('Echo: a message long enou');
  // The error explains it once, in our words, with no quote of the same words after them.
  await expect(reply.getByRole('alert').getByText(/\[DONE\]/)).toHaveCount(1);
  await app.screenshot({ path: screenshotPath('mock-broken-stream') });
});

test('record a reply, assign it to another agent, and the replay matches it chunk for chunk', async ({
  app,
  mock,
}) => {
  mock.control.setAgent('storyteller', { chunkCount: 25, chunkDelayMs: 10, latencyMs: 0 });
  const original = await sendIn(app, 'storyteller', 'tell me something');
  await expect(original).toHaveAttribute('data-status', 'done');
  const originalText = await original.getByTestId('reply-text').innerText();
  await original.getByRole('button', { name: 'Save as fixture' }).click();
  await expect(original.getByRole('status')).toContainText('Saved as fixture');

  const screen = await openMock(app);
  const row = screen.getByRole('row', { name: 'Mock agent echo' });
  await row
    .getByRole('combobox', { name: 'Fixture for echo' })
    .selectOption({ label: 'storyteller reply (25 chunks)' });
  await row.getByRole('combobox', { name: 'Replay timing for echo' }).selectOption('fast');
  await row.getByRole('button', { name: 'Assign' }).click();
  await expect(row).toContainText('Replays “storyteller reply” (25 chunks, fast)');
  await app.screenshot({ path: screenshotPath('mock-fixture-assigned'), fullPage: true });

  const replayed = await sendIn(app, 'echo', 'anything');
  await expect(replayed).toHaveAttribute('data-status', 'done');
  expect(await replayed.getByTestId('reply-text').innerText()).toBe(originalText);
  const chunks = mock.control.state().agents.find((a) => a.slug === 'echo')?.replay?.chunks;
  expect(chunks).toBe(25);
  await expect(replayed).toContainText('25'); // the inspector's chunk count
});

test('a reply of 3,000 chunks: its raw frames load when asked, end in [DONE], and save as a fixture', async ({
  app,
  mock,
}) => {
  mock.control.setAgent('storyteller', { chunkCount: 3_000, chunkDelayMs: 0, latencyMs: 0 });
  const reply = await sendIn(app, 'storyteller', 'a long one');
  await expect(reply).toHaveAttribute('data-status', 'done');
  const inspector = reply.getByRole('complementary', { name: 'Stream inspector' });
  await inspector.getByRole('button', { name: 'Details' }).click();
  // The end of a long stream does not carry its frames (megabytes for the page to parse at once).
  const frames = inspector.getByRole('list', { name: 'Frames' });
  await expect(inspector).toContainText('Chunks (3000)');
  await inspector.getByRole('button', { name: 'Load the 3,001 raw frames' }).click();
  await expect(inspector).toContainText('Raw frames (3001)');
  await expect(frames).toContainText('"content"');
  await expect(inspector).not.toContainText('ended without [DONE]');
  await app.screenshot({ path: screenshotPath('playground-long-frames') });

  await reply.getByRole('button', { name: 'Save as fixture' }).click();
  await expect(reply.getByRole('status')).toContainText('(3000 chunks)');
});
