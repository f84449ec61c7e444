// The Playground as a person drives it: its message box, the replies of an agent, choosing the
// agent, sending, and going to another screen through the main navigation.
import type { Locator, Page } from '@playwright/test';
import { expect } from './fixtures';

export const messageBox = (app: Page): Locator => app.getByRole('textbox', { name: 'Message' });

export const replies = (app: Page, agent: string): Locator =>
  app.getByRole('article', { name: `Reply from ${agent}` });

export const nav = (app: Page, name: string): Locator =>
  app.getByRole('navigation', { name: 'Main' }).getByRole('link', { name, exact: true });

/** Picks `slug` in the agent list once it is listed. */
export async function chooseAgent(app: Page, slug: string): Promise<void> {
  const picker = app.getByRole('combobox', { name: 'Agent' });
  await expect(picker.locator(`option[value="${slug}"]`)).toBeAttached();
  await picker.selectOption(slug);
}

/** Types `text` in the message box and presses Send. */
export async function send(app: Page, text: string): Promise<void> {
  await messageBox(app).fill(text);
  await app.getByRole('button', { name: 'Send', exact: true }).click();
}
