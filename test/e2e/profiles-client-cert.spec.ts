// A profile for a service behind mutual TLS, as a person sets it up: the service refuses the
// connection and says it wants a client certificate; the person picks their PKCS#12 file and
// types its passphrase; the card shows whom the certificate names and until when, and warns
// when it is about to expire.
import { join } from 'node:path';
import { startMockServer } from '../../mock/server';
import { makeClientCerts, P12_PASSPHRASE } from '../support/client-certs';
import { removeDir, tempDir } from '../support/mock';
import { addKey, addProfile } from './account-steps';
import { expect, screenshotLightAndDark, test } from './fixtures';

test('a service that wants a client certificate: refused in words, then connected with a PKCS#12 and its passphrase; expiry shown and warned', async ({
  app,
}) => {
  const certs = makeClientCerts();
  const dataDir = tempDir('agent-console-e2e-mtls-');
  const secured = await startMockServer({ dataDir, clientCa: certs.caPem });
  try {
    const key = { name: 'secured', secret: secured.keys.pro };
    await addKey(app, { ...key, server: secured.baseUrl });
    await addProfile(app, { name: 'Secured', baseUrl: secured.baseUrl, key, ca: secured.ca });
    const card = app.getByRole('listitem', { name: 'Secured' });
    await expect(card).toContainText('Client certificate');
    await card.getByRole('button', { name: 'Test connection' }).click();
    await expect(card.getByRole('alert').or(card.getByRole('status'))).toContainText(
      'asked for a client certificate',
    );

    await card.getByRole('button', { name: 'Edit Secured' }).click();
    const edit = app.getByRole('form', { name: 'Edit the profile Secured' });
    await edit.getByLabel('Certificate: PEM').setInputFiles(join(certs.dir, 'alice.p12'));
    await edit.getByLabel('Passphrase').fill(P12_PASSPHRASE);
    await screenshotLightAndDark(app, 'profiles-client-cert-form');
    await edit.getByRole('button', { name: 'Save profile' }).click();

    await expect(card).toContainText(/CN=alice, O=Acme Support — valid until \d+ \w+ \d{4}/);
    await card.getByRole('button', { name: 'Test connection' }).click();
    await expect(card.getByRole('status')).toContainText('Connected in');
    expect(await app.content()).not.toContain(P12_PASSPHRASE);

    // A renewed certificate that runs out in days: the card says so, marked.
    await card.getByRole('button', { name: 'Edit Secured' }).click();
    await edit.getByLabel('Certificate: PEM').setInputFiles(join(certs.dir, 'soon.pem'));
    await edit.getByLabel('Its private key').setInputFiles(join(certs.dir, 'soon-key.pem'));
    await edit.getByRole('button', { name: 'Save profile' }).click();
    const fact = card.getByText(/CN=soon, O=Acme Support — expires in [45] days/);
    await expect(fact).toBeVisible();
    await expect(fact).toHaveClass(/warn-text/);
    await card.getByRole('button', { name: 'Test connection' }).click();
    await expect(card.getByRole('status')).toContainText('Connected in');
    await screenshotLightAndDark(app, 'profiles-client-cert-card');
  } finally {
    await secured.close();
    removeDir(dataDir);
    removeDir(certs.dir);
  }
});
