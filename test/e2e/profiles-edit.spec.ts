// Profiles as a user changes them: a server whose certificate is not trusted is said to be that —
// not "could not reach" — with its issuer, and its CA can be read from the chain it presents,
// checked by issuer and fingerprint, and added to the profile; a profile is edited in place, and
// a new base URL for its key asks for the key again (docs/security.md, "Where a key may be sent").
import { X509Certificate } from 'node:crypto';
import type { Locator, Page } from '@playwright/test';
import type { MockServer } from '../../mock/server';
import { PROXY_PASSWORD, PROXY_USER, startProxy } from '../support/real-proxy';
import { addKey, addProfile } from './account-steps';
import { expect, screenshotLightAndDark, test } from './fixtures';

/** Adds the profile "Local" on the mock, with its CA, and opens its edit form. */
async function editLocalProfile(app: Page, mock: MockServer): Promise<Locator> {
  const key = { name: 'thirty', secret: mock.keys.tier30 };
  await addKey(app, { ...key, server: mock.baseUrl });
  await addProfile(app, { name: 'Local', baseUrl: mock.baseUrl, key, ca: mock.ca });
  await app.getByRole('listitem', { name: 'Local' }).getByRole('button', { name: 'Edit Local' }).click();
  return app.getByRole('form', { name: 'Edit the profile Local' });
}

