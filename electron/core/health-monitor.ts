// The health monitor: polls GET /health of the active profile on a schedule,
// in the core, so it keeps going while the window is hidden, minimised or closed to the tray.
//
// - Every poll goes through the profile's API client, hence the key's one shared rate limiter
//   (docs/decisions.md): on a busy key the poll waits its turn in the queue instead of causing a 429,
//   and the response time it records excludes that wait.
// - A failed poll is told apart from a bad report, and restarts and deploys are read off consecutive
//   reports of one profile (health-sample.ts).
// - Debounce: a new status is *confirmed* — and only then notified and shown in the tray — once it
//   holds for `confirmPolls` polls in a row (default 2, manual checks count). So a blip shorter
//   than one interval never notifies, and a flapping service notifies at most once per two polls.
//   The first status after a start or a profile switch is confirmed at once; it is notified
//   unless it is "healthy" (nobody needs telling that all is well when they open the app).
import type { ReceivedHealthReport as HealthReport } from '../../shared/received';
import type { Clock } from '../../shared/clock';
import {
  DEFAULT_HEALTH_INTERVAL_MS,
  describeTransition,
  HEALTH_HISTORY_CAPACITY,
  HEALTH_RANGES,
  HEALTH_SAMPLE_FRESH_MS,
  MAX_HEALTH_INTERVAL_MS,
  MIN_HEALTH_INTERVAL_MS,
  type HealthIncident,
  type HealthMonitorState,
  type HealthRange,
  type HealthSample,
  type HealthTimeline,
  type HealthUpdate,
  type MonitorStatus,
} from '../../shared/health';
import { buildTimeline, findIncidents } from './health-analysis';
import { HealthHistory } from './health-history';
import { failureFacts, failureText, reportFacts, type PreviousReport } from './health-sample';

/** What a poll needs of the active profile: its identity and a health call through its client. */
export interface HealthTarget {
  profileId: string;
  profileName: string;
  health(options: { signal?: AbortSignal; onRoundTrip?: (ms: number) => void }): Promise<HealthReport>;
}

export interface HealthMonitorOptions {
  clock: Clock;
  /** The active profile's target, or why there is none. Asked before every poll (profiles switch). */
  target: () => HealthTarget | { unavailable: string };
  /** The history journal; none keeps history in memory only. */
  historyFile?: string;
  capacity?: number;
  intervalMs?: number;
  confirmPolls?: number;
  /** Told the new interval when it changes, to persist it. */
  onIntervalChange?: (ms: number) => void;
  /** Samples taken while this holds count neither up nor down in uptime (a maintenance window). */
  excludedFromUptime?: (at: number) => boolean;
  onWarning?: (message: string) => void;
}

/**
 * How long a window that opens during the first poll waits for it (`openingState`): a service
 * answering in time is shown from that poll; a slower one gets the window's own connection test.
 */
const FIRST_POLL_WAIT_MS = 1_000;

export class HealthIntervalError extends RangeError {
  readonly code = 'BAD_INTERVAL';
}

function checkInterval(ms: number): number {
  if (!Number.isInteger(ms) || ms < MIN_HEALTH_INTERVAL_MS || ms > MAX_HEALTH_INTERVAL_MS) {
    throw new HealthIntervalError(
      `The health poll interval must be a whole number of milliseconds from ${MIN_HEALTH_INTERVAL_MS / 1000} s to 24 h, got ${ms}.`,
    );
  }
  return ms;
}

interface Confirmation {
  profileId: string;
  status: MonitorStatus;
  since: number | undefined;
  candidate: MonitorStatus | undefined;
  streak: number;
}

/** The newest report of the active profile (kept through failures: restarts compare with it). */
interface Latest {
  profileId: string;
  report?: HealthReport;
  /** Our clock when that report arrived. */
  reportAt?: number;
  /** The newest poll's failure message; cleared by the next report. */
  error?: string;
}

