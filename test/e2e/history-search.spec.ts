// The history search as support staff use it: among weeks of recorded conversations, find the one
// about order 4711 from any screen (Ctrl+K, or "/" when not typing), read the marked snippets, and
// open the hit: the conversation shows, scrolled to that message. Screenshots light and dark.
import type { ConsoleCore } from '../../electron/core/console-core';
import type { MockServer } from '../../mock/server';
import { expect, screenshotLightAndDark, test } from './fixtures';
import { messageBox, nav } from './playground-steps';

const TOPICS = [
  'my parcel has not arrived',
  'how do I change my address',
  'the invoice shows the wrong VAT number',
  'can I pay by bank transfer',
  'refund 4712 for the blue kettle',
];

/** Weeks of recorded conversations; one, deep in its history, about refund 4711. */
async function seedHistory(core: ConsoleCore, mock: MockServer): Promise<void> {
  const start = Date.now() - 30 * 86_400_000;
  for (let s = 0; s < 40; s++) {
    const ref = { profileId: 'embedded-mock', kind: 'session', id: `support${s}` } as const;
    const at = (m: number): string => new Date(start + s * 17 * 3_600_000 + m * 60_000).toISOString();
    for (let m = 0; m < 14; m++) {
      const topic = TOPICS[(s + m) % TOPICS.length] as string;
      const content =
        s === 23 && m === 9
          ? 'Customer writes again: refund 4711 was promised last week and never arrived. Please escalate.'
          : m % 2 === 0
            ? `Hello, ${topic}. Order ${5000 + s}.`
            : `Thanks for writing about that: ${topic}. I have noted it on order ${5000 + s}.`;
      await core.transcripts.append(
        ref,
        { role: m % 2 === 0 ? 'user' : 'agent', content, status: 'complete', at: at(m) },
        { agent: s % 3 === 0 ? 'billing' : 'helpdesk', knownFrom: 'start' },
      );
    }
    mock.service.state.conversations.push({
      id: `conv_support${s}`,
      agent: s % 3 === 0 ? 'billing' : 'helpdesk',
      session_id: ref.id,
      message_count: 14,
      started_at: at(0),
      last_message_at: at(13),
      history: [],
    });
  }
}

test('a support person finds "refund 4711" among recorded conversations and opens it at that message', async ({
  app,
  core,
  mock,
}) => {
  await seedHistory(core, mock);
  await nav(app, 'Usage').click();
  const dialog = app.getByRole('dialog', { name: 'Search history' });

  // "/" from a screen, not from a field.
  await app.locator('body').press('/');
  await expect(dialog).toBeVisible();
  const box = dialog.getByRole('searchbox', { name: 'Search the recorded messages' });
  await expect(box).toBeFocused();
  await box.fill('refund 4711');
  const hits = dialog.locator('.search-hit');
  // One message among 560 says both; its conversation is titled by its first question.
  await expect(dialog.getByRole('status')).toContainText('1 message, newest first');
  await expect(hits).toHaveCount(1);
  await expect(hits.first()).toContainText('Order 5023');
  await expect(hits.first()).toContainText('refund 4711 was promised');
  await expect(hits.first().locator('mark')).toHaveText(['refund', '4711']);
  // The filters narrow it: another agent has no such message.
  await dialog.getByRole('textbox', { name: 'Agent' }).fill('billing');
  await expect(dialog.getByRole('status')).toHaveText('No recorded message matches.');
  await dialog.getByRole('textbox', { name: 'Agent' }).fill('');
  await box.fill('refund');
  await expect(hits.first()).toBeVisible();
  expect(await hits.count()).toBeGreaterThan(10);
  await box.fill('refund 4711');
  await expect(hits).toHaveCount(1);
  await screenshotLightAndDark(app, 'history-search');

  // Opened from the keyboard: the conversation, scrolled to that message and marked.
  await box.press('ArrowDown');
  await expect(hits.first()).toBeFocused();
  await app.keyboard.press('Enter');
  await expect(dialog).toBeHidden();
  await expect(app.getByRole('heading', { name: 'Conversations' })).toBeVisible();
  const found = app.getByLabel('The message the search found');
  await expect(found).toContainText('refund 4711 was promised last week');
  await expect(found).toBeInViewport();
  await expect(app.locator('.message-found')).toHaveCount(1);
  await screenshotLightAndDark(app, 'history-search-opened');

  // Ctrl+K from a field too; "/" typed into the message box is a character.
  await nav(app, 'Playground').click();
  await messageBox(app).click();
  await app.keyboard.type('a/b');
  await expect(dialog).toBeHidden();
  await expect(messageBox(app)).toHaveValue('a/b');
  await app.keyboard.press('Control+k');
  await expect(dialog).toBeVisible();
  await app.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
});
