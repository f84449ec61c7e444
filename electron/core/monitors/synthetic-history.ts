// A monitor's synthetic check results: a bounded ring in memory and a journal on disk
// (ring-journal.ts, the same scheme as the health history), sized so that the raw results of the
// last 7 days are kept whatever the interval and however many agents and cases a run checks, and
// a week costs the same on day 30 as on day 7 (docs/architecture.md, "History by time").
import { z } from 'zod';
import type { SyntheticResult } from '../../../shared/monitor';
import { RingJournal } from '../ring-journal';
import type { SyntheticConfig } from './monitor-config';

/** A week of checks every minute against two agents: the least a ring holds. */
export const SYNTHETIC_HISTORY_CAPACITY = 20_160;
const WEEK_MS = 7 * 86_400_000;
/** The cases a suite file is given room for when the monitor does not name them (cases:). */
const SUITE_CASES_ROOM = 10;

/** Room for 7 days of results at the check's interval, agents and cases, and a quarter more (as for health polls). */
export function syntheticCapacity(check: SyntheticConfig): number {
  const cases = check.message !== undefined ? 1 : (check.cases?.length ?? SUITE_CASES_ROOM);
  const perRun = Math.max(1, check.agents?.length ?? 1) * cases;
  return Math.max(SYNTHETIC_HISTORY_CAPACITY, Math.ceil((WEEK_MS / check.every) * perRun * 1.25));
}

const Line = z.object({
  t: z.number(),
  a: z.string(),
  c: z.string(),
  ok: z.boolean(),
  f: z.number().nonnegative().optional(),
  tt: z.number().nonnegative().optional(),
  e: z.string().optional(),
  l: z.number().nonnegative().optional(),
});

const toLine = (r: SyntheticResult) => ({
  t: r.at,
  a: r.agent,
  c: r.check,
  ok: r.passed,
  ...(r.ttftMs !== undefined ? { f: r.ttftMs } : {}),
  ...(r.totalMs !== undefined ? { tt: r.totalMs } : {}),
  ...(r.failure !== undefined ? { e: r.failure } : {}),
  ...(r.lateMs !== undefined ? { l: r.lateMs } : {}),
});

const fromLine = (l: z.infer<typeof Line>): SyntheticResult => ({
  at: l.t,
  agent: l.a,
  check: l.c,
  passed: l.ok,
  ...(l.f !== undefined ? { ttftMs: l.f } : {}),
  ...(l.tt !== undefined ? { totalMs: l.tt } : {}),
  ...(l.e !== undefined ? { failure: l.e } : {}),
  ...(l.l !== undefined ? { lateMs: l.l } : {}),
});

export interface SyntheticHistoryOptions {
  file?: string;
  capacity?: number;
  onWriteError?: (error: Error) => void;
}

export class SyntheticHistory {
  readonly capacity: number;
  readonly warning: string | undefined;
  private ring: SyntheticResult[] = [];
  private start = 0;
  private readonly journal: RingJournal<SyntheticResult, z.infer<typeof Line>> | undefined;

  constructor(options: SyntheticHistoryOptions = {}) {
    this.capacity = options.capacity ?? SYNTHETIC_HISTORY_CAPACITY;
    if (options.file) {
      this.journal = new RingJournal({
        file: options.file,
        kind: 'agent-console/synthetic-history',
        what: 'synthetic check history',
        capacity: this.capacity,
        line: Line,
        toLine,
        fromLine,
        entries: () => this.list(),
        ...(options.onWriteError ? { onWriteError: options.onWriteError } : {}),
      });
      this.warning = this.journal.load(
        (r) => this.put(r),
        () => this.ring.length,
      );
    }
  }

  get size(): number {
    return this.ring.length;
  }

  get fileLines(): number {
    return this.journal?.linesInFile ?? 0;
  }

  add(result: SyntheticResult): void {
    this.put(result);
    this.journal?.append(result);
  }

  /** Oldest first, from `from` (epoch ms) on. */
  list(from = -Infinity): SyntheticResult[] {
    const out: SyntheticResult[] = [];
    for (let i = 0; i < this.ring.length; i++) {
      const r = this.ring[(this.start + i) % this.ring.length] as SyntheticResult;
      if (r.at >= from) out.push(r);
    }
    return out;
  }

  async flush(): Promise<void> {
    await this.journal?.flush();
  }

  private put(result: SyntheticResult): void {
    if (this.ring.length < this.capacity) {
      this.ring.push(result);
      return;
    }
    this.ring[this.start] = result;
    this.start = (this.start + 1) % this.capacity;
  }
}
