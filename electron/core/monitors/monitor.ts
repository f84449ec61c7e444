// One monitor: a profile's health poll and, optionally, its synthetic check, each on its
// own schedule, both through the profile's client — so through its key's one limiter, shared with
// the user's own traffic. Its status is the health poll's confirmed status, or "synthetic check
// failing" while the service says it is up but the check fails; a change of that status is
// confirmed (two checks in a row, as the health monitor confirms) before it is told, once, and
// a recovery is told once.
import { join } from 'node:path';
import { stringify } from 'yaml';
import type { Clock } from '../../../shared/clock';
import { describeTransition, HEALTH_HISTORY_CAPACITY, type HealthUpdate } from '../../../shared/health';
import type {
  MonitorNotification,
  MonitorView,
  Percentile,
  SyntheticResult,
  WatchStatus,
} from '../../../shared/monitor';
import { BUDGET_WORDS, WATCH_WORDS } from '../../../shared/monitor';
import type { ApiClient } from '../api-client';
import { HealthMonitor } from '../health-monitor';
import type { Profile } from '../profiles';
import type { LoadedSuite } from '../suites/suite-loader';
import type { Suites } from '../suites/suites';
import { maintenanceText, publicOf, type MonitorConfig } from './monitor-config';
import { LatencyBudget } from './latency-budget';
import { MaintenanceWindows } from './maintenance';
import { MINUTE, MinuteHistory } from './minute-history';
import { healthPart } from './monitor-view';
import { runSyntheticCheck, syntheticSuite } from './synthetic-check';
import { SyntheticHistory, syntheticCapacity } from './synthetic-history';

export interface MonitorHost {
  clock: Clock;
  client(profile: Profile): ApiClient;
  suites: Suites;
  onWarning?: (message: string) => void;
}

export type MonitorEvent =
  | { kind: 'health'; update: HealthUpdate }
  | { kind: 'synthetic'; results: SyntheticResult[] }
  | { kind: 'transition'; notification: Omit<MonitorNotification, 'desktop'> };

/** Checks in a row a new synthetic outcome must hold before it is confirmed (as health polls). */
const CONFIRM_RUNS = 2;
const DAY_MS = 86_400_000;
/** Raw health checks are kept for a week whatever the interval (manual checks given a quarter more room). */
const RAW_DAYS = 7;

function healthCapacity(everyMs: number): number {
  return Math.max(HEALTH_HISTORY_CAPACITY, Math.ceil(((RAW_DAYS * DAY_MS) / everyMs) * 1.25));
}

function percentile(values: number[]): Percentile | undefined {
  if (values.length === 0) return undefined;
  const sorted = [...values].sort((a, b) => a - b);
  const at = (p: number) =>
    sorted[Math.min(sorted.length, Math.max(1, Math.ceil((p / 100) * sorted.length))) - 1] as number;
  return { p50: at(50), p95: at(95), samples: sorted.length };
}

export class Monitor {
  readonly health: HealthMonitor;
  readonly synthetic: SyntheticHistory | undefined;
  readonly budget: LatencyBudget | undefined;
  readonly maintenance: MaintenanceWindows;
  readonly minutes: MinuteHistory;
  private readonly listeners = new Set<(event: MonitorEvent) => void>();
  private status: WatchStatus = 'unknown';
  private since: number | undefined;
  /** The synthetic check's confirmed outcome, and the run of results that would change it. */
  private syntheticFailing = false;
  private syntheticStreak = 0;
  private syntheticSeen = false;
  private lastSynthetic: SyntheticResult[] | undefined;
  private suite: Promise<LoadedSuite> | undefined;
  private running = false;
  private loop: Promise<void> | undefined;
  private stopping: AbortController | undefined;
  private wake: AbortController | undefined;
  private nextSyntheticAt: number | undefined;
  private syntheticRun: Promise<SyntheticResult[]> | undefined;
  private readonly unwatchHealth: () => void;