export class HealthMonitor {
  readonly history: HealthHistory;
  readonly confirmPolls: number;
  private readonly clock: Clock;
  private readonly options: HealthMonitorOptions;
  private interval: number;
  private running = false;
  private loop: Promise<void> | undefined;
  private wake: AbortController | undefined;
  private stopping: AbortController | undefined;
  private inFlight: Promise<HealthUpdate> | undefined;
  /** The first poll since start(); once it has settled, waiting for it costs nothing. */
  private firstPoll: Promise<HealthUpdate> | undefined;
  private nextAt: number | undefined;
  /** When the poll under way began (it may be waiting for the key's rate limit). */
  private checkingSince: number | undefined;
  private confirmation: Confirmation | undefined;
  private latest: Latest | undefined;
  private readonly listeners = new Set<(update: HealthUpdate) => void>();

  constructor(options: HealthMonitorOptions) {
    this.options = options;
    this.clock = options.clock;
    this.interval = checkInterval(options.intervalMs ?? DEFAULT_HEALTH_INTERVAL_MS);
    this.confirmPolls = Math.max(1, options.confirmPolls ?? 2);
    this.history = new HealthHistory({
      capacity: options.capacity ?? HEALTH_HISTORY_CAPACITY,
      ...(options.historyFile ? { file: options.historyFile } : {}),
      onWriteError: (error) => options.onWarning?.(`The health history could not be saved: ${error.message}`),
    });
    if (this.history.warning) options.onWarning?.(this.history.warning);
  }

  get intervalMs(): number {
    return this.interval;
  }

  /** Polls now, then every interval, until `stop`. Calling it again does nothing. */
  start(): void {
    if (this.running) return;
    this.running = true;
    this.stopping = new AbortController();
    this.nextAt = this.clock.now();
    this.loop = this.run();
    // run() has begun its first poll by now (it awaits nothing before it).
    this.firstPoll = this.inFlight;
  }

