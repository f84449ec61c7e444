// The active key's rate limit, live: used of the limit, remaining, the countdown to the window's
// reset, queued requests, and a clear state while the key is paused after a 429.
import { useRate } from '../stores/live';
import { useNow } from './use-now';

export function RateGauge() {
  const state = useRate((s) => s.state);
  const now = useNow(state !== null && (state.resetAt !== undefined || state.pausedUntil !== undefined));
  if (!state) return <div className="gauge gauge-empty">No key</div>;
  const paused = state.pausedUntil !== undefined && state.pausedUntil > now;
  const resetIn =
    state.resetAt !== undefined ? Math.max(0, Math.ceil((state.resetAt - now) / 1000)) : undefined;
  const pausedIn = paused ? Math.ceil(((state.pausedUntil as number) - now) / 1000) : 0;
  const used = state.limit - state.remaining;
  const level = paused
    ? 'limited'
    : state.remaining === 0
      ? 'full'
      : state.remaining < state.limit * 0.2
        ? 'low'
        : 'ok';
  return (
    <div className={`gauge gauge-${level}`} role="status" aria-label="Rate limit" data-testid="rate-gauge">
      <meter min={0} max={state.limit} value={used} aria-label="Requests used this minute" />
      <span className="gauge-text">
        <strong data-testid="rate-remaining">{state.remaining}</strong> of {state.limit}/min left
      </span>
      {paused ? (
        <span className="gauge-limited">Rate limited · retry in {pausedIn}s</span>
      ) : resetIn !== undefined && used > 0 ? (
        <span className="gauge-reset" data-testid="rate-reset">
          resets in {resetIn}s
        </span>
      ) : null}
      {state.queued > 0 && <span className="gauge-queued">{state.queued} queued</span>}
    </div>
  );
}
