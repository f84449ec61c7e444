// How times read in the browsers: relative in lists ("3 days ago"), exact on hover and in details.
// A timestamp the service sent without a time zone names no instant: it is shown as it came, and
// said so, rather than guessed in the viewer's zone (the tolerant reader).
import { lacksTimeZone } from '../../shared/known-values';

const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['year', 365 * 86_400_000],
  ['month', 30 * 86_400_000],
  ['week', 7 * 86_400_000],
  ['day', 86_400_000],
  ['hour', 3_600_000],
  ['minute', 60_000],
];

const relative = new Intl.RelativeTimeFormat('en', { numeric: 'auto' });
// One formatter for every timestamp: toLocaleString with options builds a new one per call, which
// is most of the cost of rendering a row. dateStyle/timeStyle cannot carry timeZoneName, hence fields.
const EXACT = new Intl.DateTimeFormat(undefined, {
  year: 'numeric',
  month: 'short',
  day: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  timeZoneName: 'short',
});

/** "3 days ago", "in 2 hours", "just now"; the raw text when it is not a timestamp. */
export function relativeTime(iso: string, now: number): string {
  if (lacksTimeZone(iso)) return iso;
  const at = Date.parse(iso);
  if (Number.isNaN(at)) return iso;
  const diff = at - now;
  for (const [unit, ms] of UNITS) {
    if (Math.abs(diff) >= ms) return relative.format(Math.trunc(diff / ms), unit);
  }
  return 'just now';
}

/** The exact local time with its zone, then the ISO text the service sent (for a ticket). */
export function exactTime(iso: string): string {
  if (lacksTimeZone(iso)) return `${iso} (no time zone given by the service)`;
  const at = Date.parse(iso);
  if (Number.isNaN(at)) return iso;
  const local = EXACT.format(at);
  return `${local} (${iso})`;
}
