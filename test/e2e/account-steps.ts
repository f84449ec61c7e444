// Keys and profiles as a person adds them: a key on the Keys screen for the server it is sent to,
// a profile for it on the Profiles screen.
import type { Page } from '@playwright/test';
import { expect } from './fixtures';

/** Adds a key for `server` on the Keys screen and waits for it in the table. */
export async function addKey(
  app: Page,
  key: { name: string; secret: string; server: string },
): Promise<void> {
  await app.getByRole('link', { name: 'Keys' }).click();
  const keyForm = app.getByRole('form', { name: 'Add a key' });
  await keyForm.getByLabel('Name').fill(key.name);
  await keyForm.getByLabel('Key', { exact: true }).fill(key.secret);
  await keyForm.getByLabel('Server').fill(key.server);
  await keyForm.getByRole('button', { name: 'Add key' }).click();
  await expect(app.getByRole('table', { name: 'Keys' })).toContainText(key.name);
}

/** Adds a profile on the Profiles screen with a key added by addKey, trusting `ca` if given. */
export async function addProfile(
  app: Page,
  profile: { name: string; baseUrl: string; key: { name: string; secret: string }; ca?: string },
): Promise<void> {
  await app.getByRole('link', { name: 'Profiles' }).click();
  const form = app.getByRole('form', { name: 'Add a profile' });
  await form.getByLabel('Name').fill(profile.name);
  await form.getByLabel('Base URL').fill(profile.baseUrl);
  await form
    .getByRole('combobox', { name: 'Key', exact: true })
    .selectOption({ label: `${profile.key.name} (…${profile.key.secret.slice(-4)})` });
  if (profile.ca !== undefined) await form.getByLabel('CA certificate (optional, PEM)').fill(profile.ca);
  await form.getByRole('button', { name: 'Add profile' }).click();
}