  constructor(
    readonly config: MonitorConfig,
    readonly profile: Profile,
    private readonly host: MonitorHost,
    /** Where its history lives; none keeps it in memory (tests). */
    dir: string | undefined,
  ) {
    const warn = host.onWarning;
    this.maintenance = new MaintenanceWindows(config.maintenance ?? []);
    this.health = new HealthMonitor({
      clock: host.clock,
      target: () => ({
        profileId: profile.id,
        profileName: config.name,
        health: (options) => host.client(profile).health(options),
      }),
      ...(dir ? { historyFile: join(dir, 'health.jsonl') } : {}),
      capacity: healthCapacity(config.health.every),
      intervalMs: config.health.every,
      // Planned time counts neither up nor down.
      excludedFromUptime: (at) => this.maintenance.active(at) !== undefined,
      ...(warn ? { onWarning: warn } : {}),
    });
    this.synthetic = config.synthetic
      ? new SyntheticHistory({
          ...(dir ? { file: join(dir, 'synthetic.jsonl') } : {}),
          capacity: syntheticCapacity(config.synthetic),
          onWriteError: (error) => warn?.(`The synthetic check history could not be saved: ${error.message}`),
        })
      : undefined;
    if (this.synthetic?.warning) warn?.(this.synthetic.warning);
    this.budget = config.budgets ? new LatencyBudget(config.budgets) : undefined;
    this.minutes = new MinuteHistory(
      dir ? join(dir, 'minutes.jsonl') : undefined,
      Math.max(3 * config.health.every, 3 * MINUTE),
    );
    this.unwatchHealth = this.health.subscribe((update) => {
      if (update.sample) this.budget?.addPoll(update.sample.responseMs);
      this.emit({ kind: 'health', update });
      this.reconsider(update.sample?.at ?? host.clock.now());
      if (update.sample) {
        const responseMs = update.sample.responseMs;
        this.minutes.note(update.sample.at, this.status, responseMs !== undefined ? { responseMs } : {});
      }
    });
  }

  get id(): string {
    return this.config.id as string;
  }

  get name(): string {
    return this.config.name;
  }

