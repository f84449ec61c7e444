import { useQuery } from '@tanstack/react-query';
import type { MockStateView } from '../../../shared/bridge';
import { useConfirm } from '../../components/confirm-dialog';
import { useResetMock, useSetMockChaos } from '../../data/mock-actions';
import { useActiveProfileId } from '../../data/profiles';
import { transcriptCountQuery } from '../../data/transcripts';

export interface PanelProps {
  state: MockStateView;
  act: (run: () => Promise<unknown>) => Promise<void>;
}

const count = (n: number, one: string, many = `${one}s`): string => `${n} ${n === 1 ? one : many}`;

/** What "Reset mock" deletes, in words: the mock's data, this console's records of it, chaos. */
function resetLoss(state: MockStateView, sessions: number, threads: number): string {
  const { held } = state;
  const recorded = [
    ...(sessions > 0 ? [count(sessions, 'session')] : []),
    ...(threads > 0 ? [count(threads, 'thread')] : []),
  ];
  const records =
    recorded.length > 0 ? `, and this console's records of ${recorded.join(' and ')} with it` : '';
  const chaos =
    state.chaos.length > 0 ? ` It turns chaos off (${state.chaos.map((c) => c.name).join(', ')}).` : '';
  return `This deletes the ${count(held.conversations, 'conversation')} and ${count(held.threads, 'thread')} it holds${records}; its demo data comes back.${chaos}`;
}

/** One click each, and one more to undo; "Reset mock" clears everything (a restart does too). */
export function ChaosPanel({ state, act }: PanelProps) {
  const on = new Set(state.chaos.map((c) => c.preset));
  const reset = useResetMock();
  const setChaos = useSetMockChaos();
  const [confirmDialog, confirm] = useConfirm();
  const profileId = useActiveProfileId();
  const sessions = useQuery(transcriptCountQuery(profileId, 'session')).data ?? 0;
  const threads = useQuery(transcriptCountQuery(profileId, 'thread')).data ?? 0;
  return (
    <section className="card" aria-label="Chaos presets">
      <div className="mock-head">
        <h2>Chaos</h2>
        {confirmDialog}
        <button
          type="button"
          className="secondary"
          onClick={() =>
            confirm(
              {
                title: 'Reset the mock?',
                body: resetLoss(state, sessions, threads),
                confirmLabel: 'Reset the mock',
                destructive: true,
              },
              () => act(() => reset.mutateAsync()),
            )
          }
        >
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
