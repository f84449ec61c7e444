// Active chaos, in the header on every screen, so nobody forgets it is on.
import { useNavigation } from '../stores/navigation';
import { useMockState } from '../data/mock';
import './chaos-badge.css';

export function ChaosBadge() {
  const state = useMockState();
  const chaos = state.data?.chaos ?? [];
  if (chaos.length === 0) return null;
  return (
    <button
      type="button"
      className="chaos-badge"
      data-testid="chaos-badge"
      title={chaos.map((c) => `${c.name}: ${c.description}`).join('\n')}
      onClick={() => useNavigation.getState().go('Mock')}
    >
      Chaos on: {chaos.map((c) => c.name).join(', ')}
    </button>
  );
}