  subscribe(listener: (event: MonitorEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    void this.minutes
      .start(this.host.clock.now())
      .catch((error: unknown) =>
        this.host.onWarning?.(`The minute history could not be read: ${(error as Error).message}`),
      );
    this.health.start();
    if (this.config.synthetic) {
      this.stopping = new AbortController();
      this.nextSyntheticAt = this.host.clock.now();
      this.loop = this.syntheticLoop();
    }
  }

  async stop(): Promise<void> {
    this.running = false;
    this.stopping?.abort();
    this.wake?.abort();
    await this.loop;
    await this.syntheticRun?.catch(() => undefined);
    await this.health.stop();
    await this.synthetic?.flush();
    await this.minutes.flush();
    this.unwatchHealth();
  }

  /** Runs the synthetic check now (joining one under way). */
  checkSyntheticNow(): Promise<SyntheticResult[]> {
    const due = this.host.clock.now();
    this.syntheticRun ??= this.runSynthetic(due).finally(() => {
      this.syntheticRun = undefined;
    });
    return this.syntheticRun;
  }

  currentStatus(): WatchStatus {
    return this.status;
  }

  /** What fails now, in words: the health poll, each failing synthetic case, each budget over. */
  failingChecks(): string[] {
    const health = this.health.state().confirmed;
    return [
      ...(health !== 'healthy' && health !== 'unknown'
        ? [`health poll: ${WATCH_WORDS[health].toLowerCase()}`]
        : []),
      ...(this.lastSynthetic ?? []).filter((r) => !r.passed).map((r) => `${r.check} on ${r.agent}`),
      ...(this.budget?.views() ?? []).filter((b) => b.over).map((b) => `${BUDGET_WORDS[b.name]} budget`),
    ];
  }

  view(): MonitorView {
    const now = this.host.clock.now();
    const synthetic = this.synthetic;
    const day = synthetic?.list(now - DAY_MS) ?? [];
    const ttft = percentile(day.flatMap((r) => (r.ttftMs !== undefined ? [r.ttftMs] : [])));
    return {
      id: this.id,
      name: this.name,
      profileId: this.profile.id,
      profileName: this.profile.name,
      implicit: false,
      status: this.status,
      ...(this.since !== undefined ? { since: this.since } : {}),
      ...healthPart(this.health, this.profile.id),
      ...(this.budget ? { budgets: this.budget.views() } : {}),
      ...this.maintenancePart(now),
      ...(this.config.synthetic && synthetic
        ? {
            synthetic: {
              everyMs: this.config.synthetic.every,
              agents: this.config.synthetic.agents ?? [],
              ...(this.lastSynthetic ? { last: this.lastSynthetic, lastAt: this.lastSynthetic[0]?.at } : {}),
              ...(this.nextSyntheticAt !== undefined && this.running ? { nextAt: this.nextSyntheticAt } : {}),
              failing: this.syntheticFailing,
              ...(ttft ? { ttft24h: ttft } : {}),
              passed24h: { passed: day.filter((r) => r.passed).length, runs: day.length },
            },
          }
        : {}),
      settings: {
        name: this.name,
        profileId: this.profile.id,
        healthEveryMs: this.config.health.every,
        desktop: this.config.notify.desktop,
        muted: this.config.notify.muted,
        public: publicOf(this.config) !== undefined,
        webhooks: [],
        ...(this.config.maintenance?.length
          ? { maintenanceYaml: stringify(maintenanceText(this.config.maintenance)) }
          : {}),
        ...(this.config.synthetic
          ? {
              synthetic: {
                everyMs: this.config.synthetic.every,
                agents: this.config.synthetic.agents ?? [],
                stream: this.config.synthetic.stream,
                ...(this.config.synthetic.suite ? { suite: this.config.synthetic.suite } : {}),
                ...(this.config.synthetic.cases ? { cases: this.config.synthetic.cases } : {}),
                ...(this.config.synthetic.message ? { message: this.config.synthetic.message } : {}),
              },
            }
          : {}),
      },
    };
  }

  /** Whether a maintenance window is under way now: nobody is told, nothing escalates. */
  inMaintenance(): boolean {
    return this.maintenance.active(this.host.clock.now()) !== undefined;
  }

  private maintenancePart(now: number): Pick<MonitorView, 'maintenance'> {
    const active = this.maintenance.active(now);
    const next = this.maintenance.next(now);
    return active || next
      ? { maintenance: { ...(active ? { active } : {}), ...(next ? { next } : {}) } }
      : {};
  }

  private emit(event: MonitorEvent): void {
    for (const listener of this.listeners) {
      try {
        listener(event);
      } catch (error) {
        this.host.onWarning?.(`A monitor listener failed: ${(error as Error).message}`);
      }
    }
  }

  private async syntheticLoop(): Promise<void> {
    const every = (this.config.synthetic as NonNullable<MonitorConfig['synthetic']>).every;
    while (this.running) {
      const now = this.host.clock.now();
      const due = this.nextSyntheticAt ?? now;
      if (now >= due) {
        // A run that took longer than the interval is not followed by a burst of catch-up runs.
        this.nextSyntheticAt = Math.max(due + every, now + 1);
        this.syntheticRun ??= this.runSynthetic(due).finally(() => {
          this.syntheticRun = undefined;
        });
        await this.syntheticRun.catch((error: unknown) =>
          this.host.onWarning?.(
            `Monitor "${this.name}": the synthetic check failed unexpectedly: ${(error as Error)?.message ?? String(error)}`,
          ),
        );
        if (this.host.clock.now() >= (this.nextSyntheticAt ?? 0))
          this.nextSyntheticAt = this.host.clock.now() + every;
        continue;
      }
      this.wake = new AbortController();
      await this.host.clock.sleep(due - now, this.wake.signal).catch(() => undefined);
      this.wake = undefined;
    }
  }

  private async runSynthetic(due: number): Promise<SyntheticResult[]> {
    const config = this.config.synthetic;
    if (!config || !this.synthetic) return [];
    let results: SyntheticResult[];
    try {
      this.suite ??= syntheticSuite(config, this.name, { keyEnv: this.config.service?.keyEnv });
      const suite = await this.suite;
      results = await runSyntheticCheck(config, suite, due, {
        suites: this.host.suites,
        profile: this.profile,
        now: () => this.host.clock.now(),
        ...(this.stopping ? { signal: this.stopping.signal } : {}),
      });
    } catch (error) {
      // A suite file that went missing or broke is a failing check, said as such.
      this.suite = undefined;
      results = [
        { at: due, agent: '—', check: 'synthetic check', passed: false, failure: (error as Error).message },
      ];
    }
    // Stopped mid-run: nothing was learnt about the service.
    if (this.stopping?.signal.aborted && !this.running) return results;
    for (const result of results) this.synthetic.add(result);
    this.lastSynthetic = results;
    this.confirmSynthetic(results.every((r) => r.passed));
    this.budget?.addRun(results);
    this.emit({ kind: 'synthetic', results });
    this.reconsider(
      this.host.clock.now(),
      results.find((r) => !r.passed),
    );
    this.minutes.note(this.host.clock.now(), this.status, {
      ttftMs: results.flatMap((r) => (r.ttftMs !== undefined ? [r.ttftMs] : [])),
    });
    return results;
  }

  private confirmSynthetic(passed: boolean): void {
    const failing = !passed;
    if (!this.syntheticSeen) {
      // The first outcome after a start is taken at once, as the health poll's first status is.
      this.syntheticSeen = true;
      this.syntheticFailing = failing;
      this.syntheticStreak = 0;
      return;
    }
    if (failing === this.syntheticFailing) {
      this.syntheticStreak = 0;
      return;
    }
    this.syntheticStreak++;
    if (this.syntheticStreak >= CONFIRM_RUNS) {
      this.syntheticFailing = failing;
      this.syntheticStreak = 0;
    }
  }

  /** The combined status; a change is a transition, told once. */
  private reconsider(at: number, failed?: SyntheticResult): void {
    const health = this.health.state().confirmed;
    const serviceUp = health === 'healthy' || health === 'degraded' || health === 'unknown';
    const next: WatchStatus = this.maintenance.active(at)
      ? 'maintenance'
      : this.syntheticFailing && serviceUp
        ? 'synthetic-failing'
        : health === 'healthy' && this.budget?.slow()
          ? 'slow'
          : health;
    if (next === this.status) return;
    const from = this.status;
    this.status = next;
    this.since = at;
    if (next === 'unknown') return;
    this.emit({ kind: 'transition', notification: this.words(from, next, at, failed) });
  }

  private words(
    from: WatchStatus,
    to: WatchStatus,
    at: number,
    failed: SyntheticResult | undefined,
  ): Omit<MonitorNotification, 'desktop'> {
    const base = { monitorId: this.id, monitorName: this.name, from, to, at };
    const was = from === 'unknown' ? '' : ` (was ${WATCH_WORDS[from].toLowerCase()})`;
    if (to === 'synthetic-failing') {
      const last = failed ?? this.lastSynthetic?.find((r) => !r.passed);
      const what = last ? `${last.check} on ${last.agent}: ${last.failure ?? 'failed'}` : 'the check fails';
      return { ...base, title: 'Synthetic check failing', body: `${this.name}: ${what}${was}.` };
    }
    if (from === 'synthetic-failing' && to === 'healthy') {
      return {
        ...base,
        title: 'Synthetic check passing again',
        body: `${this.name}: the agents answer as expected.`,
      };
    }
    if (to === 'maintenance') {
      const window = this.maintenance.active(at);
      const until = window
        ? ` until ${new Date(window.to).toISOString().slice(0, 16).replace('T', ' ')} UTC`
        : '';
      return {
        ...base,
        title: 'Maintenance',
        body: `${this.name}: in maintenance${until}; nobody is told meanwhile.`,
      };
    }
    if (from === 'maintenance' && to === 'healthy') {
      return {
        ...base,
        title: 'Maintenance over',
        body: `${this.name}: healthy after its maintenance window.`,
      };
    }
    if (to === 'slow') {
      return {
        ...base,
        title: WATCH_WORDS.slow,
        body: `${this.name}: ${this.budget?.describe() || 'over its latency budget'}${was}.`,
      };
    }
    if (from === 'slow' && to === 'healthy') {
      return {
        ...base,
        title: 'Within latency budgets again',
        body: `${this.name}: the agents answer in time.`,
      };
    }
    const state = this.health.state();
    const up =
      from === 'synthetic-failing' || from === 'slow' ? 'healthy' : from === 'maintenance' ? 'unknown' : from;
    const words = describeTransition(up, to, {
      profileName: this.name,
      ...(state.last ? { sample: state.last } : {}),
      ...(state.lastError ? { error: state.lastError } : {}),
    });
    return { ...base, ...words };
  }
}
