// How the Overview words a monitor's figures.
import type { MonitorView } from '../../../shared/monitor';

export function percent(value: number | null): string {
  if (value === null) return '—';
  return value >= 99.995 ? '100%' : `${value.toFixed(value >= 99 ? 2 : 1)}%`;
}

export function ms(value: number | undefined): string {
  if (value === undefined) return '—';
  return value >= 10_000
    ? `${(value / 1000).toFixed(0)} s`
    : value >= 1000
      ? `${(value / 1000).toFixed(1)} s`
      : `${Math.round(value)} ms`;
}

/** "waiting 12 s for the rate limit" while a check waits; "went out 40 s late" after one did. */
export function lateness(view: MonitorView, now: number): string | undefined {
  const waiting = view.health.waitingSince;
  if (view.health.checking && waiting !== undefined && now - waiting >= 1000) {
    return `waiting ${Math.round((now - waiting) / 1000)} s for the key’s rate limit`;
  }
  const late = view.health.lastLateMs;
  if (late !== undefined && late >= 1000) return `went out ${ms(late)} late (the key was busy)`;
  return undefined;
}
