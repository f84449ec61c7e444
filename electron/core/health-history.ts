// The health monitor's memory: a fixed ring of samples, kept both in memory and
// on disk, so a week of polling costs the same memory and disk on day 30 as on day 7.
//
// Memory: one typed array (or preallocated array of shared strings) per field, allocated once at
// the ring's capacity. A sample is written into its slot; no object per sample stays alive, so the
// heap does not grow as the ring fills. Strings that repeat (profile id, version, error code,
// components) are interned, so each slot holds a reference to a string already held.
//
// Disk: a JSON-lines journal in the data dir (ring-journal.ts): a poll appends one line, and the
// file is rewritten whole once it holds more than capacity + capacity/8 lines.
import { z } from 'zod';
import { MONITOR_STATUSES, type HealthSample, type MonitorStatus } from '../../shared/health';
import { RingJournal } from './ring-journal';

export const HEALTH_HISTORY_FILE = 'health-history.jsonl';

const Status = z.enum(MONITOR_STATUSES);
/** One line of the journal: short keys, absent fields left out. */
const Line = z.object({
  t: z.number(),
  p: z.string().min(1),
  s: Status,
  ms: z.number().nonnegative().optional(),
  up: z.number().nonnegative().optional(),
  v: z.string().optional(),
  c: z.record(z.string(), z.string()).optional(),
  h: z.number().int().optional(),
  e: z.string().optional(),
  m: z.literal(1).optional(),
  r: z.literal(1).optional(),
  d: z.tuple([z.string(), z.string()]).optional(),
  tr: z.tuple([Status, Status]).optional(),
  lt: z.number().nonnegative().optional(),
});
type Line = z.infer<typeof Line>;

const FLAG_MANUAL = 1;
const FLAG_RESTART = 2;
const STATUS_CODE = new Map<MonitorStatus, number>(MONITOR_STATUSES.map((s, i) => [s, i]));
const NO_TRANSITION = 0xff;

function toLine(s: HealthSample): Line {
  return {
    t: s.at,
    p: s.profileId,
    s: s.status,
    ...(s.responseMs !== undefined ? { ms: s.responseMs } : {}),
    ...(s.uptimeS !== undefined ? { up: s.uptimeS } : {}),
    ...(s.version !== undefined ? { v: s.version } : {}),
    ...(s.components && Object.keys(s.components).length > 0 ? { c: s.components } : {}),
    ...(s.httpStatus !== undefined ? { h: s.httpStatus } : {}),
    ...(s.errorCode !== undefined ? { e: s.errorCode } : {}),
    ...(s.manual ? { m: 1 as const } : {}),
    ...(s.restart ? { r: 1 as const } : {}),
    ...(s.deploy ? { d: [s.deploy.from, s.deploy.to] as [string, string] } : {}),
    ...(s.transition ? { tr: [s.transition.from, s.transition.to] as [MonitorStatus, MonitorStatus] } : {}),
    ...(s.lateMs !== undefined ? { lt: s.lateMs } : {}),
  };
}

function fromLine(l: Line): HealthSample {
  return {
    at: l.t,
    profileId: l.p,
    status: l.s,
    ...(l.ms !== undefined ? { responseMs: l.ms } : {}),
    ...(l.up !== undefined ? { uptimeS: l.up } : {}),
    ...(l.v !== undefined ? { version: l.v } : {}),
    ...(l.c ? { components: l.c } : {}),
    ...(l.h !== undefined ? { httpStatus: l.h } : {}),
    ...(l.e !== undefined ? { errorCode: l.e } : {}),
    ...(l.m ? { manual: true } : {}),
    ...(l.r ? { restart: true } : {}),
    ...(l.d ? { deploy: { from: l.d[0], to: l.d[1] } } : {}),
    ...(l.tr ? { transition: { from: l.tr[0], to: l.tr[1] } } : {}),
    ...(l.lt !== undefined ? { lateMs: l.lt } : {}),
  };
}

