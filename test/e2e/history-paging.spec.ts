// A long record read a page at a time: a conversation of 5,000 recorded messages opens at its
// latest ones, with only a page of them on the page, and shows older ones as the user scrolls up;
// a search hit deep in it opens there, without reading the rest.
import type { ConsoleCore } from '../../electron/core/console-core';
import type { MockServer } from '../../mock/server';
import { expect, screenshotLightAndDark, test } from './fixtures';
import { nav } from './playground-steps';

const LENGTH = 5_000;
const SESSION = 'longsupport1';

async function seedLongConversation(core: ConsoleCore, mock: MockServer): Promise<void> {
  const start = Date.now() - 7 * 86_400_000;
  const at = (m: number): string => new Date(start + m * 60_000).toISOString();
  const ref = { profileId: 'embedded-mock', kind: 'session', id: SESSION } as const;
  await core.transcripts.appendAll(
    Array.from({ length: LENGTH }, (_, m) => ({
      ref,
      message: {
        role: m % 2 === 0 ? ('user' as const) : ('agent' as const),
        content: m === 3 ? 'Message 3: the pallet number is ZX81' : `Message ${m} of the long chat`,
        status: 'complete' as const,
        at: at(m),
      },
      init: { agent: 'helpdesk', knownFrom: 'start' as const },
    })),
  );
  mock.service.state.conversations.push({
    id: 'conv_longsupport1',
    agent: 'helpdesk',
    session_id: SESSION,
    message_count: LENGTH,
    started_at: at(0),
    last_message_at: at(LENGTH - 1),
    history: [],
  });
}

test('a 5,000-message conversation opens at its latest messages and shows older ones on scrolling up', async ({
  app,
  core,
  mock,
}) => {
  await seedLongConversation(core, mock);
  await nav(app, 'Conversations').click();
  await app.getByRole('row').filter({ hasText: SESSION }).first().click();
  const detail = app.getByRole('region', { name: 'Conversation detail' });
  await expect(detail).toContainText('Known from the start: 5000 messages');
  const messages = detail.locator('li.message');
  // The latest message is on screen; the first is not even read.
  await expect(messages.last()).toContainText(`Message ${LENGTH - 1} of the long chat`);
  await expect(messages.last()).toBeInViewport();
  await expect(messages).toHaveCount(100);
  await expect(detail.getByText('Message 0 of the long chat', { exact: true })).toHaveCount(0);
  await screenshotLightAndDark(app, 'history-paging-latest');

  // Scrolling up to the top of what is shown reads the page before it, and the view stays put.
  const older = detail.getByRole('button', { name: /^Show older messages \(4,900 before these\)/ });
  await older.scrollIntoViewIfNeeded();
  await expect(messages).toHaveCount(200);
  await expect(messages.first()).toContainText(`Message ${LENGTH - 200} of the long chat`);
  await expect(detail.getByRole('button', { name: /^Show older messages \(4,800 before/ })).toBeVisible();
  await expect(detail.getByText(`Message ${LENGTH - 100} of the long chat`)).toHaveCount(1);

  // A search hit near its start opens there: the found message and a page after it, not 5,000.
  await app.locator('body').press('/');
  const dialog = app.getByRole('dialog', { name: 'Search history' });
  await dialog.getByRole('searchbox', { name: 'Search the recorded messages' }).fill('ZX81');
  await expect(dialog.locator('.search-hit')).toHaveCount(1);
  await dialog.locator('.search-hit').first().click();
  const found = app.getByLabel('The message the search found');
  await expect(found).toContainText('the pallet number is ZX81');
  await expect(found).toBeInViewport();
  expect(await messages.count()).toBeLessThanOrEqual(200);
  await expect(detail.getByText(`Message ${LENGTH - 1} of the long chat`)).toHaveCount(0);
});
