// Reviews as support staff make them: the team's labels added (one named with quotes and markup,
// shown as text); an order number found with the search box and its conversation opened; three
// replies reviewed from the keyboard and the mouse — one "wrong" with the corrected answer in its
// note —, shown as coloured chips; the queue's progress and filters, j / k through it; the export
// downloaded and read; the export's in-app link opening the conversation at that reply.
// Screenshots light and dark.
import type { ConsoleCore } from '../../electron/core/console-core';
import type { MockServer } from '../../mock/server';
import { expect, screenshotLightAndDark, test } from './fixtures';
import { nav } from './playground-steps';

const SESSIONS = 12;
const MESSAGES = 8;

/** A fortnight of recorded conversations; one of them about refund 4711. */
async function seedHistory(core: ConsoleCore, mock: MockServer): Promise<void> {
  const start = Date.now() - 14 * 86_400_000;
  for (let s = 0; s < SESSIONS; s++) {
    const ref = { profileId: 'embedded-mock', kind: 'session', id: `support${s}` } as const;
    const at = (m: number): string => new Date(start + s * 20 * 3_600_000 + m * 60_000).toISOString();
    for (let m = 0; m < MESSAGES; m++) {
      const content =
        s === 7
          ? [
              'Where is my refund for order 4711?',
              'Refunds take 90 days to arrive.',
              'That seems long. Can you check?',
              'I checked: the parcel for order 4711 left the warehouse.',
              'I asked about the refund, not the parcel.',
              'Sorry about that. Anything else?',
              'Please escalate.',
              'Escalated to billing.',
            ][m]
          : m % 2 === 0
            ? `Hello, question ${m / 2 + 1} about order ${5000 + s}.`
            : `Thanks, I have noted it on order ${5000 + s}.`;
      await core.transcripts.append(
        ref,
        { role: m % 2 === 0 ? 'user' : 'agent', content: content as string, status: 'complete', at: at(m) },
        { agent: 'helpdesk', knownFrom: 'start' },
      );
    }
    mock.service.state.conversations.push({
      id: `conv_support${s}`,
      agent: 'helpdesk',
      session_id: ref.id,
      message_count: MESSAGES,
      started_at: at(0),
      last_message_at: at(MESSAGES - 1),
      history: [],
    });
  }
}