test('a certificate not trusted is said so with its issuer; its CA is read, checked and added in the edit form', async ({
  app,
  mock,
}) => {
  const key = { name: 'thirty', secret: mock.keys.tier30 };
  await addKey(app, { ...key, server: mock.baseUrl });
  await addProfile(app, { name: 'Staging', baseUrl: mock.baseUrl, key });

  const card = app.getByRole('listitem', { name: 'Staging' });
  await card.getByRole('button', { name: 'Test connection' }).click();
  const failure = card.getByRole('alert');
  await expect(failure).toContainText(
    "The service's certificate is not trusted; its issuer is CN=Agent Console mock CA.",
  );
  await expect(failure).toContainText('UNTRUSTED_CERT');
  await expect(failure).not.toContainText('Could not reach');

  await card.getByRole('button', { name: 'Edit Staging' }).click();
  const form = app.getByRole('form', { name: 'Edit the profile Staging' });
  await expect(form.getByLabel('Name')).toHaveValue('Staging');
  await expect(form.getByLabel('Base URL')).toHaveValue(mock.baseUrl);
  await form.getByRole('button', { name: 'Trust the server’s CA…' }).click();
  const ask = app.getByRole('dialog', { name: 'Trust this CA for the profile?' });
  const ca = new X509Certificate(mock.ca);
  await expect(ask.getByTestId('server-ca')).toContainText('CN=Agent Console mock CA');
  await expect(ask.getByTestId('server-ca')).toContainText(ca.fingerprint256);
  await expect(ask.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await screenshotLightAndDark(app, 'profiles-trust-ca');
  await ask.getByRole('button', { name: 'Use this CA' }).click();
  await expect(form.getByLabel('CA certificate (optional, PEM)')).toHaveValue(/BEGIN CERTIFICATE/);
  await form.getByRole('button', { name: 'Save profile' }).click();
  await expect(app.getByRole('form', { name: 'Add a profile' })).toBeVisible();

  await card.getByRole('button', { name: 'Test connection' }).click();
  await expect(card.getByRole('status')).toContainText('Connected in');
  await expect(card).not.toContainText('System trust store');
});

test('a profile is edited in place: renamed, and a new base URL for its key asks for the key again', async ({
  app,
  mock,
}) => {
  const form = await editLocalProfile(app, mock);
  // A new name only: saved at once.
  await expect(form).toContainText('Trusts the CA in');
  await form.getByLabel('Name').fill('Local mock');
  await form.getByRole('button', { name: 'Save profile' }).click();
  const card = app.getByRole('listitem', { name: 'Local mock' });
  await expect(card).toBeVisible();
  await expect(app.getByRole('listitem', { name: 'Local', exact: true })).toHaveCount(0);

  // The same service by another name is another origin: the key is typed again first.
  const other = mock.baseUrl.replace('127.0.0.1', 'localhost');
  await card.getByRole('button', { name: 'Edit Local mock' }).click();
  const edit = app.getByRole('form', { name: 'Edit the profile Local mock' });
  await edit.getByLabel('Base URL').fill(other);
  await screenshotLightAndDark(app, 'profiles-edit');
  await edit.getByRole('button', { name: 'Save profile' }).click();
  const confirm = app.getByRole('form', { name: 'Confirm the new server' });
  await expect(confirm).toContainText(new URL(other).origin);
  await expect(card).toContainText(mock.baseUrl);
  await confirm.getByLabel('Type or paste the key again to confirm').fill(mock.keys.tier30);
  await confirm.getByRole('button', { name: 'Confirm and save profile' }).click();
  await expect(card).toContainText(other);
  await card.getByRole('button', { name: 'Test connection' }).click();
  await expect(card.getByRole('status')).toContainText('Connected in');
});

test('a profile removed while its form is open: what was typed is kept, and saves as a new profile', async ({
  app,
  mock,
}) => {
  const editForm = await editLocalProfile(app, mock);
  await editForm.getByLabel('Name').fill('Local again');
  await app.getByRole('button', { name: 'Remove Local' }).click();
  await app
    .getByRole('dialog', { name: 'Remove the profile “Local”?' })
    .getByRole('button', { name: 'Remove the profile' })
    .click();
  await expect(app.getByRole('listitem', { name: 'Local' })).toHaveCount(0);

  const addForm = app.getByRole('form', { name: 'Add a profile' });
  await expect(addForm.getByRole('status')).toHaveText(
    'The profile “Local” was removed while you edited it. What you typed is kept: Add profile saves it as a new profile.',
  );
  await expect(addForm.getByLabel('Name')).toHaveValue('Local again');
  await expect(addForm.getByLabel('Base URL')).toHaveValue(mock.baseUrl);
  await screenshotLightAndDark(app, 'profiles-removed-while-editing');
  await addForm.getByRole('button', { name: 'Add profile' }).click();
  await expect(app.getByRole('listitem', { name: 'Local again' })).toBeVisible();
  await expect(addForm.getByRole('status')).toHaveCount(0);
  await expect(addForm.getByLabel('Name')).toHaveValue('');
});

test('a profile behind a proxy of its own: connected through it, its password kept in the keychain and never shown', async ({
  app,
  mock,
}) => {
  const proxy = await startProxy();
  try {
    const key = { name: 'thirty', secret: mock.keys.tier30 };
    await addKey(app, { ...key, server: mock.baseUrl });
    await app.getByRole('link', { name: 'Profiles' }).click();
    const form = app.getByRole('form', { name: 'Add a profile' });
    await form.getByLabel('Name').fill('Office');
    await form.getByLabel('Base URL').fill(mock.baseUrl);
    await form
      .getByRole('combobox', { name: 'Key', exact: true })
      .selectOption({ label: `thirty (…${key.secret.slice(-4)})` });
    await form.getByLabel('CA certificate (optional, PEM)').fill(mock.ca);
    await form.getByRole('combobox', { name: /^Proxy/ }).selectOption('This proxy…');
    await form.getByLabel('Proxy URL').fill(proxy.url(PROXY_USER));
    await form.getByLabel('Proxy password').fill(PROXY_PASSWORD);
    await screenshotLightAndDark(app, 'profiles-proxy-form');
    await form.getByRole('button', { name: 'Add profile' }).click();

    const card = app.getByRole('listitem', { name: 'Office' });
    await expect(card).toContainText(`${proxy.url(PROXY_USER)} (password in the keychain)`);
    await card.getByRole('button', { name: 'Test connection' }).click();
    await expect(card.getByRole('status')).toContainText('Connected in');
    expect(proxy.tunnels).toContain(new URL(mock.baseUrl).host);

    await card.getByRole('button', { name: 'Edit Office' }).click();
    const edit = app.getByRole('form', { name: 'Edit the profile Office' });
    await expect(edit.getByLabel('Proxy URL')).toHaveValue(proxy.url(PROXY_USER));
    await expect(edit.getByLabel('Proxy password')).toHaveValue('');
    await expect(edit.getByLabel('Proxy password')).toHaveAttribute(
      'placeholder',
      'Kept in the keychain: type to replace',
    );
    await screenshotLightAndDark(app, 'profiles-proxy-edit');
    expect(await app.content()).not.toContain(PROXY_PASSWORD);
  } finally {
    await proxy.close();
  }
});
