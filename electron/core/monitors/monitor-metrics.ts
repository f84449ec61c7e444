// The monitors as Prometheus metrics, with prom-client on a registry of our own: what
// Grafana dashboards and Alertmanager rules are built on when a laptop is not enough. Names follow
// Prometheus conventions (a prefix, base units in the name, `_total` for counters); the labels are
// `monitor` (its name), `status`, `component`, `state`, `check`, `agent`, `kind`, `budget` — README
// "Metrics".
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { HEALTH_COMPONENTS } from '../../../shared/known-values';
import type { WatchStatus } from '../../../shared/monitor';
import { WATCH_WORDS } from '../../../shared/monitor';
import type { LimiterRegistry } from '../rate-limiter';
import type { KeyVault } from '../key-vault';
import type { MonitorRegistry } from './monitor-registry';
import { guardMetrics } from '../output-guard';
import { budgetFigures } from './sla-report';

const STATUSES = Object.keys(WATCH_WORDS) as WatchStatus[];
const PREFIX = 'agent_console_';

/** Seconds buckets for time to first chunk and total time: 50 ms to a minute (the chat timeout). */
const REPLY_BUCKETS = [0.05, 0.1, 0.25, 0.5, 1, 2, 3, 5, 10, 20, 30, 60];
/** Seconds a check waited after it was due: none, to a full rate window and beyond. */
const LATENESS_BUCKETS = [0.1, 0.5, 1, 5, 10, 30, 60, 120, 300];
const RESPONSE_BUCKETS = [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 15];

export interface MonitorMetricsHost {
  monitors: MonitorRegistry;
  limiters: LimiterRegistry;
  vault: KeyVault;
  /** The core's clock (the SLO windows end now). */
  now?: () => number;
}

/** The windows SLO gauges are read over, in minutes: burn alerts compare a short and a long one. */
const SLO_WINDOWS = { '1h': 60, '6h': 360, '30d': 30 * 1440 } as const;