test('a support person labels three replies of an order’s conversation, works the queue and exports the reviews', async ({
  app,
  core,
  mock,
}) => {
  await seedHistory(core, mock);

  // The team's labels, on the Reviews screen; a name of quotes and markup stays text.
  await nav(app, 'Reviews').click();
  const labels = app.getByRole('region', { name: 'Labels' });
  for (const [name, colour] of [
    ['refund', '#d03050'],
    ['shipping', '#2080f0'],
    ['<b>"VIP"</b>', '#18a058'],
  ] as const) {
    await labels.getByRole('textbox', { name: 'New label' }).fill(name);
    await labels.getByLabel('Colour', { exact: true }).fill(colour);
    await labels.getByRole('button', { name: 'Add label' }).click();
    await expect(labels.locator('.label-chip', { hasText: name })).toBeVisible();
  }
  await expect(labels.locator('b')).toHaveCount(0);
  await expect(app.getByRole('status').filter({ hasText: 'replies reviewed' })).toHaveText(
    '0 of 48 replies reviewed',
  );

  // The order number, found from the search box; the hit opens the conversation at that message.
  await app.keyboard.press('Control+k');
  const search = app.getByRole('dialog', { name: 'Search history' });
  await search.getByRole('searchbox', { name: 'Search the recorded messages' }).fill('refund 4711');
  await expect(search.locator('.search-hit')).toHaveCount(1);
  await search.locator('.search-hit').click();
  const detail = app.getByRole('region', { name: 'Conversation detail' });
  await expect(app.getByLabel('The message the search found')).toContainText(
    'Where is my refund for order 4711?',
  );

  // Message 2, from the keyboard: wrong, labelled refund, the right answer in its note.
  await detail.getByRole('button', { name: 'Review message 2' }).focus();
  await app.keyboard.press('Enter');
  const form2 = detail.getByRole('form', { name: 'Review of message 2' });
  await form2.getByRole('radio', { name: 'Wrong' }).focus();
  await app.keyboard.press('Space');
  await form2.getByRole('checkbox', { name: 'refund' }).check();
  await form2
    .getByRole('textbox', { name: /Note/ })
    .fill('Refunds for order 4711 arrive within 5 working days; it was sent on Monday.');
  await screenshotLightAndDark(app, 'reviews-form');
  await form2.getByRole('button', { name: 'Save review' }).click();
  const message2 = detail.locator('.messages > li').nth(1);
  await expect(message2.locator('.verdict')).toHaveText('Wrong');
  await expect(message2.locator('.label-chip')).toHaveText('refund');
  await expect(message2.locator('.review-note')).toContainText('within 5 working days');

  // Message 4: needs work, two labels; message 6: good.
  await detail.getByRole('button', { name: 'Review message 4' }).click();
  const form4 = detail.getByRole('form', { name: 'Review of message 4' });
  await form4.getByRole('radio', { name: 'Needs work' }).check();
  await form4.getByRole('checkbox', { name: 'shipping' }).check();
  await form4.getByRole('checkbox', { name: '<b>"VIP"</b>' }).check();
  await form4.getByRole('button', { name: 'Save review' }).click();
  await expect(detail.locator('.messages > li').nth(3).locator('.label-chip')).toHaveText([
    '<b>"VIP"</b>',
    'shipping',
  ]);
  await detail.getByRole('button', { name: 'Review message 6' }).click();
  const form6 = detail.getByRole('form', { name: 'Review of message 6' });
  await form6.getByRole('radio', { name: 'Good' }).check();
  await form6.getByRole('button', { name: 'Save review' }).click();
  await expect(detail.locator('.messages > li').nth(5).locator('.verdict')).toHaveText('Good');
  await message2.scrollIntoViewIfNeeded();
  await screenshotLightAndDark(app, 'reviews-conversation');

  // The queue: progress, what is left, j / k, and the reviewed ones by label.
  await nav(app, 'Reviews').click();
  const progress = app.getByRole('status').filter({ hasText: 'replies reviewed' });
  await expect(progress).toHaveText('3 of 48 replies reviewed');
  const queue = app.getByRole('list', { name: 'Items to review' });
  await expect(queue.locator('.queue-item')).toHaveCount(45);
  const open = app.getByRole('region', { name: 'The item under review' });
  await expect(open).toContainText('1 of 45');
  await app.locator('body').press('j');
  await app.locator('body').press('j');
  await expect(open).toContainText('3 of 45');
  await app.locator('body').press('k');
  await expect(open).toContainText('2 of 45');
  const queueHead = app.getByRole('region', { name: 'Review queue' });
  await queueHead.getByRole('combobox', { name: 'Show' }).selectOption('reviewed');
  await queueHead.getByRole('combobox', { name: 'Label' }).selectOption('refund');
  await expect(queue.locator('.queue-item')).toHaveCount(1);
  await expect(open).toContainText('Refunds take 90 days to arrive.');
  await expect(open.getByRole('textbox', { name: /Note/ })).toHaveValue(/within 5 working days/);
  await queueHead.getByRole('combobox', { name: 'Label' }).selectOption('');
  await expect(queue.locator('.queue-item')).toHaveCount(3);
  await screenshotLightAndDark(app, 'reviews-queue');

  // The export, downloaded and read: every review, its ids and the link back.
  const csvDownload = app.waitForEvent('download');
  await queueHead.getByRole('button', { name: 'Export CSV' }).click();
  const csv = await (
    await (await csvDownload).createReadStream()
  )
    .toArray()
    .then((chunks) => Buffer.concat(chunks).toString('utf8'));
  const rows = csv.trimEnd().split('\r\n');
  expect(rows[0]).toBe(
    'reviewed_at,profile_id,kind,id,message_index,role,agent,verdict,labels,note,text,link',
  );
  expect(rows).toHaveLength(4);
  const wrong = rows.find((r) => r.includes(',wrong,')) as string;
  expect(wrong).toContain(
    ',embedded-mock,session,support7,1,agent,helpdesk,wrong,refund,Refunds for order 4711 arrive within 5 working days; it was sent on Monday.,Refunds take 90 days to arrive.,#/conversations/support7?message=1',
  );
  expect(rows.find((r) => r.includes(',needs-work,'))).toContain(',"<b>""VIP""</b>; shipping",');
  await expect(queueHead.getByText('3 reviews exported.')).toBeVisible();
  const jsonDownload = app.waitForEvent('download');
  await queueHead.getByRole('button', { name: 'Export JSON' }).click();
  const json = JSON.parse(
    await (
      await (await jsonDownload).createReadStream()
    )
      .toArray()
      .then((chunks) => Buffer.concat(chunks).toString('utf8')),
  ) as { reviews: { id: string; message_index: number; verdict: string; link: string }[] };
  expect(json.reviews.map((r) => [r.message_index, r.verdict]).sort()).toEqual([
    [1, 'wrong'],
    [3, 'needs-work'],
    [5, 'good'],
  ]);

  // The export's link, in the address bar, opens the conversation at that reply.
  await nav(app, 'Usage').click();
  await app.evaluate(
    (link) => (window.location.hash = link),
    json.reviews.find((r) => r.verdict === 'needs-work')?.link as string,
  );
  await expect(app.getByRole('heading', { name: 'Conversations', level: 1 })).toBeVisible();
  await expect(app.getByLabel('The message the search found')).toContainText('the parcel for order 4711');

  // Pasted into Open by id (the desktop app has no address bar), a link opens its reply too.
  const wrongLink = json.reviews.find((r) => r.verdict === 'wrong')?.link as string;
  await app.getByRole('searchbox', { name: 'Agent, thread or conversation id' }).fill(wrongLink);
  await app.keyboard.press('Enter');
  await expect(app.getByLabel('The message the search found')).toContainText('Refunds take 90 days');

  // Saved means kept: a reload shows the reviews from the database.
  await app.reload();
  await app.locator('[data-app-state="ready"]').waitFor();
  await nav(app, 'Reviews').click();
  await expect(app.getByRole('status').filter({ hasText: 'replies reviewed' })).toHaveText(
    '3 of 48 replies reviewed',
  );
});