export interface HealthHistoryOptions {
  /** The journal's path; none keeps the history in memory only. */
  file?: string;
  capacity: number;
  /** Disk failures: the history carries on in memory and the next write rewrites the file. */
  onWriteError?: (error: Error) => void;
}

export class HealthHistory {
  readonly capacity: number;
  /** Set when the file on disk could not be read and was set aside. */
  readonly warning: string | undefined;
  private head = 0;
  private count = 0;
  private readonly at: Float64Array;
  private readonly status: Uint8Array;
  private readonly responseMs: Float32Array;
  private readonly uptimeS: Float64Array;
  private readonly lateMs: Float32Array;
  private readonly httpStatus: Uint16Array;
  private readonly flags: Uint8Array;
  private readonly transition: Uint16Array;
  private readonly profile: (string | undefined)[];
  private readonly version: (string | undefined)[];
  private readonly deployFrom: (string | undefined)[];
  private readonly errorCode: (string | undefined)[];
  /** Non-operational components as JSON text (interned, usually one of a handful of strings). */
  private readonly components: (string | undefined)[];
  private readonly interned = new Map<string, string>();
  private readonly journal: RingJournal<HealthSample, Line> | undefined;

  constructor(options: HealthHistoryOptions) {
    if (!Number.isInteger(options.capacity) || options.capacity < 1) {
      throw new RangeError(`Health history capacity must be a positive integer, got ${options.capacity}`);
    }
    const n = (this.capacity = options.capacity);
    this.at = new Float64Array(n);
    this.status = new Uint8Array(n);
    this.responseMs = new Float32Array(n);
    this.uptimeS = new Float64Array(n);
    this.lateMs = new Float32Array(n);
    this.httpStatus = new Uint16Array(n);
    this.flags = new Uint8Array(n);
    this.transition = new Uint16Array(n);
    this.profile = new Array<string | undefined>(n).fill(undefined);
    this.version = new Array<string | undefined>(n).fill(undefined);
    this.deployFrom = new Array<string | undefined>(n).fill(undefined);
    this.errorCode = new Array<string | undefined>(n).fill(undefined);
    this.components = new Array<string | undefined>(n).fill(undefined);
    if (options.file) {
      this.journal = new RingJournal({
        file: options.file,
        kind: 'agent-console/health-history',
        what: 'health history',
        capacity: n,
        line: Line,
        toLine,
        fromLine,
        entries: () => this.list(),
        ...(options.onWriteError ? { onWriteError: options.onWriteError } : {}),
      });
      this.warning = this.journal.load(
        (sample) => this.put(sample),
        () => this.count,
      );
    }
  }

  get size(): number {
    return this.count;
  }

  /** Lines the journal holds (header excluded), once pending writes are done: bounded by capacity × 1.125. */
  get fileLines(): number {
    return this.journal?.linesInFile ?? 0;
  }

  /** Keeps the sample (the oldest one leaves when the ring is full) and queues its line for the disk. */
  add(sample: HealthSample): void {
    this.put(sample);
    this.journal?.append(sample);
  }

  /** Oldest first; `from`/`to` in epoch ms (inclusive), `profileId` to keep one profile's samples. */
  list(filter: { profileId?: string; from?: number; to?: number } = {}): HealthSample[] {
    const out: HealthSample[] = [];
    for (let i = 0; i < this.count; i++) {
      const slot = (this.head + i) % this.capacity;
      if (filter.profileId !== undefined && this.profile[slot] !== filter.profileId) continue;
      const at = this.at[slot] as number;
      if ((filter.from !== undefined && at < filter.from) || (filter.to !== undefined && at > filter.to))
        continue;
      out.push(this.read(slot));
    }
    return out;
  }

