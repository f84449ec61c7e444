// Profiles: where the console sends requests (base URL, key, optional CA), which one is active,
// edited in the form they are added with, and a "Test connection" that calls GET /health through
// it. A server whose certificate is not trusted can have its issuer's CA read from the chain it
// presents, checked by issuer and fingerprint, and added to the profile. A key goes only to the servers it was
// added for: the form says where the chosen key may go, and another server (or the first one of a
// key added at the command line) asks for the key to be typed again.
import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import type { BridgeInput, ConnectionTest, ProfileInfo } from '../../../shared/bridge';
import { useConfirm } from '../../components/confirm-dialog';
import { asBridgeError, ErrorMessage } from '../../components/error-message';
import { useKeys } from '../../data/keys';
import { switchProfile, useProfiles } from '../../data/profiles';
import {
  readServerCertificate,
  testProfile,
  useAddProfile,
  useRemoveProfile,
  useUpdateProfile,
} from '../../data/profiles-actions';
import { formResolver } from '../../data/contract';
import { ConfirmOrigin } from './confirm-origin';
import { PROFILE_FORM_START, profileForm, proxyFormValues, type ProfileFormValues } from './profile-form';
import { useAppInfo } from '../../data/app';
import { clientCertFact, ClientCertFields } from './client-cert-fields';
import { proxyFact, ProxyFields } from './proxy-fields';
import { ScreenHeading } from '../../shell/screen-heading';
import { takeProfileIntent } from '../../stores/profile-intent';

function TestResult({ result }: { result: ConnectionTest }) {
  if (result.ok && result.health) {
    return (
      <p className="ok" role="status">
        Connected in {result.durationMs} ms: service {result.health.status}, version {result.health.version}.
      </p>
    );
  }
  return <ErrorMessage error={result.error} title="Connection failed." />;
}

