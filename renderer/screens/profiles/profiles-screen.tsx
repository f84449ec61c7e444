// Profiles: where the console sends requests (base URL, key, optional CA), which one is active,
// and a "Test connection" that calls GET /health through it. A key goes only to the servers it was
// added for: the form says where the chosen key may go, and another server (or the first one of a
// key added at the command line) asks for the key to be typed again.
import { useState, type FormEvent } from 'react';
import type { ConnectionTest } from '../../../shared/bridge';
import { asBridgeError, ErrorMessage } from '../../components/error-message';
import { useKeys } from '../../data/keys';
import {
  testProfile,
  useAddProfile,
  useProfiles,
  useRemoveProfile,
  useUseProfile,
} from '../../data/profiles';
import { ConfirmOrigin } from './confirm-origin';

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
  const addProfile = useAddProfile();
  const removeProfile = useRemoveProfile();
  const makeActive = useUseProfile();
  const [results, setResults] = useState<Record<string, ConnectionTest | 'testing'>>({});
  const [error, setError] = useState<unknown>();
  const [form, setForm] = useState({ name: '', baseUrl: 'https://', keyId: '', caCertPem: '' });
  const [busy, setBusy] = useState(false);
  /** The key would go to a server it was not added for (or has none yet): the user must confirm. */
  const [confirming, setConfirming] = useState(false);
  const chosenKey = keys.data?.find((k) => k.id === form.keyId);

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

  async function add(event: FormEvent | undefined, confirmKey?: string) {
    event?.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      await addProfile.mutateAsync({
        name: form.name.trim(),
        baseUrl: form.baseUrl.trim(),
        keyId: form.keyId,
        ...(form.caCertPem.trim() ? { caCertPem: form.caCertPem } : {}),
        ...(confirmKey !== undefined ? { confirmKey } : {}),
      });
      setForm({ name: '', baseUrl: 'https://', keyId: '', caCertPem: '' });
      setConfirming(false);
    } catch (e) {
      if (asBridgeError(e).code === 'ORIGIN_NOT_CONFIRMED') setConfirming(true);
      else setError(e); // the form keeps what was typed
    } finally {
      setBusy(false);
    }
  }

  return (
    <section className="screen">
      <h2>Profiles</h2>
      <ul className="profile-list" aria-label="Profiles">
        {profiles.data?.map((p) => {
          const result = results[p.id];
          const key = keys.data?.find((k) => k.id === p.keyId);
          return (
            <li key={p.id} className={`card profile ${p.active ? 'profile-active' : ''}`} aria-label={p.name}>
              <div className="profile-head">
                <h3>
                  {p.name} {p.active ? <span className="badge">Active</span> : null}
                  {p.builtIn ? <span className="badge badge-muted">Built in</span> : null}
                </h3>
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
                    <button type="button" onClick={() => void act(() => makeActive.mutateAsync(p.id))}>
                      Use
                    </button>
                  ) : null}
                  {!p.builtIn ? (
                    <button
                      type="button"
                      className="secondary"
                      aria-label={`Remove ${p.name}`}
                      onClick={() => {
                        if (window.confirm(`Remove the profile “${p.name}”?`))
                          void act(() => removeProfile.mutateAsync(p.id));
                      }}
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
              </dl>
              {result && result !== 'testing' ? <TestResult result={result} /> : null}
            </li>
          );
        })}
      </ul>
      {error ? <ErrorMessage error={error} /> : null}
      {confirming ? (
        <ConfirmOrigin
          keyInfo={keys.data?.find((k) => k.id === form.keyId)}
          baseUrl={form.baseUrl.trim()}
          busy={busy}
          onConfirm={(typed) => void add(undefined, typed)}
          onCancel={() => setConfirming(false)}
        />
      ) : null}

      <form className="card form" onSubmit={add} aria-label="Add a profile">
        <h3>Add a profile</h3>
        <label>
          Name
          <input
            value={form.name}
            onChange={(e) => setForm({ ...form, name: e.target.value })}
            required
            maxLength={100}
          />
        </label>
        <label>
          Base URL
          <input
            value={form.baseUrl}
            onChange={(e) => setForm({ ...form, baseUrl: e.target.value })}
            required
            inputMode="url"
            spellCheck={false}
          />
        </label>
        <p className="field-hint">HTTPS, except on this computer (127.0.0.1, localhost). Without /api/v1.</p>
        <label>
          Key
          <select
            value={form.keyId}
            onChange={(e) => setForm({ ...form, keyId: e.target.value })}
            aria-describedby="profile-key-servers"
            required
          >
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
        <label>
          CA certificate (optional, PEM)
          <textarea
            value={form.caCertPem}
            onChange={(e) => setForm({ ...form, caCertPem: e.target.value })}
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
              if (file) setForm({ ...form, caCertPem: await file.text() });
            }}
          />
        </label>
        <button type="submit" disabled={busy || !form.keyId}>
          {busy ? 'Adding…' : 'Add profile'}
        </button>
      </form>
    </section>
  );
}