  /** The newest sample of a profile that passes `test`, searching from the newest back. */
  latest(profileId: string, test: (sample: HealthSample) => boolean = () => true): HealthSample | undefined {
    for (let i = this.count - 1; i >= 0; i--) {
      const slot = (this.head + i) % this.capacity;
      if (this.profile[slot] !== profileId) continue;
      const sample = this.read(slot);
      if (test(sample)) return sample;
    }
    return undefined;
  }

  /** Resolves once every queued line is on disk. */
  async flush(): Promise<void> {
    await this.journal?.flush();
  }

  private intern(text: string | undefined): string | undefined {
    if (text === undefined) return undefined;
    const known = this.interned.get(text);
    if (known !== undefined) return known;
    // A cache, not the owner: the slots keep their strings alive, so clearing it only costs a copy.
    if (this.interned.size >= 256) this.interned.clear();
    this.interned.set(text, text);
    return text;
  }

  private put(s: HealthSample): void {
    let slot: number;
    if (this.count < this.capacity) {
      slot = (this.head + this.count) % this.capacity;
      this.count++;
    } else {
      slot = this.head;
      this.head = (this.head + 1) % this.capacity;
    }
    this.at[slot] = s.at;
    this.status[slot] = STATUS_CODE.get(s.status) ?? 0;
    this.responseMs[slot] = s.responseMs ?? NaN;
    this.uptimeS[slot] = s.uptimeS ?? NaN;
    this.lateMs[slot] = s.lateMs ?? NaN;
    this.httpStatus[slot] = s.httpStatus ?? 0;
    this.flags[slot] = (s.manual ? FLAG_MANUAL : 0) | (s.restart ? FLAG_RESTART : 0);
    this.transition[slot] = s.transition
      ? ((STATUS_CODE.get(s.transition.from) ?? 0) << 8) | (STATUS_CODE.get(s.transition.to) ?? 0)
      : NO_TRANSITION;
    this.profile[slot] = this.intern(s.profileId);
    this.version[slot] = this.intern(s.version);
    this.deployFrom[slot] = this.intern(s.deploy?.from);
    this.errorCode[slot] = this.intern(s.errorCode);
    const bad =
      s.components && Object.keys(s.components).length > 0 ? JSON.stringify(s.components) : undefined;
    this.components[slot] = this.intern(bad);
  }

  private read(slot: number): HealthSample {
    const responseMs = this.responseMs[slot] as number;
    const uptimeS = this.uptimeS[slot] as number;
    const lateMs = this.lateMs[slot] as number;
    const httpStatus = this.httpStatus[slot] as number;
    const flags = this.flags[slot] as number;
    const transition = this.transition[slot] as number;
    const version = this.version[slot];
    const deployFrom = this.deployFrom[slot];
    const errorCode = this.errorCode[slot];
    const components = this.components[slot];
    return {
      at: this.at[slot] as number,
      profileId: this.profile[slot] as string,
      status: MONITOR_STATUSES[this.status[slot] as number] ?? 'unknown',
      ...(Number.isNaN(responseMs) ? {} : { responseMs: Math.round(responseMs * 10) / 10 }),
      ...(Number.isNaN(uptimeS) ? {} : { uptimeS }),
      ...(Number.isNaN(lateMs) ? {} : { lateMs: Math.round(lateMs) }),
      ...(version !== undefined ? { version } : {}),
      ...(components !== undefined ? { components: JSON.parse(components) as Record<string, string> } : {}),
      ...(httpStatus ? { httpStatus } : {}),
      ...(errorCode !== undefined ? { errorCode } : {}),
      ...(flags & FLAG_MANUAL ? { manual: true } : {}),
      ...(flags & FLAG_RESTART ? { restart: true } : {}),
      ...(deployFrom !== undefined && version !== undefined
        ? { deploy: { from: deployFrom, to: version } }
        : {}),
      ...(transition !== NO_TRANSITION
        ? {
            transition: {
              from: MONITOR_STATUSES[transition >> 8] ?? 'unknown',
              to: MONITOR_STATUSES[transition & 0xff] ?? 'unknown',
            },
          }
        : {}),
    };
  }
}
