// The history on Settings as its owner uses it: what the data folder holds, one agent's history
// deleted after a confirmation naming how much goes (the other agents' stays), and retention in days
// saved and applied at once, with a clear word for what is not a number of days.
import type { ConsoleCore } from '../../electron/core/console-core';
import { expect, screenshotLightAndDark, test } from './fixtures';
import { nav } from './playground-steps';

const DAY = 86_400_000;

async function seedHistory(core: ConsoleCore): Promise<void> {
  const now = Date.now();
  const items: Parameters<ConsoleCore['transcripts']['appendAll']>[0] = [];
  const add = (id: string, agent: string, ageDays: number, words: string) => {
    const ref = { profileId: 'embedded-mock', kind: 'session', id } as const;
    const at = new Date(now - ageDays * DAY).toISOString();
    const init = { agent, knownFrom: 'start' } as const;
    items.push(
      {
        ref,
        message: { role: 'user', content: `${words}: where is my order?`, status: 'complete', at },
        init,
      },
      { ref, message: { role: 'agent', content: `${words}: it ships today.`, status: 'complete', at }, init },
    );
  };
  for (let i = 0; i < 1234; i++) add(`bill${i}`, 'billing', 1 + (i % 20), `Invoice ${i}`);
  for (let i = 0; i < 6; i++) add(`help${i}`, 'helpdesk', i * 20, `Parcel ${i}`);
  await core.transcripts.appendAll(items);
}

test("Settings shows the data folder's size, deletes one agent's history after saying how much, and keeps history for N days", async ({
  app,
  core,
}) => {
  await seedHistory(core);
  await nav(app, 'Settings').click();
  const card = app.getByRole('region', { name: 'History' });
  const sizes = card.getByLabel('Data folder size');
  await expect(sizes).toContainText('History database');
  await expect(sizes).toContainText(/History database\s*\d+(\.\d)? (kB|MB)/);
  await expect(sizes).toContainText('Data folder in all');
  await expect(card).toContainText('has 1,240 recorded conversations');

  // One agent's history: the dialog says how many conversations and messages go.
  await card.getByLabel('Delete the history of').selectOption('billing');
  await card.getByRole('button', { name: 'Delete…' }).click();
  const dialog = app.getByRole('dialog', { name: 'Delete 1,234 conversations with agent billing?' });
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText('2,468 messages');
  await screenshotLightAndDark(app, 'history-delete-confirm');
  // Cancelled, nothing goes.
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
  expect((await core.transcripts.list('embedded-mock', undefined, { limit: 1 })).total).toBe(1240);

  await card.getByRole('button', { name: 'Delete…' }).click();
  await dialog.getByRole('button', { name: 'Delete the history' }).click();
  await expect(card.getByRole('status')).toHaveText('1,234 conversations with agent billing deleted.');
  await expect(card).toContainText('has 6 recorded conversations');
  const left = await core.transcripts.list('embedded-mock');
  expect(left.summaries.map((s) => s.agent)).toEqual(Array(6).fill('helpdesk'));
  expect(core.transcripts.search({ text: 'Invoice' }).hits).toEqual([]);
  await expect(card.getByLabel('Delete the history of').locator('option')).toHaveText([
    'every agent of Embedded mock',
    'helpdesk (6 conversations)',
  ]);

  // Retention: what is not a number of days is said in words; 30 days deletes the older ones.
  const days = card.getByRole('textbox', { name: 'Keep conversations for (days)' });
  await days.fill('a month');
  await card.getByRole('button', { name: 'Save retention' }).click();
  await expect(card).toContainText('Days to keep: a whole number of days, 1 or more.');
  await days.fill('30');
  await card.getByRole('button', { name: 'Save retention' }).click();
  await expect(card.getByRole('status')).toHaveText('Saved. 4 conversations deleted, oldest first.');
  expect((await core.transcripts.list('embedded-mock')).summaries.map((s) => s.id)).toEqual([
    'help0',
    'help1',
  ]);
  expect(core.settings.read().history).toEqual({ keepDays: 30 });
  await screenshotLightAndDark(app, 'history-settings');
});
