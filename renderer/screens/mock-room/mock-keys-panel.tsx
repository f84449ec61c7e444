import { useState, type FormEvent } from 'react';
import { useConfirm } from '../../components/confirm-dialog';
import { useCreateMockKey, useRevokeMockKey, useUpdateMockKey } from '../../data/mock-actions';
import type { PanelProps } from './chaos-panel';
import { ScrollRegion } from '../../components/scroll-region';

const TIERS = [30, 60, 120, 300] as const;
const PLANS = ['free', 'pro', 'ultra'] as const;

/** The dashboard's key actions. A new key goes straight into Keys; its secret never shows here. */
export function MockKeysPanel({ state, act }: PanelProps) {
  const [name, setName] = useState('');
  const [tier, setTier] = useState<(typeof TIERS)[number]>(60);
  const [added, setAdded] = useState<string>();
  const createKey = useCreateMockKey();
  const updateKey = useUpdateMockKey();
  const revokeKey = useRevokeMockKey();
  const [confirmDialog, confirm] = useConfirm();
  async function create(event: FormEvent) {
    event.preventDefault();
    await act(async () => {
      const key = await createKey.mutateAsync({ name: name.trim(), tier });
      setAdded(`Created at the mock and added to Keys as “${key.name}” (${key.last4}).`);
      setName('');
    });
  }
  return (
    <section className="card" aria-label="Mock keys">
      {confirmDialog}
      <h2>Keys</h2>
      <ScrollRegion label="Keys table">
        <table className="table">
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Key</th>
              <th scope="col">Tier</th>
              <th scope="col">Plan</th>
              <th scope="col">State</th>
            </tr>
          </thead>
          <tbody>
            {state.keys.map((k) => (
              <tr key={k.id} aria-label={`Mock key ${k.name}`}>
                <td>{k.name}</td>
                <td>
                  <code>{k.masked}</code>
                </td>
                <td>
                  <select
                    aria-label={`Tier of ${k.name}`}
                    value={k.tier}
                    disabled={k.revoked}
                    onChange={(e) =>
                      void act(() =>
                        updateKey.mutateAsync({
                          id: k.id,
                          tier: Number(e.target.value) as 30 | 60 | 120 | 300,
                        }),
                      )
                    }
                  >
                    {TIERS.map((t) => (
                      <option key={t} value={t}>
                        {t}/min
                      </option>
                    ))}
                  </select>
                </td>
                <td>
                  <select
                    aria-label={`Plan of ${k.name}`}
                    value={k.plan}
                    onChange={(e) =>
                      void act(() =>
                        updateKey.mutateAsync({ id: k.id, plan: e.target.value as (typeof PLANS)[number] }),
                      )
                    }
                  >
                    {PLANS.map((p) => (
                      <option key={p} value={p}>
                        {p}
                      </option>
                    ))}
                  </select>
                </td>
                <td>
                  {k.revoked ? (
                    <span className="status status-4xx">Revoked</span>
                  ) : (
                    <button
                      type="button"
                      className="secondary"
                      aria-label={`Revoke ${k.name}`}
                      onClick={() =>
                        confirm(
                          {
                            title: `Revoke the mock key “${k.name}”?`,
                            body: `Every request with ${k.masked} is refused with INVALID_KEY from now on. Revocation is permanent, as at the service (Reset mock brings the demo keys back).`,
                            confirmLabel: 'Revoke the key',
                            destructive: true,
                          },
                          () => act(() => revokeKey.mutateAsync(k.id)),
                        )
                      }
                    >
                      Revoke
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </ScrollRegion>
      <form className="mock-inline-form" onSubmit={create} aria-label="Create a mock key">
        <label>
          Name <input value={name} onChange={(e) => setName(e.target.value)} required maxLength={100} />
        </label>
        <label>
          Tier{' '}
          <select value={tier} onChange={(e) => setTier(Number(e.target.value) as (typeof TIERS)[number])}>
            {TIERS.map((t) => (
              <option key={t} value={t}>
                {t}/min
              </option>
            ))}
          </select>
        </label>
        <button type="submit" disabled={!name.trim()}>
          Create key
        </button>
        {added ? <span role="status">{added}</span> : null}
      </form>
    </section>
  );
}
