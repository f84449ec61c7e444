// The certificate a profile shows a service that asks for one (mutual TLS): a PEM file with its
// key (or the key from a file of its own), or a PKCS#12 file with its passphrase. The core checks
// it when the profile is saved, keeps a copy readable by the user only and the passphrase in the
// keychain; this form only reads the files the user picks. Its file inputs are made anew with
// each new form (the screen keys it), so a saved form shows no file still chosen.
import type { UseFormReturn } from 'react-hook-form';
import { clientCertExpiry } from '../../../shared/client-cert-expiry';
import type { ProfileInfo } from '../../../shared/bridge/profiles';
import type { ProfileFormValues } from './profile-form';

/** PEM as its text; anything else (a PKCS#12 file) as base64, the way the bridge carries bytes. */
async function readCertificateFile(file: File): Promise<string> {
  const bytes = new Uint8Array(await file.arrayBuffer());
  const head = new TextDecoder().decode(bytes.subarray(0, 8192));
  if (head.includes('-----BEGIN')) return new TextDecoder().decode(bytes);
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}

export function ClientCertFields({
  form,
  editing,
  remove,
  onRemoveChange,
}: {
  form: UseFormReturn<ProfileFormValues, unknown, unknown>;
  editing: ProfileInfo | undefined;
  remove: boolean;
  onRemoveChange: (remove: boolean) => void;
}) {
  const kept = editing?.clientCert;
  const pick =
    (field: 'clientCert' | 'clientKey') =>
    async (event: React.ChangeEvent<HTMLInputElement>): Promise<void> => {
      const file = event.target.files?.[0];
      form.setValue(
        field,
        !file ? '' : field === 'clientCert' ? await readCertificateFile(file) : await file.text(),
      );
    };
  return (
    <fieldset className="plain">
      <legend>Client certificate (optional)</legend>
      {kept ? (
        <>
          <p className="field-hint">
            Shows <strong>{kept.subject}</strong> ({kept.format === 'pkcs12' ? 'PKCS#12' : 'PEM'}, issued by{' '}
            {kept.issuer}); a file chosen below replaces it.
          </p>
          <label className="checkbox">
            <input type="checkbox" checked={remove} onChange={(e) => onRemoveChange(e.target.checked)} />
            Show no client certificate
          </label>
        </>
      ) : null}
      <label className="file">
        Certificate: PEM (with its key) or PKCS#12 (.p12, .pfx)
        <input type="file" accept=".pem,.crt,.cer,.p12,.pfx" onChange={(e) => void pick('clientCert')(e)} />
      </label>
      <label className="file">
        Its private key (PEM), if it is in a file of its own
        <input type="file" accept=".pem,.key" onChange={(e) => void pick('clientKey')(e)} />
      </label>
      <label>
        Passphrase
        <input
          {...form.register('clientCertPassphrase')}
          type="password"
          autoComplete="off"
          placeholder={
            kept?.passphraseSavedAt !== undefined
              ? 'Kept in the keychain: give it again with a new file'
              : 'For a PKCS#12 file or an encrypted key'
          }
        />
      </label>
      <p className="field-hint">
        Shown only to a service that asks for one. A copy is kept in the data folder, readable by you only;
        the passphrase goes to the keychain.
      </p>
    </fieldset>
  );
}

/** The profile card's line for its client certificate, and whether it needs the user's eye. */
export function clientCertFact(profile: ProfileInfo, now: number): { text: string; warn: boolean } {
  const cert = profile.clientCert;
  if (!cert) return { text: 'None', warn: false };
  const expiry = clientCertExpiry(cert.validTo, now);
  return { text: `${cert.subject} — ${expiry.words}`, warn: expiry.state !== 'valid' };
}
