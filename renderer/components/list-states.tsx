// The three things a list says when it has no rows to show, and the Refresh button every browser
// carries. Shared so the screens read alike.
import { ErrorMessage } from './error-message';
import { useMinuteClock } from './relative-time';
import { relativeTime } from './time-format';

interface ListPlaceholderProps {
  loading: boolean;
  error: unknown;
  /** What "nothing here" means on this screen. */
  empty: string;
  noun: string;
  onRetry(): void;
}

export function ListPlaceholder({ loading, error, empty, noun, onRetry }: ListPlaceholderProps) {
  if (error) {
    return (
      <div className="list-error">
        <ErrorMessage error={error} title={`The ${noun} could not be loaded.`} />
        <button type="button" className="secondary" onClick={onRetry}>
          Try again
        </button>
      </div>
    );
  }
  if (loading) {
    return (
      <span className="list-loading" role="status">
        <span className="spinner" aria-hidden="true" /> Loading {noun}…
      </span>
    );
  }
  return <span className="list-empty">{empty}</span>;
}

interface RefreshProps {
  fetching: boolean;
  updatedAt: number;
  onRefresh(): void;
}

export function RefreshButton({ fetching, updatedAt, onRefresh }: RefreshProps) {
  const now = useMinuteClock();
  return (
    <span className="refresh">
      {updatedAt > 0 ? (
        <span className="muted refresh-age" title={new Date(updatedAt).toLocaleString()}>
          Updated {relativeTime(new Date(updatedAt).toISOString(), Math.max(now, updatedAt))}
        </span>
      ) : null}
      <button type="button" className="secondary" onClick={onRefresh} disabled={fetching}>
        {fetching ? 'Refreshing…' : 'Refresh'}
      </button>
    </span>
  );
}