export function ProfilesScreen() {
  const profiles = useProfiles();
  const keys = useKeys();
  const info = useAppInfo();
  const addProfile = useAddProfile();
  const removeProfile = useRemoveProfile();
  const updateProfile = useUpdateProfile();
  /** The profile the user chose to edit; none: the form adds one. */
  const [editTarget, setEditing] = useState<ProfileInfo>();
  // A profile removed while its form is open (here or by another window) is no longer edited:
  // what was typed stays in the form, which now adds it as a new profile.
  const editing =
    editTarget && profiles.data?.some((p) => p.id === editTarget.id) !== false ? editTarget : undefined;
  const removedWhileEditing = editTarget && !editing ? editTarget.name : undefined;
  const [systemCa, setSystemCa] = useState(false);
  const [noClientCert, setNoClientCert] = useState(false);
  /** Counts the forms shown: a new one starts with no file chosen. */
  const [formRound, setFormRound] = useState(0);
  const [reading, setReading] = useState(false);
  const [results, setResults] = useState<Record<string, ConnectionTest | 'testing'>>({});
  const [error, setError] = useState<unknown>();
  const [confirmDialog, confirm] = useConfirm();
  const form = useForm<ProfileFormValues, unknown, BridgeInput<'profiles:add'>>({
    resolver: formResolver(profileForm),
    defaultValues: PROFILE_FORM_START,
  });
  // "Create a profile for it" from a pasted curl command: the form starts with its server.
  useEffect(() => {
    const baseUrl = takeProfileIntent();
    if (baseUrl) form.setValue('baseUrl', baseUrl);
  }, [form]);
  const busy = form.formState.isSubmitting;
  const keyId = form.watch('keyId');
  /** The key would go to a server it was not added for (or has none yet): the user must confirm. */
  const [confirming, setConfirming] = useState(false);
  const chosenKey = keys.data?.find((k) => k.id === keyId);

  async function test(id: string) {
    setResults((r) => ({ ...r, [id]: 'testing' }));
    const result = await testProfile(id);
    setResults((r) => ({ ...r, [id]: result }));
  }

  async function act(run: () => Promise<unknown>) {
    setError(undefined);
    try {
      await run();
    } catch (e) {
      setError(e);
    }
  }

  function startEditing(profile: ProfileInfo) {
    setEditing(profile);
    setSystemCa(false);
    setNoClientCert(false);
    setConfirming(false);
    form.reset({
      ...PROFILE_FORM_START,
      name: profile.name,
      baseUrl: profile.baseUrl,
      keyId: profile.keyId,
      ...proxyFormValues(profile.proxy),
    });
  }

  function stopEditing() {
    setEditing(undefined);
    setFormRound((n) => n + 1);
    setConfirming(false);
    form.reset(PROFILE_FORM_START);
  }

  /** Reads the chain the server presents; its CA goes into the form once the user confirms it. */
  async function trustServerCa() {
    setError(undefined);
    setReading(true);
    try {
      const { chain, ca } = await readServerCertificate(form.getValues('baseUrl').trim());
      if (!ca) {
        const issuer = chain.at(-1)?.issuer ?? 'unknown';
        setError(
          new Error(
            `The server did not send its issuer's certificate (${issuer}), so there is none to trust from here: ask its administrator for the CA file and paste it.`,
          ),
        );
        return;
      }
      confirm(
        {
          title: 'Trust this CA for the profile?',
          body: (
            <dl className="facts" data-testid="server-ca">
              <dt>Server certificate</dt>
              <dd>{chain[0]?.subject}</dd>
              <dt>Issuer (the CA)</dt>
              <dd>{ca.subject}</dd>
              <dt>SHA-256 fingerprint</dt>
              <dd>
                <code>{ca.fingerprint256}</code>
              </dd>
              <dt>Valid until</dt>
              <dd>{ca.validTo}</dd>
            </dl>
          ),
          confirmLabel: 'Use this CA',
        },
        () => {
          form.setValue('caCertPem', ca.pem);
          setSystemCa(false);
        },
      );
    } catch (e) {
      setError(e);
    } finally {
      setReading(false);
    }
  }

  /** Adds or saves the profile; `confirmKey` is the key typed again for a server new to it. */
  const add = (confirmKey?: string) =>
    form.handleSubmit(async (input) => {
      setError(undefined);
      const confirmed = confirmKey !== undefined ? { confirmKey } : {};
      try {
        if (editing) {
          await updateProfile.mutateAsync({
            id: editing.id,
            ...input,
            ...(systemCa && !input.caCertPem ? { systemCa: true as const } : {}),
            ...(noClientCert && !input.clientCert ? { noClientCert: true as const } : {}),
            ...confirmed,
          });
        } else {
          await addProfile.mutateAsync({ ...input, ...confirmed });
        }
        setEditing(undefined);
        form.reset(PROFILE_FORM_START);
        setNoClientCert(false);
        setFormRound((n) => n + 1);
        setConfirming(false);
      } catch (e) {
        if (asBridgeError(e).code === 'ORIGIN_NOT_CONFIRMED') setConfirming(true);
        else setError(e); // the form keeps what was typed
      }
    });

  return (
    <section className="screen">
      <ScreenHeading>Profiles</ScreenHeading>
      {confirmDialog}
      <ul className="profile-list" aria-label="Profiles">
        {profiles.data?.map((p) => {
          const result = results[p.id];
          const key = keys.data?.find((k) => k.id === p.keyId);
          const cert = clientCertFact(p, Date.now());
          return (
            <li key={p.id} className={`card profile ${p.active ? 'profile-active' : ''}`} aria-label={p.name}>
              <div className="profile-head">
                <h2>
                  {p.name} {p.active ? <span className="badge">Active</span> : null}
                  {p.builtIn ? <span className="badge badge-muted">Built in</span> : null}
                </h2>
                <div className="actions">
                  <button
                    type="button"
                    className="secondary"
                    onClick={() => void test(p.id)}
                    disabled={result === 'testing'}
                  >
                    {result === 'testing' ? 'Testing…' : 'Test connection'}
                  </button>
                  {!p.active ? (
                    <button type="button" onClick={() => void act(() => switchProfile(p.id))}>
                      Use
                    </button>
                  ) : null}
                  {!p.builtIn ? (
                    <button
                      type="button"
                      className="secondary"
                      aria-label={`Edit ${p.name}`}
                      disabled={editing?.id === p.id}
                      onClick={() => startEditing(p)}
                    >
                      Edit
                    </button>
                  ) : null}
                  {!p.builtIn ? (
                    <button
                      type="button"
                      className="secondary"
                      aria-label={`Remove ${p.name}`}
                      onClick={() =>
                        confirm(
                          {
                            title: `Remove the profile “${p.name}”?`,
                            body: `This deletes 1 profile: the console no longer sends to ${p.baseUrl} through it. Its key stays in Keys.`,
                            confirmLabel: 'Remove the profile',
                            destructive: true,
                          },
                          () => act(() => removeProfile.mutateAsync(p.id)),
                        )
                      }
                    >
                      Remove
                    </button>
                  ) : null}
                </div>
              </div>
              <dl className="facts">
                <dt>Base URL</dt>
                <dd>
                  <code>{p.baseUrl}</code>
                </dd>
                <dt>Key</dt>
                <dd>{key ? `${key.name} (${key.last4})` : 'missing: choose a key'}</dd>
                <dt>CA certificate</dt>
                <dd>{p.caCertPath ? <code>{p.caCertPath}</code> : 'System trust store'}</dd>
                <dt>Proxy</dt>
                <dd>{proxyFact(p, info.data?.transport)}</dd>
                <dt>Client certificate</dt>
                <dd className={cert.warn ? 'warn-text' : undefined}>{cert.text}</dd>
              </dl>
              {result && result !== 'testing' ? <TestResult result={result} /> : null}
            </li>
          );
        })}
      </ul>
      {error ? <ErrorMessage error={error} /> : null}
      {confirming ? (
        <ConfirmOrigin
          keyInfo={chosenKey}
          baseUrl={form.watch('baseUrl').trim()}
          busy={busy}
          editing={editing !== undefined}
          onConfirm={(typed) => void add(typed)()}
          onCancel={() => setConfirming(false)}
        />
      ) : null}

      <form
        className="card form"
        onSubmit={add()}
        aria-label={editing ? `Edit the profile ${editing.name}` : 'Add a profile'}
      >
        <h2>{editing ? `Edit the profile “${editing.name}”` : 'Add a profile'}</h2>
        {removedWhileEditing ? (
          <p className="warning" role="status">
            The profile “{removedWhileEditing}” was removed while you edited it. What you typed is kept: Add
            profile saves it as a new profile.
          </p>
        ) : null}
        <label>
          Name
          <input {...form.register('name')} required maxLength={100} />
        </label>
        <label>
          Base URL
          <input {...form.register('baseUrl')} required inputMode="url" spellCheck={false} />
        </label>
        <p className="field-hint">HTTPS, except on this computer (127.0.0.1, localhost). Without /api/v1.</p>
        <label>
          Key
          <select {...form.register('keyId')} aria-describedby="profile-key-servers" required>
            <option value="">Choose a key…</option>
            {keys.data?.map((k) => (
              <option key={k.id} value={k.id}>
                {k.name} ({k.last4})
              </option>
            ))}
          </select>
        </label>
        {chosenKey ? (
          <p id="profile-key-servers" className="field-hint">
            {chosenKey.origins?.length
              ? `Sent only to ${chosenKey.origins.join(', ')}; another server asks you to type the key again.`
              : 'This key has no server yet (it was added at the command line): adding the profile asks you to type the key again.'}
          </p>
        ) : null}
        {editing?.caCertPath ? (
          <>
            <p className="field-hint">
              Trusts the CA in <code>{editing.caCertPath}</code>; a certificate pasted below replaces it.
            </p>
            <label className="checkbox">
              <input type="checkbox" checked={systemCa} onChange={(e) => setSystemCa(e.target.checked)} />
              Use the system trust store instead
            </label>
          </>
        ) : null}
        <label>
          CA certificate (optional, PEM)
          <textarea
            {...form.register('caCertPem')}
            rows={3}
            spellCheck={false}
            placeholder="-----BEGIN CERTIFICATE-----"
          />
        </label>
        <label className="file">
          …or read it from a file
          <input
            type="file"
            accept=".pem,.crt,.cer"
            onChange={async (e) => {
              const file = e.target.files?.[0];
              if (file) form.setValue('caCertPem', await file.text());
            }}
          />
        </label>
        <div className="actions">
          <button
            type="button"
            className="secondary"
            disabled={reading || !form.watch('baseUrl').trim().startsWith('https://')}
            onClick={() => void trustServerCa()}
          >
            {reading ? 'Reading the certificate…' : 'Trust the server’s CA…'}
          </button>
        </div>
        <p className="field-hint">
          Reads the certificate chain the server presents (nothing is sent to it) and shows its issuer and
          fingerprint before you choose to trust it.
        </p>
        <ProxyFields form={form} editing={editing} />
        <ClientCertFields
          key={`${editing?.id ?? 'new'}-${formRound}`}
          form={form}
          editing={editing}
          remove={noClientCert}
          onRemoveChange={setNoClientCert}
        />
        <div className="actions">
          <button type="submit" disabled={busy || !keyId}>
            {editing ? (busy ? 'Saving…' : 'Save profile') : busy ? 'Adding…' : 'Add profile'}
          </button>
          {editTarget ? (
            <button type="button" className="secondary" onClick={stopEditing}>
              Cancel
            </button>
          ) : null}
        </div>
      </form>
    </section>
  );
}
