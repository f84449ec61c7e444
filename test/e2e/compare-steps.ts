// The Playground's Compare as a person drives it: switch to Compare, tick exactly these agents,
// and send one message to all of them.
import type { Page } from '@playwright/test';

/** Compare mode, with exactly `slugs` ticked (the screen ticks the first two deployed ones itself). */
export async function compareAgents(app: Page, slugs: readonly string[]): Promise<void> {
  await app.getByRole('radio', { name: 'Compare' }).check();
  const group = app.getByRole('group', { name: 'Agents to compare' });
  const ticked = group.getByRole('checkbox', { checked: true });
  while ((await ticked.count()) > 0) await ticked.first().uncheck();
  for (const slug of slugs) await group.getByRole('checkbox', { name: new RegExp(slug) }).check();
}

/** `compareAgents`, then `message` sent to all of them. */
export async function sendToAll(app: Page, slugs: readonly string[], message: string): Promise<void> {
  await compareAgents(app, slugs);
  await app.getByRole('textbox', { name: 'Message' }).fill(message);
  await app.getByRole('button', { name: 'Send to all' }).click();
}
