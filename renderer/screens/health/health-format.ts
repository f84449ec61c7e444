// How the Health screen writes durations and times.
import type { HealthRange } from '../../../shared/health';

/** "3 d 4 h", "2 h 5 min", "12 min 5 s", "45 s": the two largest units. */
export function duration(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  const parts: [number, string][] = [
    [Math.floor(s / 86_400), 'd'],
    [Math.floor((s % 86_400) / 3600), 'h'],
    [Math.floor((s % 3600) / 60), 'min'],
    [s % 60, 's'],
  ];
  const first = parts.findIndex(([n]) => n > 0);
  if (first < 0) return '0 s';
  return parts
    .slice(first, first + 2)
    .filter(([n]) => n > 0)
    .map(([n, unit]) => `${n} ${unit}`)
    .join(' ');
}

/** How often, in words and one format for every choice: "30 seconds", "15 minutes", "1 hour". */
export function intervalWords(ms: number): string {
  const units: [size: number, unit: string][] = [
    [3_600_000, 'hour'],
    [60_000, 'minute'],
    [1000, 'second'],
  ];
  let left = Math.round(ms / 1000) * 1000;
  const parts: string[] = [];
  for (const [size, unit] of units) {
    const n = Math.floor(left / size);
    left -= n * size;
    if (n > 0) parts.push(`${n} ${unit}${n === 1 ? '' : 's'}`);
  }
  return parts.join(' ') || '0 seconds';
}

export function clockTime(ms: number): string {
  return new Date(ms).toLocaleTimeString(undefined, {
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  });
}

export function dateTime(ms: number): string {
  return new Date(ms).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'medium' });
}

/** Axis ticks: seconds over a few minutes, the time of day over hours, weekday and hour over a week. */
export function tickTime(ms: number, spanMs: number): string {
  const d = new Date(ms);
  if (spanMs <= 10 * 60_000)
    return d.toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit', second: '2-digit' });
  if (spanMs <= 36 * 3_600_000)
    return d.toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' });
  return d.toLocaleString(undefined, { weekday: 'short', hour: '2-digit' });
}

export const RANGE_WORDS: Record<HealthRange, string> = { '1h': '1 hour', '24h': '24 hours', '7d': '7 days' };
