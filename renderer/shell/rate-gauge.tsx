// The active key's rate limit, live: what is left of the limit as a bar that turns amber then red
// as it empties, the countdown to the window's reset, queued requests, and a clear state while the
// key is paused after a 429. Once the reset time has passed the count is last known, not current:
// the countdown goes (never "resets in 0s"), the count is asked for afresh, and until it comes the
// gauge says the count is as of the last request, in a neutral colour, its bar as full as the count.
import { useEffect } from 'react';
import { refreshRate, useRate } from '../stores/live';
import { useNow } from '../components/use-now';

/** Amber under half left, red under a fifth (and at none). */
function gaugeLevel(remaining: number, limit: number, paused: boolean): string {
  if (paused) return 'limited';
  if (remaining <= 0) return 'full';
  if (remaining < limit * 0.2) return 'low';
  if (remaining < limit * 0.5) return 'half';
  return 'ok';
}

export function RateGauge() {
  const state = useRate((s) => s.state);
  const known = useRate((s) => s.known);
  const now = useNow(state !== null && (state.resetAt !== undefined || state.pausedUntil !== undefined));
  const passedAt = state?.resetAt !== undefined && state.resetAt <= now ? state.resetAt : undefined;
  // Once per window: a core whose count still holds the request (its clock a little behind) is
  // not asked again and again.
  useEffect(() => {
    if (passedAt !== undefined) refreshRate();
  }, [passedAt]);
  // Nothing to say while the core is still opening ("No key" would be a guess); the place is kept,
  // so what follows in the header stays where it will be.
  if (!known) return <div className="gauge gauge-pending" aria-hidden="true" />;
  if (!state) return <div className="gauge gauge-empty">No key</div>;
  const paused = state.pausedUntil !== undefined && state.pausedUntil > now;
  const resetIn = state.resetAt !== undefined ? Math.ceil((state.resetAt - now) / 1000) : undefined;
  const windowPassed = resetIn !== undefined && resetIn <= 0;
  const pausedIn = paused ? Math.ceil(((state.pausedUntil as number) - now) / 1000) : 0;
  const used = state.limit - state.remaining;
  const level = windowPassed && !paused ? 'stale' : gaugeLevel(state.remaining, state.limit, paused);
  const left = state.limit > 0 ? Math.max(0, Math.min(1, state.remaining / state.limit)) : 0;
  return (
    <div
      className={`gauge gauge-${level}`}
      role="status"
      aria-label="Rate limit"
      data-testid="rate-gauge"
      data-level={level}
    >
      <div
        className="gauge-bar"
        role="meter"
        aria-label="Requests left this minute"
        aria-valuemin={0}
        aria-valuemax={state.limit}
        aria-valuenow={state.remaining}
      >
        <span style={{ width: `${Math.round(left * 100)}%` }} />
      </div>
      <span className="gauge-text">
        <strong data-testid="rate-remaining">{state.remaining}</strong> of {state.limit}/min left
        {windowPassed && used > 0 ? <span className="muted"> at the last request</span> : null}
      </span>
      {paused ? (
        <span className="gauge-limited">Rate limited · retry in {pausedIn}s</span>
      ) : resetIn !== undefined && resetIn > 0 && used > 0 ? (
        <span className="gauge-reset" data-testid="rate-reset">
          resets in {resetIn}s
        </span>
      ) : null}
      {state.queued > 0 && (
        <span className="gauge-queued" title="Requests this console holds until the key has a request left">
          {state.queued} waiting for the limit
        </span>
      )}
    </div>
  );
}
