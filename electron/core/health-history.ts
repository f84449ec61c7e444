// The health monitor's memory (issue 7, item 4): a fixed ring of samples, kept both in memory and
// on disk, so a week of polling costs the same memory and disk on day 30 as on day 7.
//
// Memory: one typed array (or preallocated array of shared strings) per field, allocated once at
// the ring's capacity. A sample is written into its slot; no object per sample stays alive, so the
// heap does not grow as the ring fills. Strings that repeat (profile id, version, error code,
// components) are interned, so each slot holds a reference to a string already held.
//
// Disk: a JSON-lines journal in the data dir — one header line, then one line per sample. A poll
// appends one line (one small write, not the whole week every minute). When the file holds more
// than capacity + capacity/8 lines, the ring is rewritten whole with write-file-atomic, so the file
// never exceeds about 1.125 × capacity lines and a crash mid-rewrite leaves the old file intact. A
// line torn by a crash mid-append is skipped on load, and the next write is a full rewrite.
import { appendFile, readFileSync, renameSync } from 'node:fs';
import { promisify } from 'node:util';
import writeFileAtomic from 'write-file-atomic';
import { z } from 'zod';
import { MONITOR_STATUSES, type HealthSample, type MonitorStatus } from '../../shared/health';

export const HEALTH_HISTORY_FILE = 'health-history.jsonl';
const HEADER = JSON.stringify({ kind: 'agent-console/health-history', v: 1 });
const appendText = promisify(appendFile);

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
  private readonly file: string | undefined;
  private readonly onWriteError: ((error: Error) => void) | undefined;
  private readonly slack: number;
  private pending: string[] = [];
  private linesInFile = 0;
  private rewriteNext = true;
  private writing: Promise<void> | undefined;

  constructor(options: HealthHistoryOptions) {
    if (!Number.isInteger(options.capacity) || options.capacity < 1) {
      throw new RangeError(`Health history capacity must be a positive integer, got ${options.capacity}`);
    }
    const n = (this.capacity = options.capacity);
    this.slack = Math.max(16, Math.ceil(n / 8));
    this.at = new Float64Array(n);
    this.status = new Uint8Array(n);
    this.responseMs = new Float32Array(n);
    this.uptimeS = new Float64Array(n);
    this.httpStatus = new Uint16Array(n);
    this.flags = new Uint8Array(n);
    this.transition = new Uint16Array(n);
    this.profile = new Array<string | undefined>(n).fill(undefined);
    this.version = new Array<string | undefined>(n).fill(undefined);
    this.deployFrom = new Array<string | undefined>(n).fill(undefined);
    this.errorCode = new Array<string | undefined>(n).fill(undefined);
    this.components = new Array<string | undefined>(n).fill(undefined);
    this.file = options.file;
    this.onWriteError = options.onWriteError;
    this.warning = this.file ? this.load(this.file) : undefined;
  }

  get size(): number {
    return this.count;
  }

  /** Lines the journal holds (header excluded), once pending writes are done: bounded by capacity × 1.125. */
  get fileLines(): number {
    return this.linesInFile;
  }

  /** Keeps the sample (the oldest one leaves when the ring is full) and queues its line for the disk. */
  add(sample: HealthSample): void {
    this.put(sample);
    if (!this.file) return;
    this.pending.push(JSON.stringify(toLine(sample)) + '\n');
    this.writing ??= this.drain().finally(() => (this.writing = undefined));
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
    while (this.writing) await this.writing;
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

  /** Reads the journal; returns a warning when the file had to be set aside. */
  private load(file: string): string | undefined {
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      return `The health history could not be read (${(error as Error).message}); a new one is kept from now on.`;
    }
    const lines = text.split('\n');
    if (lines[0] !== HEADER) {
      // Never overwrite what we do not understand (a newer format, another file): keep it aside.
      const aside = `${file}.unreadable-${Date.now()}`;
      try {
        renameSync(file, aside);
      } catch {
        return `The health history at ${file} is not in a known format and could not be moved aside.`;
      }
      return `The health history was not in a known format; it was set aside as ${aside}.`;
    }
    let stored = 0;
    for (const raw of lines.slice(1)) {
      if (raw === '') continue;
      stored++;
      try {
        const parsed = Line.safeParse(JSON.parse(raw));
        if (parsed.success) this.put(fromLine(parsed.data));
      } catch {
        // A line torn by a crash mid-append: skipped; the rewrite below drops it from the file.
      }
    }
    this.linesInFile = stored;
    // A clean file ends in a newline; anything else gets rewritten before the next append.
    this.rewriteNext = !text.endsWith('\n') || stored !== this.count;
    return undefined;
  }

  private async drain(): Promise<void> {
    const file = this.file as string;
    while (this.pending.length > 0) {
      const lines = this.pending;
      this.pending = [];
      try {
        if (this.rewriteNext || this.linesInFile + lines.length > this.capacity + this.slack) {
          // The ring already holds every pending sample, so a rewrite covers them too.
          const body = this.list().map((s) => JSON.stringify(toLine(s)) + '\n');
          this.pending = [];
          await writeFileAtomic(file, `${HEADER}\n${body.join('')}`, { mode: 0o600 });
          this.linesInFile = body.length;
          this.rewriteNext = false;
        } else {
          await appendText(file, lines.join(''), { mode: 0o600 });
          this.linesInFile += lines.length;
        }
      } catch (error) {
        this.rewriteNext = true;
        this.onWriteError?.(error as Error);
      }
    }
  }
}
