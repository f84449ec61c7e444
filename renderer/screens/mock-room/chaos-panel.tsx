import type { MockStateView } from '../../../shared/bridge';
import { useResetMock, useSetMockChaos } from '../../data/mock-actions';

export interface PanelProps {
  state: MockStateView;
  act: (run: () => Promise<unknown>) => Promise<void>;
}

/** One click each, and one more to undo; "Reset mock" clears everything (a restart does too). */
export function ChaosPanel({ state, act }: PanelProps) {
  const on = new Set(state.chaos.map((c) => c.preset));
  const reset = useResetMock();
  const setChaos = useSetMockChaos();
  return (
    <section className="card" aria-label="Chaos presets">
      <div className="mock-head">
        <h2>Chaos</h2>
        <button type="button" className="secondary" onClick={() => void act(() => reset.mutateAsync())}>
          Reset mock
        </button>
      </div>
      <ul className="chaos-list">
        {Object.entries(state.presets).map(([preset, { name, description }]) => (
          <li key={preset}>
            <button
              type="button"
              className={on.has(preset) ? 'chaos-on' : 'secondary'}
              aria-pressed={on.has(preset)}
              onClick={() => void act(() => setChaos.mutateAsync({ preset, on: !on.has(preset) }))}
            >
              {name}
            </button>
            <span className="muted">{description}</span>
          </li>
        ))}
      </ul>
    </section>
  );
}
