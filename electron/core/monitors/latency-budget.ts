// Latency budgets: a monitor whose agents answer but too slowly is "Degraded (slow)" before it is
// down. Each budget is a p95 over the newest runs (the window, README "Latency budgets"); the
// synthetic budgets are judged after each synthetic run and the health budget after each poll,
// and a change holds for two of those in a row before it counts, as every status change does.
import type { BudgetName, BudgetView } from '../../../shared/monitor';
import { BUDGET_WORDS } from '../../../shared/monitor';

export interface Budgets {
  'ttft-p95'?: number;
  'total-p95'?: number;
  'health-response'?: number;
  /** How many of the newest runs (and polls) a p95 is taken over. */
  window: number;
}

/** Judgements in a row a change must hold before it is confirmed (as the health poll's). */
const CONFIRM = 2;

/** The nearest-rank p95 of the values. */
function p95(values: readonly number[]): number | undefined {
  if (values.length === 0) return undefined;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.max(1, Math.ceil(0.95 * sorted.length)) - 1];
}

/** One source's confirmed judgement (the synthetic runs, or the health polls). */
class Confirmed {
  over = false;
  private streak = 0;

  judge(over: boolean): void {
    if (over === this.over) {
      this.streak = 0;
      return;
    }
    if (++this.streak >= CONFIRM) {
      this.over = over;
      this.streak = 0;
    }
  }
}

export class LatencyBudget {
  private readonly runs: { ttftMs: number[]; totalMs: number[] }[] = [];
  private readonly polls: number[] = [];
  private readonly synthetic = new Confirmed();
  private readonly health = new Confirmed();

  constructor(private readonly budgets: Budgets) {}

  /** A synthetic run's results (every case × agent of it). */
  addRun(results: readonly { ttftMs?: number; totalMs?: number }[]): void {
    if (this.budgets['ttft-p95'] === undefined && this.budgets['total-p95'] === undefined) return;
    this.runs.push({
      ttftMs: results.flatMap((r) => (r.ttftMs !== undefined ? [r.ttftMs] : [])),
      totalMs: results.flatMap((r) => (r.totalMs !== undefined ? [r.totalMs] : [])),
    });
    if (this.runs.length > this.budgets.window) this.runs.shift();
    this.synthetic.judge(this.over('ttft-p95') || this.over('total-p95'));
  }

  /** A health poll's response time (a poll with no answer says nothing about speed). */
  addPoll(responseMs: number | undefined): void {
    if (this.budgets['health-response'] === undefined || responseMs === undefined) return;
    this.polls.push(responseMs);
    if (this.polls.length > this.budgets.window) this.polls.shift();
    this.health.judge(this.over('health-response'));
  }

  /** Confirmed over budget, on any of them. */
  slow(): boolean {
    return this.synthetic.over || this.health.over;
  }

  views(): BudgetView[] {
    return (['ttft-p95', 'total-p95', 'health-response'] as const).flatMap((name) => {
      const limitMs = this.budgets[name];
      if (limitMs === undefined) return [];
      const observedMs = this.observed(name);
      return [
        {
          name,
          limitMs,
          window: this.budgets.window,
          ...(observedMs !== undefined ? { observedMs } : {}),
          over: observedMs !== undefined && observedMs > limitMs,
        },
      ];
    });
  }

  /** "TTFT p95 3.0 s over its 2 s budget (last 10 runs)" for each budget now over. */
  describe(): string {
    const over = this.views().filter((v) => v.over);
    return over
      .map(
        (v) =>
          `${BUDGET_WORDS[v.name]} ${seconds(v.observedMs as number)} over its ${seconds(v.limitMs)} budget (last ${v.window} ${v.name === 'health-response' ? 'polls' : 'runs'})`,
      )
      .join('; ');
  }

  private over(name: BudgetName): boolean {
    const limit = this.budgets[name];
    const observed = this.observed(name);
    return limit !== undefined && observed !== undefined && observed > limit;
  }

  private observed(name: BudgetName): number | undefined {
    if (name === 'health-response') return p95(this.polls);
    return p95(this.runs.flatMap((r) => (name === 'ttft-p95' ? r.ttftMs : r.totalMs)));
  }
}

function seconds(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(ms % 1000 === 0 ? 0 : 1)} s`;
}
