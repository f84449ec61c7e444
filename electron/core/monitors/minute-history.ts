// A monitor's history by time, for what is reported over months: one rollup per minute — the worst
// status the monitor was in, how many checks, their mean response time, and the TTFT p50/p95 of the
// synthetic runs — kept for ROLLUP_DAYS in <data dir>/monitors/<id>/minutes.jsonl. A status holds
// from one check to the next (at most three intervals, as uptime counts it), so a 10-minute
// outage seen by 5-minute polls is 10 minutes down. The last 30 days are also kept as counters in
// memory, so /metrics reads sums instead of the file. This module is the one place that knows
// where rollups live (docs/architecture.md, "History by time").
import { existsSync } from 'node:fs';
import type { WatchStatus } from '../../../shared/monitor';
import { WATCH_SEVERITY } from '../../../shared/monitor';
import {
  appendPrivateFile,
  readPrivateFileSync,
  readPrivateHeadSync,
  readPrivateTailSync,
  replacePrivateFile,
} from '../private-files';

export const MINUTE = 60_000;
/** How long rollups are kept: over a year, so a year-on-year month can be reported. */
const ROLLUP_DAYS = 400;
const COUNTER_MINUTES = 30 * 1440;
const DAY = 1440 * MINUTE;
/** Days kept in memory, minute by minute, once the status page has asked for them. */
const DAYS_KEPT = 92;
/** A minute's status as a byte: its index here plus one; 0 is a minute nobody saw. */
const STATUS_CODES: readonly WatchStatus[] = Object.keys(WATCH_SEVERITY) as WatchStatus[];

/** A day (UTC) of a monitor's minutes, as the status page's bar shows it. */
export interface DaySummary {
  /** The day's start, UTC midnight, epoch ms. */
  day: number;
  /** The worst status of its minutes; none when no minute of it was seen. */
  worst?: WatchStatus;
  up: number;
  down: number;
}

export interface MinuteRollup {
  /** The minute's start, epoch ms. */
  t: number;
  /** The worst status the monitor was in during it. */
  s: WatchStatus;
  /** Checks made in it (0 for a minute a status carried over into). */
  n: number;
  /** Mean health response time, ms. */
  r?: number;
  /** TTFT p50 and p95 of the synthetic runs in it, ms. */
  f50?: number;
  f95?: number;
}

/** How a minute counts in availability. */
export type MinuteCount = 'up' | 'down' | 'excluded';

/** Up: the service answers (degraded and slow are up, as the spec calls degraded functional). Down: it does not, or its agents do not. Excluded: maintenance, and what says nothing about the service. */
export function minuteCount(status: WatchStatus): MinuteCount {
  if (status === 'healthy' || status === 'degraded' || status === 'slow') return 'up';
  if (status === 'unhealthy' || status === 'unreachable' || status === 'synthetic-failing') return 'down';
  return 'excluded';
}

function addMinute(summary: DaySummary, status: WatchStatus): void {
  if (!summary.worst || WATCH_SEVERITY[status] > WATCH_SEVERITY[summary.worst]) summary.worst = status;
  const count = minuteCount(status);
  if (count === 'up') summary.up++;
  else if (count === 'down') summary.down++;
}