  /**
   * The state, for a window that has just opened: while the first poll since start() is under way
   * and the profile's last sample is older than HEALTH_SAMPLE_FRESH_MS, once that poll is over
   * (within `maxMs`). The window then says "Connected" (or not) from this poll, instead of testing
   * the connection a second time and answering a round trip later.
   */
  async openingState(maxMs = FIRST_POLL_WAIT_MS): Promise<HealthMonitorState> {
    const first = this.firstPoll;
    const last = this.state().last;
    if (first && !(last && this.clock.now() - last.at < HEALTH_SAMPLE_FRESH_MS)) {
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        first.catch(() => undefined),
        new Promise((go) => (timer = setTimeout(go, maxMs))),
      ]);
      clearTimeout(timer);
    }
    return this.state();
  }

  /** Settles once the first poll since start() is over, however it went (at once before start()). */
  async firstPollOver(): Promise<void> {
    await this.firstPoll?.catch(() => undefined);
  }

  /** Stops polling (an in-flight poll is cancelled) and writes what is pending to disk. */
  async stop(): Promise<void> {
    this.running = false;
    this.stopping?.abort();
    this.wake?.abort();
    await this.loop;
    await this.inFlight?.catch(() => undefined);
    // Checks by hand after a stop are not cancelled by it.
    this.stopping = undefined;
    this.nextAt = undefined;
    await this.history.flush();
  }

  /** Changes the interval (refused below 10 s) and reschedules the next poll from the last one. */
  setIntervalMs(ms: number): HealthMonitorState {
    const previous = this.interval;
    this.interval = checkInterval(ms);
    if (this.nextAt !== undefined) this.nextAt += this.interval - previous;
    this.wake?.abort();
    this.options.onIntervalChange?.(this.interval);
    this.emit({ state: this.state() });
    return this.state();
  }

  /** Polls at once (joining a poll already under way); the schedule restarts from this poll. */
  checkNow(manual = true): Promise<HealthUpdate> {
    this.inFlight ??= this.poll(manual).finally(() => {
      this.inFlight = undefined;
    });
    return this.inFlight;
  }

  /** The active profile changed: forget the old one's confirmation and poll the new one soon. */
  profileChanged(): void {
    this.latest = undefined;
    this.confirmation = undefined;
    if (this.running) {
      this.nextAt = this.clock.now();
      this.wake?.abort();
    }
    this.emit({ state: this.state() });
  }

  subscribe(listener: (update: HealthUpdate) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  state(): HealthMonitorState {
    const target = this.options.target();
    const profileId = 'unavailable' in target ? undefined : target.profileId;
    const last = profileId ? this.history.latest(profileId) : undefined;
    const latest = this.latest?.profileId === profileId ? this.latest : undefined;
    const confirmation = this.confirmation?.profileId === profileId ? this.confirmation : undefined;
    return {
      running: this.running,
      intervalMs: this.interval,
      confirmPolls: this.confirmPolls,
      ...(profileId ? { profileId, profileName: (target as HealthTarget).profileName } : {}),
      ...(last ? { last } : {}),
      ...(latest?.report ? { lastReport: latest.report } : {}),
      ...(latest?.error ? { lastError: latest.error } : {}),
      confirmed: confirmation?.status ?? 'unknown',
      ...(confirmation?.since !== undefined ? { confirmedSince: confirmation.since } : {}),
      checking: this.inFlight !== undefined,
      ...(this.inFlight !== undefined && this.checkingSince !== undefined
        ? { checkingSince: this.checkingSince }
        : {}),
      ...(this.running && this.nextAt !== undefined ? { nextCheckAt: this.nextAt } : {}),
      ...('unavailable' in target ? { idleReason: target.unavailable } : {}),
      ...(this.history.warning ? { warning: this.history.warning } : {}),
    };
  }

  /** The state as it is once this poll is over (its promise is still pending while it reports). */
  private settledState(): HealthMonitorState {
    return { ...this.state(), checking: false };
  }

  timeline(range: HealthRange): HealthTimeline {
    const now = this.clock.now();
    const profileId = this.state().profileId;
    const samples = profileId
      ? this.history.list({ profileId, from: now - HEALTH_RANGES['7d'] - 3 * this.interval })
      : [];
    return buildTimeline(samples, range, now, this.interval, this.options.excludedFromUptime);
  }

  incidents(from: number, to: number): HealthIncident[] {
    const profileId = this.state().profileId;
    if (!profileId) return [];
    return findIncidents(this.history.list({ profileId }), from, to, this.clock.now(), this.interval);
  }

  private async run(): Promise<void> {
    while (this.running) {
      const now = this.clock.now();
      if (this.nextAt === undefined || now >= this.nextAt) {
        // Whatever goes wrong in one check is told, and the next one still comes: this loop runs
        // in the app's and the web host's own process, and an escaped error would end it.
        await this.checkNow(false).catch((error: unknown) =>
          this.options.onWarning?.(
            `A health check failed unexpectedly: ${(error as Error)?.message ?? String(error)}`,
          ),
        );
        if (this.nextAt === undefined || this.nextAt <= this.clock.now())
          this.nextAt = this.clock.now() + this.interval;
        continue;
      }
      this.wake = new AbortController();
      await this.clock.sleep(this.nextAt - now, this.wake.signal).catch(() => undefined);
      this.wake = undefined;
    }
  }

  private emit(update: HealthUpdate): void {
    for (const listener of this.listeners) {
      try {
        listener(update);
      } catch (error) {
        this.options.onWarning?.(`A health listener failed: ${(error as Error).message}`);
      }
    }
  }

  private async poll(manual: boolean): Promise<HealthUpdate> {
    const started = this.clock.now();
    // When it was due: a scheduled poll's slot (the loop may wake late), a manual check's now.
    const due = manual || this.nextAt === undefined ? started : Math.min(this.nextAt, started);
    this.checkingSince = started;
    this.nextAt = started + this.interval;
    this.wake?.abort();
    const target = this.options.target();
    if ('unavailable' in target) {
      const update = { state: this.settledState() };
      this.emit(update);
      return update;
    }
    this.emit({ state: { ...this.state(), checking: true } });
    let roundTrip: number | undefined;
    let report: HealthReport | undefined;
    let failure: unknown;
    try {
      report = await target.health({
        ...(this.stopping ? { signal: this.stopping.signal } : {}),
        onRoundTrip: (ms) => (roundTrip = ms),
      });
    } catch (error) {
      failure = error;
    }
    const at = this.clock.now();
    // A poll cancelled by stop() says nothing about the service.
    if (failure !== undefined && this.stopping?.signal.aborted) return { state: this.state() };
    // A slow poll (a long queue in the limiter) must not be followed by another one at once.
    if (this.nextAt < at) this.nextAt = at + this.interval;
    const sample = this.sampleOf(target, at, manual, report, failure, roundTrip);
    // The time it waited after it was due — for the key's rate limit, mostly — is reported, not hidden.
    if (roundTrip !== undefined) sample.lateMs = Math.max(0, Math.round(at - due - roundTrip));
    const transition = this.confirm(target, sample, failure);
    if (transition) sample.transition = { from: transition.from, to: transition.to };
    this.history.add(sample);
    const update: HealthUpdate = {
      state: this.settledState(),
      sample,
      ...(transition ? { transition } : {}),
    };
    this.emit(update);
    return update;
  }

  private sampleOf(
    target: HealthTarget,
    at: number,
    manual: boolean,
    report: HealthReport | undefined,
    failure: unknown,
    roundTrip: number | undefined,
  ): HealthSample {
    const base = {
      at,
      profileId: target.profileId,
      ...(roundTrip !== undefined ? { responseMs: Math.round(roundTrip * 10) / 10 } : {}),
      ...(manual ? { manual: true } : {}),
    };
    if (!report) {
      this.latest = { ...this.latestFor(target.profileId), error: failureText(failure) };
      return { ...base, ...failureFacts(failure) };
    }
    const previous = this.previousReport(target.profileId);
    this.latest = { profileId: target.profileId, report, reportAt: at };
    return { ...base, ...reportFacts(report, at, previous) };
  }

  private latestFor(profileId: string): Latest {
    return this.latest?.profileId === profileId ? this.latest : { profileId };
  }

  /** The previous report of a profile: in memory, else (after a restart of the console) the history's. */
  private previousReport(profileId: string): PreviousReport | undefined {
    const latest = this.latestFor(profileId);
    if (latest.report && latest.reportAt !== undefined) {
      return { at: latest.reportAt, uptimeS: latest.report.uptime_seconds, version: latest.report.version };
    }
    const last = this.history.latest(profileId, (s) => s.version !== undefined && s.uptimeS !== undefined);
    if (!last || last.version === undefined || last.uptimeS === undefined) return undefined;
    return { at: last.at, uptimeS: last.uptimeS, version: last.version };
  }

  /** The debounce (see the header): returns the transition when this sample confirms a new status. */
  private confirm(target: HealthTarget, sample: HealthSample, failure: unknown): HealthUpdate['transition'] {
    let c = this.confirmation;
    if (!c || c.profileId !== target.profileId) {
      c = this.confirmation = {
        profileId: target.profileId,
        status: 'unknown',
        since: undefined,
        candidate: undefined,
        streak: 0,
      };
    }
    const status = sample.status;
    if (status === c.status) {
      c.candidate = undefined;
      c.streak = 0;
      return undefined;
    }
    // "Unknown" (e.g. a poll still rate limited after its retries) is no news: it neither confirms nor breaks a streak.
    if (status === 'unknown') return undefined;
    if (c.status !== 'unknown') {
      c.streak = c.candidate === status ? c.streak + 1 : 1;
      c.candidate = status;
      if (c.streak < this.confirmPolls) return undefined;
    }
    const from = c.status;
    c.status = status;
    c.since = sample.at;
    c.candidate = undefined;
    c.streak = 0;
    const words = describeTransition(from, status, {
      profileName: target.profileName,
      sample,
      ...(failure ? { error: failureText(failure) } : {}),
    });
    return {
      from,
      to: status,
      at: sample.at,
      notify: !(from === 'unknown' && status === 'healthy'),
      ...words,
    };
  }
}