/** Builds the registry and follows the monitors; `metrics()` is the exposition text. */
export function monitorMetrics(host: MonitorMetricsHost, options: { defaultMetrics?: boolean } = {}) {
  const registry = new Registry();
  if (options.defaultMetrics !== false) {
    collectDefaultMetrics({ register: registry });
    // Its value is taken by waiting for the event loop's next turn, which made a scrape of 20
    // monitors 8–12 ms instead of 3 (docs/performance.md); the nodejs_eventloop_lag_p50/p99/…
    // gauges beside it report the same lag from a histogram, without the wait.
    registry.removeSingleMetric('nodejs_eventloop_lag_seconds');
  }

  const status = new Gauge({
    name: `${PREFIX}monitor_status`,
    help: 'Whether the monitor is in this status now (1) or not (0): one series per status.',
    labelNames: ['monitor', 'status'],
    registers: [registry],
    collect() {
      for (const monitor of host.monitors.all()) {
        const now = monitor.currentStatus();
        for (const s of STATUSES) this.set({ monitor: monitor.name, status: s }, now === s ? 1 : 0);
      }
    },
  });
  const component = new Gauge({
    name: `${PREFIX}health_component_status`,
    help: "The newest health report's components: 1 for the state each component is in.",
    labelNames: ['monitor', 'component', 'state'],
    registers: [registry],
    collect() {
      this.reset();
      for (const monitor of host.monitors.all()) {
        const report = monitor.health.state().lastReport;
        if (!report) continue;
        const components = report.components as Record<string, unknown>;
        const names = new Set([...HEALTH_COMPONENTS, ...Object.keys(components)]);
        for (const name of names) {
          const state = components[name];
          if (typeof state === 'string') this.set({ monitor: monitor.name, component: name, state }, 1);
        }
      }
    },
  });
  const rateRemaining = new Gauge({
    name: `${PREFIX}rate_limit_remaining_requests`,
    help: "Requests left in the monitor key's current 60-second window, by this client's count.",
    labelNames: ['monitor'],
    registers: [registry],
    collect() {
      for (const monitor of host.monitors.all()) {
        const key = host.vault.get(monitor.profile.keyId);
        if (!key) continue;
        this.set({ monitor: monitor.name }, host.limiters.for(key.id, key.tier).state().remaining);
      }
    },
  });
  const rateQueued = new Gauge({
    name: `${PREFIX}rate_limit_queued_requests`,
    help: "Requests waiting in the monitor key's limiter (the key is busy).",
    labelNames: ['monitor'],
    registers: [registry],
    collect() {
      for (const monitor of host.monitors.all()) {
        const key = host.vault.get(monitor.profile.keyId);
        if (key) this.set({ monitor: monitor.name }, host.limiters.for(key.id, key.tier).state().queued);
      }
    },
  });
  const budgetOver = new Gauge({
    name: `${PREFIX}latency_budget_exceeded`,
    help: "Whether the budget's p95 over its window is over the limit now (1) or not (0).",
    labelNames: ['monitor', 'budget'],
    registers: [registry],
    collect() {
      for (const monitor of host.monitors.all()) {
        for (const b of monitor.budget?.views() ?? []) {
          this.set({ monitor: monitor.name, budget: b.name }, b.over ? 1 : 0);
        }
      }
    },
  });
  const budgetObserved = new Gauge({
    name: `${PREFIX}latency_budget_observed_seconds`,
    help: "The budget's p95 over its window (the newest runs, or polls).",
    labelNames: ['monitor', 'budget'],
    registers: [registry],
    collect() {
      for (const monitor of host.monitors.all()) {
        for (const b of monitor.budget?.views() ?? []) {
          if (b.observedMs !== undefined)
            this.set({ monitor: monitor.name, budget: b.name }, b.observedMs / 1000);
        }
      }
    },
  });
  const budgetLimit = new Gauge({
    name: `${PREFIX}latency_budget_limit_seconds`,
    help: "The budget's limit, as the monitors file sets it.",
    labelNames: ['monitor', 'budget'],
    registers: [registry],
    collect() {
      for (const monitor of host.monitors.all()) {
        for (const b of monitor.budget?.views() ?? [])
          this.set({ monitor: monitor.name, budget: b.name }, b.limitMs / 1000);
      }
    },
  });
  const maintenance = new Gauge({
    name: `${PREFIX}maintenance_active`,
    help: 'Whether a maintenance window of the monitor is under way (1) or not (0).',
    labelNames: ['monitor'],
    registers: [registry],
    collect() {
      for (const monitor of host.monitors.all())
        this.set({ monitor: monitor.name }, monitor.inMaintenance() ? 1 : 0);
    },
  });
  const incidentOpen = new Gauge({
    name: `${PREFIX}incident_open`,
    help: 'Whether the monitor has an open incident (1) or not (0).',
    labelNames: ['monitor'],
    registers: [registry],
    collect() {
      for (const monitor of host.monitors.all()) {
        this.set({ monitor: monitor.name }, host.monitors.incidents.log.openFor(monitor.id) ? 1 : 0);
      }
    },
  });
  const incidentAcknowledged = new Gauge({
    name: `${PREFIX}incident_acknowledged`,
    help: "Whether the monitor's open incident is acknowledged (1) or not (0; also when none is open).",
    labelNames: ['monitor'],
    registers: [registry],
    collect() {
      for (const monitor of host.monitors.all()) {
        const open = host.monitors.incidents.log.openFor(monitor.id);
        this.set({ monitor: monitor.name }, open?.acknowledged ? 1 : 0);
      }
    },
  });
  const now = host.now ?? Date.now;
  /** Up and down minutes from the monitor's kept counters (minute-history.ts), never its files. */
  const slo = (monitor: ReturnType<MonitorRegistry['all']>[number], window: keyof typeof SLO_WINDOWS) => {
    const { up, down } = monitor.minutes.counted(now(), SLO_WINDOWS[window]);
    return budgetFigures(up, down, monitor.config.slo?.availability);
  };
  const sloAvailability = new Gauge({
    name: `${PREFIX}slo_availability_ratio`,
    help: 'Up minutes over up and down minutes in the window (maintenance and unchecked minutes left out).',
    labelNames: ['monitor', 'window'],
    registers: [registry],
    collect() {
      this.reset();
      for (const monitor of host.monitors.all()) {
        const figures = slo(monitor, '30d');
        if (figures.availability !== undefined)
          this.set({ monitor: monitor.name, window: '30d' }, figures.availability / 100);
      }
    },
  });
  const sloTarget = new Gauge({
    name: `${PREFIX}slo_target_ratio`,
    help: "The monitor's availability target (slo.availability).",
    labelNames: ['monitor'],
    registers: [registry],
    collect() {
      this.reset();
      for (const monitor of host.monitors.all()) {
        const target = monitor.config.slo?.availability;
        if (target !== undefined) this.set({ monitor: monitor.name }, target / 100);
      }
    },
  });
  const sloBudget = new Gauge({
    name: `${PREFIX}slo_error_budget_remaining_ratio`,
    help: 'What is left of the 30-day error budget the target allows (negative once overspent).',
    labelNames: ['monitor'],
    registers: [registry],
    collect() {
      this.reset();
      for (const monitor of host.monitors.all()) {
        const left = slo(monitor, '30d').budgetRemaining;
        if (left !== undefined) this.set({ monitor: monitor.name }, left / 100);
      }
    },
  });
  const sloBurn = new Gauge({
    name: `${PREFIX}slo_burn_rate`,
    help: 'How fast the error budget burns over the window: 1 spends it exactly in 30 days.',
    labelNames: ['monitor', 'window'],
    registers: [registry],
    collect() {
      this.reset();
      for (const monitor of host.monitors.all()) {
        for (const window of Object.keys(SLO_WINDOWS) as (keyof typeof SLO_WINDOWS)[]) {
          const burn = slo(monitor, window).burnRate;
          if (burn !== undefined) this.set({ monitor: monitor.name, window }, burn);
        }
      }
    },
  });
  const healthChecks = new Counter({
    name: `${PREFIX}health_checks_total`,
    help: 'Health polls, by the status each one found.',
    labelNames: ['monitor', 'status'],
    registers: [registry],
  });
  const healthResponse = new Histogram({
    name: `${PREFIX}health_response_seconds`,
    help: 'Round trip of answered health polls, time waiting for the rate limit excluded.',
    labelNames: ['monitor'],
    buckets: RESPONSE_BUCKETS,
    registers: [registry],
  });
  const syntheticRuns = new Counter({
    name: `${PREFIX}synthetic_checks_total`,
    help: 'Synthetic check runs, by result (pass or fail).',
    labelNames: ['monitor', 'check', 'agent', 'result'],
    registers: [registry],
  });
  const syntheticPassing = new Gauge({
    name: `${PREFIX}synthetic_check_passing`,
    help: 'Whether the newest run of the synthetic check passed (1) or failed (0).',
    labelNames: ['monitor', 'check', 'agent'],
    registers: [registry],
  });
  const ttft = new Histogram({
    name: `${PREFIX}synthetic_ttft_seconds`,
    help: 'Time to the first chunk of synthetic checks that streamed.',
    labelNames: ['monitor', 'check', 'agent'],
    buckets: REPLY_BUCKETS,
    registers: [registry],
  });
  const total = new Histogram({
    name: `${PREFIX}synthetic_duration_seconds`,
    help: 'Time from the request to the whole reply of synthetic checks.',
    labelNames: ['monitor', 'check', 'agent'],
    buckets: REPLY_BUCKETS,
    registers: [registry],
  });
  const lateness = new Histogram({
    name: `${PREFIX}check_lateness_seconds`,
    help: 'How long a check waited after it was due (the key busy with other traffic).',
    labelNames: ['monitor', 'kind'],
    buckets: LATENESS_BUCKETS,
    registers: [registry],
  });
  const transitions = new Counter({
    name: `${PREFIX}monitor_transitions_total`,
    help: 'Confirmed status changes, by the status changed to.',
    labelNames: ['monitor', 'status'],
    registers: [registry],
  });

  const nameOf = (id: string | undefined) => (id ? host.monitors.get(id)?.name : undefined);
  const unsubscribe = host.monitors.subscribe((event) => {
    if (event.type === 'health') {
      const monitor = nameOf(event.monitorId);
      const sample = event.update.sample;
      if (!monitor || !sample) return;
      healthChecks.inc({ monitor, status: sample.status });
      if (sample.responseMs !== undefined) healthResponse.observe({ monitor }, sample.responseMs / 1000);
      if (sample.lateMs !== undefined && !sample.manual)
        lateness.observe({ monitor, kind: 'health' }, sample.lateMs / 1000);
    } else if (event.type === 'synthetic') {
      const monitor = nameOf(event.monitorId);
      if (!monitor) return;
      for (const r of event.results) {
        const labels = { monitor, check: r.check, agent: r.agent };
        syntheticRuns.inc({ ...labels, result: r.passed ? 'pass' : 'fail' });
        syntheticPassing.set(labels, r.passed ? 1 : 0);
        if (r.ttftMs !== undefined) ttft.observe(labels, r.ttftMs / 1000);
        if (r.totalMs !== undefined) total.observe(labels, r.totalMs / 1000);
        if (r.lateMs !== undefined) lateness.observe({ monitor, kind: 'synthetic' }, r.lateMs / 1000);
      }
    } else if (event.type === 'notification' && !event.notification.test) {
      const monitor = nameOf(event.notification.monitorId);
      if (monitor) transitions.inc({ monitor, status: event.notification.to });
    }
  });
  // Referenced so a reader sees every family this module exposes in one place.
  void [
    status,
    component,
    rateRemaining,
    rateQueued,
    budgetOver,
    budgetObserved,
    budgetLimit,
    maintenance,
    incidentOpen,
    incidentAcknowledged,
    sloAvailability,
    sloTarget,
    sloBudget,
    sloBurn,
  ];

  return {
    registry,
    contentType: registry.contentType,
    // Label values come from files and servers: guarded like every other output.
    metrics: async () => guardMetrics(await registry.metrics()),
    /** The families this project defines (the default Node.js ones excluded). */
    ownFamilies: () =>
      registry
        .getMetricsAsArray()
        .map((m) => m.name)
        .filter((n) => n.startsWith(PREFIX)),
    close: unsubscribe,
  };
}
