// Maintenance windows: planned time when a monitor's checks go on but nobody is told, its status
// reads Maintenance, and the time counts neither up nor down in its availability. A window is
// one-off (`from`/`to`, instants with their offset) or repeating (`every: "sun 02:00"` or
// `"daily 02:00"`, `for: 1h`), read on the wall clock of `tz` (an IANA zone; UTC by default) —
// README "Maintenance windows".
import type { MaintenanceView } from '../../../shared/monitor';

export interface MaintenanceWindow {
  name?: string | undefined;
  every?: string | undefined;
  for?: number | undefined;
  tz?: string | undefined;
  from?: string | undefined;
  to?: string | undefined;
}

const DAYS = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'];
const WEEK_MIN = 7 * 1440;
export const EVERY = /^(daily|sun|mon|tue|wed|thu|fri|sat) ([01]\d|2[0-3]):([0-5]\d)$/;

/** Whether `tz` names a zone this runtime knows. */
export function knownZone(tz: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

const formats = new Map<string, Intl.DateTimeFormat>();

/** Minutes since Sunday 00:00 on the zone's wall clock. */
function weekMinute(at: number, tz: string): number {
  let format = formats.get(tz);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone: tz,
      weekday: 'short',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    });
    formats.set(tz, format);
  }
  const parts = Object.fromEntries(format.formatToParts(at).map((p) => [p.type, p.value]));
  const day = DAYS.indexOf(String(parts.weekday).toLowerCase().slice(0, 3));
  return day * 1440 + Number(parts.hour) * 60 + Number(parts.minute);
}

/** A repeating window's starts, as minutes since Sunday 00:00 on its wall clock. */
function startsOf(w: MaintenanceWindow): number[] {
  const match = EVERY.exec(w.every ?? '');
  if (!match) return [];
  const [, day, hh, mm] = match;
  const minutes = Number(hh) * 60 + Number(mm);
  return day === 'daily'
    ? DAYS.map((_, d) => d * 1440 + minutes)
    : [DAYS.indexOf(day as string) * 1440 + minutes];
}

const modWeek = (minutes: number) => ((minutes % WEEK_MIN) + WEEK_MIN) % WEEK_MIN;

/** The window under way at `at` — its end and name — or none. */
function activeIn(w: MaintenanceWindow, at: number): { from: number; to: number } | undefined {
  if (w.from !== undefined && w.to !== undefined) {
    const from = Date.parse(w.from);
    const to = Date.parse(w.to);
    return at >= from && at < to ? { from, to } : undefined;
  }
  if (w.for === undefined) return undefined;
  const now = weekMinute(at, w.tz ?? 'UTC');
  for (const start of startsOf(w)) {
    const into = modWeek(now - start);
    if (into < w.for / 60_000) {
      const began = at - into * 60_000 - (at % 60_000);
      return { from: began, to: began + w.for };
    }
  }
  return undefined;
}

/** When the window next begins after `at` (a repeating one: on the wall clock, so across a DST change it may be an hour off). */
function nextStart(w: MaintenanceWindow, at: number): number | undefined {
  if (w.from !== undefined) {
    const from = Date.parse(w.from);
    return from > at ? from : undefined;
  }
  const starts = startsOf(w);
  if (starts.length === 0) return undefined;
  const now = weekMinute(at, w.tz ?? 'UTC');
  const ahead = Math.min(...starts.map((start) => modWeek(start - now) || WEEK_MIN));
  return at - (at % 60_000) + ahead * 60_000;
}

export class MaintenanceWindows {
  constructor(private readonly windows: readonly MaintenanceWindow[]) {}

  /** The window under way at `at`, if any (the one that ends last when they overlap). */
  active(at: number): MaintenanceView | undefined {
    let found: MaintenanceView | undefined;
    for (const w of this.windows) {
      const on = activeIn(w, at);
      if (on && (!found || on.to > found.to)) found = { ...on, ...(w.name ? { name: w.name } : {}) };
    }
    return found;
  }

  /** The next window to begin after `at`, if any. */
  next(at: number): MaintenanceView | undefined {
    let found: MaintenanceView | undefined;
    for (const w of this.windows) {
      const from = nextStart(w, at);
      if (from === undefined || (found && found.from <= from)) continue;
      const to = w.to !== undefined ? Date.parse(w.to) : from + (w.for ?? 0);
      found = { from, to, ...(w.name ? { name: w.name } : {}) };
    }
    return found;
  }
}
