import { HEALTH_COMPONENTS } from '../../../shared/known-values';
import { useMockRequests } from '../../data/mock';
import { useSetMockErrorShape, useSetMockHealth } from '../../data/mock-actions';
import type { PanelProps } from './chaos-panel';
import { ScrollRegion } from '../../components/scroll-region';

/** Health components and the error-body shape. */
export function MockServicePanel({ state, act }: PanelProps) {
  const setHealth = useSetMockHealth();
  const setErrorShape = useSetMockErrorShape();
  return (
    <section className="card" aria-label="Mock service">
      <h2>
        Health <span className={`status mock-health-${state.health.status}`}>{state.health.status}</span>
      </h2>
      <div className="mock-inline-form">
        {HEALTH_COMPONENTS.map((c) => (
          <label key={c}>
            {c}{' '}
            <select
              aria-label={`Component ${c}`}
              value={state.health.components[c]}
              onChange={(e) =>
                void act(() =>
                  setHealth.mutateAsync({ [c]: e.target.value as 'operational' | 'degraded' | 'down' }),
                )
              }
            >
              <option value="operational">operational</option>
              <option value="degraded">degraded</option>
              <option value="down">down</option>
            </select>
          </label>
        ))}
        <label>
          Error bodies{' '}
          <select
            aria-label="Error body shape"
            value={state.errorShape}
            onChange={(e) =>
              void act(() =>
                setErrorShape.mutateAsync({ shape: e.target.value as 'nested' | 'flat' | 'flat-429' }),
              )
            }
          >
            <option value="nested">nested</option>
            <option value="flat">flat</option>
            <option value="flat-429">flat for 429 only</option>
          </select>
        </label>
      </div>
    </section>
  );
}

/** What the mock itself received, keys masked: the other side of the Log screen. */
export function MockRequestsPanel() {
  const requests = useMockRequests();
  const rows = [...(requests.data ?? [])].reverse().slice(0, 100);
  return (
    <section className="card" aria-label="Requests the mock received">
      <div className="mock-head">
        <h2>Requests the mock received</h2>
        <button type="button" className="secondary" onClick={() => void requests.refetch()}>
          Refresh
        </button>
      </div>
      <ScrollRegion label="Requests table" className="mock-requests">
        <table className="table">
          <thead>
            <tr>
              <th scope="col">Time</th>
              <th scope="col">Method</th>
              <th scope="col">Path</th>
              <th scope="col">Status</th>
              <th scope="col">Key</th>
              <th scope="col">Request id</th>
            </tr>
          </thead>
          <tbody>
            {rows.length === 0 ? (
              <tr>
                <td colSpan={6} className="empty">
                  Nothing yet.
                </td>
              </tr>
            ) : null}
            {rows.map((r) => (
              <tr key={r.requestId}>
                <td>{new Date(r.at).toLocaleTimeString()}</td>
                <td>{r.method}</td>
                <td>
                  <code>{r.path}</code>
                </td>
                <td>
                  <span className={`status status-${Math.floor(r.status / 100)}xx`}>{r.status}</span>
                </td>
                <td>
                  <code>{r.key}</code>
                </td>
                <td>
                  <code>{r.requestId}</code>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </ScrollRegion>
    </section>
  );
}
