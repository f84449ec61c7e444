// Check lateness while a key is busy with streams: two monitors on two profiles that
// share ONE key run their synthetic checks on a short interval, while the same key carries long
// storyteller streams without pause. Everything goes through the real core — the key's one limiter
// (FIFO across callers), the API client, the embedded mock over HTTPS. A check's lateness is when
// its request actually left (the request log's start, after the limiter) minus when it was due.
// Goal: zero 429s; the lateness is the figure (a busy key delays a check visibly, not silently).
// The clock runs 3× real time (scaledClock below) so that 45 s cover more than two rate windows.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Clock } from '../shared/clock';
import type { SyntheticResult } from '../shared/monitor';
import { ConsoleCore } from '../electron/core/console-core';
import { Monitor } from '../electron/core/monitors/monitor';
import { checkMonitors } from '../electron/core/monitors/monitor-config';
import type { Profile } from '../electron/core/profiles';
import { coreSuiteExchange, type SuiteExchange } from '../electron/core/suites/suite-exchange';
import { Suites } from '../electron/core/suites/suites';
import type { Figure } from './core';

export interface MonitorBenchOptions {
  /** Real seconds the key is kept busy. */
  seconds?: number;
  /** How fast the core's and the mock's clock runs against real time (1: the real clock). */
  speed?: number;
  /** Concurrent storyteller streams, each started again as soon as it ends. */
  streams?: number;
  /** The synthetic check's interval, in clock ms. */
  checkEveryMs?: number;
  /** Gives up (and says so) when the bench has not finished by then, real ms. */
  hardTimeoutMs?: number;
}

/**
 * A clock running `speed` times faster than real time, for the core and the mock alike. The rate
 * limit's window is 60 s: on the real clock a bench shorter than a minute never sees a slot freed,
 * so a busy key would only ever be a key spent. Faster, the window slides as it does for a user
 * who streams for minutes, while every exchange is still a real one over HTTPS.
 */
function scaledClock(speed: number): Clock {
  const origin = Date.now();
  return {
    now: () => origin + (Date.now() - origin) * speed,
    sleep: (ms, signal) =>
      new Promise<void>((resolve, reject) => {
        if (signal?.aborted) return reject(signal.reason as Error);
        const onAbort = (): void => {
          clearTimeout(timer);
          reject(signal?.reason as Error);
        };
        const timer = setTimeout(
          () => {
            signal?.removeEventListener('abort', onAbort);
            resolve();
          },
          Math.max(0, ms) / speed,
        );
        signal?.addEventListener('abort', onAbort, { once: true });
      }),
  };
}

function quantile(sorted: number[], q: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] as number;
}

/** Keeps a storyteller stream going on the key until `signal` aborts; counts the streams that ended. */
async function keepStreaming(core: ConsoleCore, profile: Profile, signal: AbortSignal): Promise<number> {
  let done = 0;
  while (!signal.aborted) {
    try {
      const { stream } = await core.chat.stream(
        { profile, agent: 'storyteller', message: 'Tell me a long story.', record: false },
        { signal },
      );
      for await (const _chunk of stream) {
        // Read to the end, as the playground does.
      }
      done++;
    } catch {
      if (!signal.aborted) await core.clock.sleep(100).catch(() => undefined);
    }
  }
  return done;
}

/** Two monitors whose checks are told apart by their messages in the request log. */
function benchMonitorConfigs(profiles: Profile[], checkEveryMs: number) {
  return checkMonitors(
    profiles.map((p, i) => ({
      name: `Bench ${i + 1}`,
      profile: p.name,
      synthetic: {
        every: '1m',
        agents: ['echo'],
        message: `monitor bench check ${i + 1}`,
        assert: [{ completes: true }],
      },
      notify: { desktop: false, muted: true },
    })),
  ).map((config) => ({
    ...config,
    // The app's floor is 1 minute; a bench of well under a minute needs many more checks than that.
    synthetic: { ...(config.synthetic as NonNullable<typeof config.synthetic>), every: checkEveryMs },
    health: { every: 10_000 },
  }));
}

/** The core's exchanges, noting when each check asked for the key and whether it has got it yet. */
function watchedExchange(core: ConsoleCore, waiting: Set<{ since: number }>): SuiteExchange {
  const exchange = coreSuiteExchange(core);
  return {
    ...exchange,
    async stream(profile, input, options) {
      const call = { since: core.clock.now() };
      waiting.add(call);
      try {
        return await exchange.stream(profile, input, options);
      } finally {
        waiting.delete(call);
      }
    },
  };
}

/** Pairs each check (in due order) with its request (in start order) by the monitor's message. */
function latenessOf(core: ConsoleCore, results: SyntheticResult[][], messages: string[]): number[] {
  const chats = core.requestLog.list().filter((e) => e.method === 'POST' && e.url.endsWith('/chat'));
  return messages.flatMap((message, i) => {
    const sent = chats
      .filter((e) => e.requestBody?.includes(message))
      .map((e) => e.startedAt)
      .sort((a, b) => a - b);
    const due = (results[i] ?? []).map((r) => r.at).sort((a, b) => a - b);
    let next = 0;
    const late: number[] = [];
    for (const at of due) {
      while (next < sent.length && (sent[next] as number) < at) next++;
      if (next >= sent.length) break;
      late.push((sent[next] as number) - at);
      next++;
    }
    return late;
  });
}

