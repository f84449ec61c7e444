// A timestamp as "3 days ago", with the exact time on hover. One shared clock ticks every 30 s for
// every timestamp on screen, instead of a timer per row.
import { useSyncExternalStore } from 'react';
import { lacksTimeZone } from '../../shared/known-values';
import { exactTime, relativeTime } from './time-format';

const TICK_MS = 30_000;
let now = Date.now();
const listeners = new Set<() => void>();
let timer: ReturnType<typeof setInterval> | undefined;

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  if (!timer) {
    now = Date.now();
    timer = setInterval(() => {
      now = Date.now();
      for (const l of listeners) l();
    }, TICK_MS);
  }
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0 && timer) {
      clearInterval(timer);
      timer = undefined;
    }
  };
}

export function useMinuteClock(): number {
  return useSyncExternalStore(subscribe, () => now);
}

/** What a missing timestamp shows (a newer or different service may leave one out). */
function Missing() {
  return <span className="muted">Not given</span>;
}

export function RelativeTime({ iso }: { iso: string | undefined }) {
  const current = useMinuteClock();
  if (iso === undefined) return <Missing />;
  return (
    <time dateTime={iso} title={exactTime(iso)}>
      {relativeTime(iso, current)}
    </time>
  );
}

/** For details: the exact time first, the relative one beside it. */
export function ExactTime({ iso }: { iso: string | undefined }) {
  const current = useMinuteClock();
  if (iso === undefined) return <Missing />;
  if (lacksTimeZone(iso)) return <time title={exactTime(iso)}>{exactTime(iso)}</time>;
  return (
    <time dateTime={iso} title={iso}>
      {exactTime(iso).replace(` (${iso})`, '')} <span className="muted">· {relativeTime(iso, current)}</span>
    </time>
  );
}