/** A rollup line's minute, read without parsing the line. */
const lineTime = (line: string): number | undefined => {
  const t = /^\{"t":(\d+)/.exec(line)?.[1];
  return t === undefined ? undefined : Number(t);
};

function nearestRank(sorted: number[], p: number): number | undefined {
  if (sorted.length === 0) return undefined;
  return sorted[Math.max(1, Math.ceil((p / 100) * sorted.length)) - 1];
}

interface Open {
  t: number;
  s: WatchStatus;
  n: number;
  responses: number[];
  ttfts: number[];
}

export class MinuteHistory {
  private open: Open | undefined;
  /** The status the newest check left, and when: carried into the minutes until the next. */
  private last: { at: number; status: WatchStatus } | undefined;
  /** 1 up, 2 down, 0 excluded or unknown — one slot per minute of the last 30 days. */
  private readonly counts = new Uint8Array(COUNTER_MINUTES);
  /** How many slots hold 0, 1 and 2: the 30-day sums without a pass over the slots. */
  private readonly totals = [COUNTER_MINUTES, 0, 0];
  private countedTo: number | undefined;
  private writing: Promise<void> = Promise.resolve();
  private pending: string[] = [];
  /** The newest days' minutes by day start, once asked for: a status code per minute (STATUS_CODES). */
  private daily: Map<number, Uint8Array> | undefined;

  constructor(
    private readonly file: string | undefined,
    /** How long a status speaks for after its check. */
    private readonly carryMs: number,
  ) {}

  /** A check (a health poll or a synthetic run) and the status the monitor is in after it. */
  note(at: number, status: WatchStatus, figures: { responseMs?: number; ttftMs?: number[] } = {}): void {
    const t = at - (at % MINUTE);
    if (this.open && t > this.open.t) this.close(t);
    if (!this.open) this.open = { t, s: status, n: 0, responses: [], ttfts: [] };
    const open = this.open;
    if (WATCH_SEVERITY[status] > WATCH_SEVERITY[open.s]) open.s = status;
    open.n++;
    if (figures.responseMs !== undefined) open.responses.push(figures.responseMs);
    open.ttfts.push(...(figures.ttftMs ?? []));
    this.last = { at, status };
  }

  /** Keeps a finished minute (what `note` does as minutes close; seeds history in tests). */
  record(rollup: MinuteRollup): void {
    this.count(rollup.t, rollup.s);
    if (this.daily) this.keepDay(this.daily, rollup);
    if (!this.file) return;
    this.pending.push(`${JSON.stringify(rollup)}\n`);
    if (this.pending.length === 1) {
      this.writing = this.writing.then(async () => {
        const text = this.pending.join('');
        this.pending = [];
        await appendPrivateFile(this.file as string, text);
      });
    }
  }

  /** Up and down minutes among the newest `minutes` (at most 30 days) before `now`, and the minute under way. */
  counted(now: number, minutes: number): { up: number; down: number } {
    this.closeBefore(now);
    const current = this.open ? minuteCount(this.open.s) : 'excluded';
    let up = current === 'up' ? 1 : 0;
    let down = current === 'down' ? 1 : 0;
    if (minutes >= COUNTER_MINUTES)
      return { up: up + (this.totals[1] as number), down: down + (this.totals[2] as number) };
    const end = now - (now % MINUTE);
    for (let m = 1; m <= Math.min(minutes, COUNTER_MINUTES); m++) {
      const slot = this.counts[this.slot(end - m * MINUTE)];
      if (slot === 1) up++;
      else if (slot === 2) down++;
    }
    return { up, down };
  }

  /**
   * The newest `count` days (UTC) up to `now`'s, oldest first, the minute under way included. The
   * file is read once, from the first call on the days are kept as minutes close: the status page
   * rewrites itself on every change without reading months of rollups each time.
   */
  async days(now: number, count: number): Promise<DaySummary[]> {
    this.closeBefore(now);
    const today = now - (now % DAY);
    if (!this.daily) {
      // Minutes closing while the file is read go to the map at once; a minute kept twice is the
      // same slot, so nothing is counted twice.
      const daily = new Map<number, Uint8Array>();
      this.daily = daily;
      await this.flush();
      const from = today - (DAYS_KEPT - 1) * DAY;
      for (const line of this.newestLines(from)) {
        try {
          this.keepDay(daily, JSON.parse(line) as MinuteRollup);
        } catch {
          // A line cut short by a crash: the minute is unknown.
        }
      }
    }
    const out: DaySummary[] = [];
    for (let i = Math.min(count, DAYS_KEPT) - 1; i >= 0; i--) {
      const day = today - i * DAY;
      const minutes = this.daily.get(day);
      const summary: DaySummary = { day, up: 0, down: 0 };
      if (minutes)
        for (const code of minutes) if (code > 0) addMinute(summary, STATUS_CODES[code - 1] as WatchStatus);
      out.push(summary);
    }
    if (this.open) addMinute(out.at(-1) as DaySummary, this.open.s);
    return out;
  }

  /** The kept rollups from `from` to `to` (epoch ms), oldest first. */
  async list(from: number, to: number): Promise<MinuteRollup[]> {
    await this.flush();
    if (!this.file || !existsSync(this.file)) return [];
    const out: MinuteRollup[] = [];
    for (const line of readPrivateFileSync(this.file).split('\n')) {
      if (!line) continue;
      try {
        const rollup = JSON.parse(line) as MinuteRollup;
        if (rollup.t >= from && rollup.t < to) out.push(rollup);
      } catch {
        // A line cut short by a crash: the minute is unknown.
      }
    }
    return out.sort((a, b) => a.t - b.t);
  }

  /**
   * At each start: counts the last 30 days' minutes from the file (the SLO gauges read those
   * counters from the first scrape on), and drops rollups older than ROLLUP_DAYS. Both read only
   * what they need: the file's last 30 days, and its first line unless something is to be dropped.
   */
  async start(now: number): Promise<void> {
    const file = this.file;
    if (!file || !existsSync(file)) return;
    await this.flush();
    if (this.countedTo === undefined) {
      for (const line of this.newestLines(now - COUNTER_MINUTES * MINUTE)) {
        try {
          const rollup = JSON.parse(line) as MinuteRollup;
          if (rollup.t < now - (now % MINUTE) && WATCH_SEVERITY[rollup.s] !== undefined)
            this.count(rollup.t, rollup.s);
        } catch {
          // A line cut short by a crash: the minute is unknown.
        }
      }
    }
    const from = now - ROLLUP_DAYS * 1440 * MINUTE;
    const oldest = lineTime(readPrivateHeadSync(file, 64));
    if (oldest !== undefined && oldest >= from) return;
    this.writing = this.writing.then(async () => {
      const kept = readPrivateFileSync(file)
        .split('\n')
        .filter((line) => (lineTime(line) ?? -1) >= from);
      await replacePrivateFile(file, kept.map((line) => `${line}\n`).join(''));
    });
    await this.writing;
  }

  /** The file's rollup lines from `from` on, read from its end. */
  private newestLines(from: number): string[] {
    if (!this.file || !existsSync(this.file)) return [];
    return readPrivateTailSync(this.file, (line) => (lineTime(line) ?? from) < from);
  }

  async flush(): Promise<void> {
    while (this.pending.length > 0) await this.writing;
    await this.writing;
  }

  /** Closes the minutes before `now` that a check's status still speaks for. */
  private closeBefore(now: number): void {
    const t = now - (now % MINUTE);
    if (this.open && t > this.open.t) this.close(t);
  }

  /** Writes the open minute, and the minutes up to `until` its status carries into. */
  private close(until: number): void {
    const open = this.open as Open;
    const responses = open.responses;
    const ttfts = open.ttfts.sort((a, b) => a - b);
    const f50 = nearestRank(ttfts, 50);
    const f95 = nearestRank(ttfts, 95);
    this.record({
      t: open.t,
      s: open.s,
      n: open.n,
      ...(responses.length ? { r: Math.round(responses.reduce((a, b) => a + b, 0) / responses.length) } : {}),
      ...(f50 !== undefined ? { f50 } : {}),
      ...(f95 !== undefined ? { f95 } : {}),
    });
    this.open = undefined;
    const last = this.last;
    if (!last) return;
    const carryEnd = Math.min(until, last.at + this.carryMs);
    for (let t = open.t + MINUTE; t < carryEnd; t += MINUTE) this.record({ t, s: last.status, n: 0 });
  }

  private keepDay(daily: Map<number, Uint8Array>, rollup: MinuteRollup): void {
    const day = rollup.t - (rollup.t % DAY);
    let minutes = daily.get(day);
    if (!minutes) {
      minutes = new Uint8Array(1440);
      daily.set(day, minutes);
      for (const kept of daily.keys()) if (kept <= day - DAYS_KEPT * DAY) daily.delete(kept);
    }
    minutes[Math.floor((rollup.t - day) / MINUTE)] = STATUS_CODES.indexOf(rollup.s) + 1;
  }

  private slot(t: number): number {
    return Math.floor(t / MINUTE) % COUNTER_MINUTES;
  }

  private setSlot(slot: number, value: number): void {
    (this.totals[this.counts[slot] as number] as number)--;
    this.counts[slot] = value;
    (this.totals[value] as number)++;
  }

  private count(t: number, status: WatchStatus): void {
    // Slots between the last counted minute and this one saw nothing: unknown.
    if (this.countedTo !== undefined && t > this.countedTo) {
      const gap = Math.min((t - this.countedTo) / MINUTE - 1, COUNTER_MINUTES);
      for (let m = 1; m <= gap; m++) this.setSlot(this.slot(this.countedTo + m * MINUTE), 0);
    }
    const kind = minuteCount(status);
    this.setSlot(this.slot(t), kind === 'up' ? 1 : kind === 'down' ? 2 : 0);
    this.countedTo = Math.max(this.countedTo ?? t, t);
  }
}