async function measure(options: Required<MonitorBenchOptions>): Promise<Figure[]> {
  const { seconds, speed, streams, checkEveryMs } = options;
  const dataDir = mkdtempSync(join(tmpdir(), 'agent-console-bench-monitors-'));
  const clock = scaledClock(speed);
  const core = await ConsoleCore.open({
    dataDir,
    clock,
    embeddedMock: 'in-process',
    keychainService: `agent-console-bench-${process.pid}`,
  });
  const monitors: Monitor[] = [];
  const stopStreams = new AbortController();
  try {
    const first = core.profile();
    // A second profile on the same service with the same key: the monitors share one limiter.
    const second = core.profiles.add({
      name: 'Same key',
      baseUrl: first.baseUrl,
      keyId: first.keyId,
      ...(first.caCertPath ? { caCertPath: first.caCertPath } : {}),
    });
    const waiting = new Set<{ since: number }>();
    const host = {
      clock,
      client: (profile: Profile) => core.client(profile),
      // The core's suites, over exchanges that note when each check asked for the key.
      suites: new Suites({
        dataDir,
        exchange: watchedExchange(core, waiting),
        profile: (ref?: string) => core.profile(ref),
        appLog: core.appLog,
      }),
    };
    const results: SyntheticResult[][] = [[], []];
    const configs = benchMonitorConfigs([first, second], checkEveryMs);
    configs.forEach((config, i) => {
      const monitor = new Monitor(config, i === 0 ? first : second, host, undefined);
      monitor.subscribe((event) => {
        if (event.kind === 'synthetic') results[i]?.push(...event.results);
      });
      monitors.push(monitor);
    });

    const started = clock.now();
    const streaming = Array.from({ length: streams }, () => keepStreaming(core, first, stopStreams.signal));
    for (const monitor of monitors) monitor.start();
    await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
    const ended = clock.now();
    // A check still queued for the key at the end is not in the figures: say how long it had waited.
    const stillWaiting = [...waiting].map((call) => ended - call.since);
    await Promise.all(monitors.map((m) => m.stop()));
    stopStreams.abort();
    const streamed = (await Promise.all(streaming)).reduce((a, b) => a + b, 0);
    const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

    const lateMs = latenessOf(core, results, ['monitor bench check 1', 'monitor bench check 2']).sort(
      (a, b) => a - b,
    );
    const ran = results.flat();
    // The client's log holds 1,000 requests, the mock's 500: far more than this bench sends.
    const sent = core.requestLog.list();
    const refused = sent.filter((e) => e.status === 429).length;
    const simulated = (ended - started) / 1000;
    const clockNote =
      speed === 1
        ? 'real clock'
        : `clock ×${speed} (${simulated.toFixed(0)} s of service time in ${seconds} s)`;
    return [
      {
        figure: 'monitor check lateness, busy key',
        value:
          `p50 ${s(quantile(lateMs, 0.5))}, p95 ${s(quantile(lateMs, 0.95))}, ` +
          `max ${s(quantile(lateMs, 1))}`,
        note:
          `${ran.length} checks ran (${ran.filter((r) => r.passed).length} passed, ${lateMs.length} found in the request log)` +
          (stillWaiting.length > 0
            ? `, ${stillWaiting.length} still waiting at the end (${stillWaiting.map(s).join(', ')})`
            : '') +
          '; ' +
          `2 monitors every ${checkEveryMs / 1000} s + health polls, ${streams} storyteller streams ` +
          `(${streamed} done), one tier-60 key; ${clockNote}`,
      },
      {
        figure: 'monitor check lateness, 429s',
        value: `${refused}`,
        note: `of ${sent.length} requests on the shared key (goal 0)`,
      },
    ];
  } finally {
    stopStreams.abort();
    await Promise.all(monitors.map((m) => m.stop()));
    for (const key of core.vault.list()) await core.vault.remove(key.id).catch(() => undefined);
    await core.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

export async function monitorLatenessFigures(options: MonitorBenchOptions = {}): Promise<Figure[]> {
  const full: Required<MonitorBenchOptions> = {
    seconds: options.seconds ?? 45,
    speed: options.speed ?? 3,
    streams: options.streams ?? 4,
    checkEveryMs: options.checkEveryMs ?? 3_000,
    hardTimeoutMs: options.hardTimeoutMs ?? 60_000,
  };
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`The monitor bench did not finish within ${full.hardTimeoutMs / 1000} s.`)),
      full.hardTimeoutMs,
    );
    timer.unref();
  });
  try {
    return await Promise.race([measure(full), timeout]);
  } finally {
    clearTimeout(timer);
  }
}
