// Keys: add (name, secret and the server it is for; the shape is checked as you type), the masked
// list with the servers each key may go to, remove, and where the secrets are kept. The secret
// typed here goes to the core once and is cleared from the page.
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useConfirm } from '../../components/confirm-dialog';
import { ErrorMessage } from '../../components/error-message';
import type { BridgeInput, KeyInfo } from '../../../shared/bridge';
import { useAppInfo } from '../../data/app';
import { useAddKey, useKeys, useRemoveKey } from '../../data/keys';
import { useProfiles } from '../../data/profiles';
import { formResolver } from '../../data/contract';
import { keyForm, SERVER_START, type KeyFormValues } from './key-form';
import { ScreenHeading } from '../../shell/screen-heading';

export function KeysScreen() {
  const info = useAppInfo();
  const keys = useKeys();
  const profiles = useProfiles();
  const keychain = info.data?.keychain;
  const addKey = useAddKey();
  const removeKey = useRemoveKey();
  const form = useForm<KeyFormValues, unknown, BridgeInput<'keys:add'>>({
    resolver: formResolver(keyForm),
    mode: 'onChange',
    defaultValues: { name: '', secret: '', baseUrl: SERVER_START, sessionOnly: false },
  });
  const { isValid, isSubmitting: busy, errors } = form.formState;
  const [error, setError] = useState<unknown>();
  const [confirmDialog, confirm] = useConfirm();
  // Said as it is typed; an empty key shows the hint instead.
  const shape = form.watch('secret').trim() !== '' ? errors.secret?.message : undefined;
  // While the keychain is being checked, a key added waits for it in the core, then is kept there.
  const checking = keychain?.checking === true;
  const noKeychain = keychain?.available === false && !checking;
  const sessionOnly = form.watch('sessionOnly');
  // Servers this console already knows, to pick from rather than type.
  const knownServers = [...new Set(profiles.data?.map((p) => p.baseUrl) ?? [])];

  async function add(input: BridgeInput<'keys:add'>) {
    setError(undefined);
    try {
      await addKey.mutateAsync({ ...input, sessionOnly: input.sessionOnly || noKeychain });
      form.reset({ name: '', secret: '', baseUrl: SERVER_START, sessionOnly: input.sessionOnly });
    } catch (e) {
      setError(e); // what was typed stays, so it can be corrected
    }
  }

  function askToRemove(key: KeyInfo) {
    const where = key.storage === 'os-keychain' ? 'the system keychain' : 'this session';
    confirm(
      {
        title: `Remove the key “${key.name}”?`,
        body: `This deletes its secret (${key.last4}) from ${where}, and this console cannot show it again. The key itself stays valid at the service.`,
        confirmLabel: 'Remove the key',
        destructive: true,
      },
      () => remove(key),
    );
  }

  async function remove(key: KeyInfo) {
    setError(undefined);
    try {
      await removeKey.mutateAsync(key.id);
    } catch (e) {
      setError(e);
    }
  }

  return (
    <section className="screen">
      {confirmDialog}
      <ScreenHeading>Keys</ScreenHeading>
      {keychain?.available ? (
        <p className="note">
          Secrets are kept in your system keychain; this app stores only their names and last four characters.
        </p>
      ) : checking ? (
        <p className="note" role="status">
          {keychain.reason}
        </p>
      ) : keychain ? (
        <p className="warning" role="note">
          {keychain.reason ?? 'No system keychain is available.'} Keys added now are kept in memory for this
          session only.
        </p>
      ) : null}

      <form className="card form" onSubmit={form.handleSubmit(add)} aria-label="Add a key">
        <h2>Add a key</h2>
        <label>
          Name
          <input {...form.register('name')} maxLength={100} placeholder="e.g. staging" required />
        </label>
        <label>
          Key
          <input
            type="password"
            {...form.register('secret')}
            autoComplete="off"
            spellCheck={false}
            placeholder="abc_… (36 characters)"
            aria-invalid={shape ? true : undefined}
            aria-describedby="key-shape"
          />
        </label>
        <p id="key-shape" className={shape ? 'field-error' : 'field-hint'} aria-live="polite">
          {shape ??
            'Shown once at creation in the service’s dashboard: 3 letters or digits, “_”, then 32 more.'}
        </p>
        <label>
          Server
          <input
            {...form.register('baseUrl')}
            inputMode="url"
            spellCheck={false}
            list="known-servers"
            aria-describedby="key-server-hint"
            required
          />
        </label>
        <datalist id="known-servers">
          {knownServers.map((url) => (
            <option key={url} value={url} />
          ))}
        </datalist>
        <p id="key-server-hint" className="field-hint">
          The service’s base URL, as a profile has it. The key is sent to this server only; a profile for
          another one asks you to type the key again.
        </p>
        <label className="checkbox">
          <input
            type="checkbox"
            {...form.register('sessionOnly')}
            checked={sessionOnly || noKeychain}
            disabled={noKeychain}
          />
          Session only (kept in memory until the app closes)
        </label>
        <button type="submit" disabled={!isValid || busy}>
          {busy ? 'Adding…' : 'Add key'}
        </button>
        {error ? <ErrorMessage error={error} title="The key was not added." /> : null}
      </form>

      <table className="table" aria-label="Keys">
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Key</th>
            <th scope="col">Sent to</th>
            <th scope="col">Tier</th>
            <th scope="col">Kept in</th>
            <th scope="col">Added</th>
            <th scope="col">
              <span className="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {keys.data?.length === 0 ? (
            <tr>
              <td colSpan={7} className="empty">
                No keys yet.
              </td>
            </tr>
          ) : null}
          {keys.data?.map((k) => {
            const usedBy = profiles.data?.filter((p) => p.keyId === k.id) ?? [];
            return (
              <tr key={k.id}>
                <td>{k.name}</td>
                <td>
                  <code>{k.last4}</code>
                </td>
                <td>
                  {k.origins?.length ? (
                    k.origins.map((origin) => (
                      <code key={origin} className="origin">
                        {origin}
                      </code>
                    ))
                  ) : (
                    <span className="muted">No server yet</span>
                  )}
                </td>
                <td>{k.tier ? `${k.tier}/min` : '—'}</td>
                <td>{k.storage === 'os-keychain' ? 'System keychain' : 'This session'}</td>
                <td>{new Date(k.createdAt).toLocaleString()}</td>
                <td>
                  <button
                    type="button"
                    className="secondary"
                    onClick={() => askToRemove(k)}
                    disabled={usedBy.length > 0}
                    title={usedBy.length > 0 ? `Used by ${usedBy.map((p) => p.name).join(', ')}` : undefined}
                    aria-label={`Remove ${k.name}`}
                  >
                    Remove
                  </button>
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </section>
  );
}
