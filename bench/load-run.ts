// The load run: four profiles on keys of every tier, ten concurrent streams spread over
// them, and the health poller on the tightest key, for a bounded time, all through ConsoleCore
// against the in-process mock. Shared by the Vitest load suite (short) and `npm run bench` (longer).
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runInNewContext } from 'node:vm';
import { setFlagsFromString } from 'node:v8';
import { ConsoleCore } from '../electron/core/console-core';
import type { Profile } from '../electron/core/profiles';
import type { MockRequest } from '../shared/bridge/mock';

export const LOAD_TIERS = [30, 60, 120, 300] as const;
const WINDOW_MS = 60_000;
const STREAMS = 10;

export interface KeyFigures {
  tier: number;
  /** Requests of this key the mock saw (health polls included). */
  sent: number;
  maxInWindow: number;
  status429: number;
  streamsDone: number;
  streamsFailed: number;
}

export interface LoadFigures {
  seconds: number;
  keys: KeyFigures[];
  healthPolls: number;
  heapAfterWarmupMb: number;
  heapAtEndMb: number;
  /** What the app keeps per request: its bounded structures' sizes at the end. */
  retained: { mockRequestLog: number; coreRequestLog: number; limiterQueued: number };
}

/** The most timestamps inside any sliding 60 s. */
export function maxInAnyWindow(times: number[]): number {
  const sorted = [...times].sort((a, b) => a - b);
  let max = 0;
  for (let i = 0, j = 0; i < sorted.length; i++) {
    while ((sorted[i] as number) - (sorted[j] as number) >= WINDOW_MS) j++;
    max = Math.max(max, i - j + 1);
  }
  return max;
}

/** A full GC when the runtime allows one (exposed on demand; never fatal if it is not). */
function collect(): () => void {
  const own = (globalThis as { gc?: () => void }).gc;
  if (own) return own;
  try {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as (() => void) | undefined;
    if (typeof gc === 'function') return gc;
  } catch {
    // fall through
  }
  return () => undefined;
}

const mb = (bytes: number): number => Math.round((bytes / 1024 / 1024) * 10) / 10;
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function runLoad(options: { seconds: number; warmupSeconds?: number }): Promise<LoadFigures> {
  const gc = collect();
  const dataDir = mkdtempSync(join(tmpdir(), 'agent-console-load-'));
  const core = await ConsoleCore.open({
    dataDir,
    embeddedMock: 'in-process',
    keychainService: `agent-console-load-${randomBytes(4).toString('hex')}`,
  });
  const mock = core.mock;
  if (!mock) throw new Error('The embedded mock did not start.');
  // Every request the mock answers, not only the last 500 its ring keeps.
  const seen: MockRequest[] = [];
  const record = mock.control.recordRequest.bind(mock.control);
  mock.control.recordRequest = (entry) => {
    seen.push(entry);
    record(entry);
  };
  // Quick agents, so the keys' limits (not the agents) are what holds the streams back.
  mock.control.setAgent('echo', { latencyMs: 0, chunkDelayMs: 2 });
  mock.control.setAgent('storyteller', { latencyMs: 0, chunkDelayMs: 2, chunkCount: 20 });

  const profiles: { tier: number; profile: Profile; masked: string; done: number; failed: number }[] = [];
  for (const tier of LOAD_TIERS) {
    const created = mock.control.createKey({ name: `load-${tier}`, tier });
    const key = await core.vault.add({
      name: `load-${tier}`,
      secret: created.secret,
      sessionOnly: true,
      origins: [new URL(mock.baseUrl).origin],
    });
    const profile = core.profiles.add({
      name: `Load ${tier}`,
      baseUrl: mock.baseUrl,
      keyId: key.id,
      caCertPath: mock.caCertPath,
    });
    profiles.push({ tier, profile, masked: created.masked, done: 0, failed: 0 });
  }
  // The poller follows the active profile: the tightest key, so polls compete with its streams.
  core.profiles.use((profiles[0] as (typeof profiles)[number]).profile.id);
  core.health.setIntervalMs(10_000);
  core.health.start();

  let stop = false;
  const quit = new AbortController();
  const streams = Array.from({ length: STREAMS }, async (_, i) => {
    const target = profiles[i % profiles.length] as (typeof profiles)[number];
    const client = core.client(target.profile);
    let n = 0;
    while (!stop) {
      try {
        const stream = await client.chatStream(
          { message: `load ${i}.${n++}`, agent: i % 2 === 0 ? 'echo' : 'storyteller' },
          { signal: quit.signal },
        );
        for await (const _chunk of stream) {
          // drain
        }
        if (stream.status === 'done') target.done++;
        else if (!stop) target.failed++;
      } catch {
        if (!stop) target.failed++;
        await pause(100);
      }
    }
  });

  const warmupMs = (options.warmupSeconds ?? Math.min(5, options.seconds / 4)) * 1000;
  await pause(warmupMs);
  gc();
  const heapAfterWarmup = process.memoryUsage().heapUsed;
  await pause(options.seconds * 1000 - warmupMs);
  stop = true;
  // Streams still queued behind a limit are cancelled; those in flight finish.
  quit.abort();
  await core.health.stop();
  await Promise.allSettled(streams);
  gc();
  const heapAtEnd = process.memoryUsage().heapUsed;

  const api = seen.filter((r) => r.path.startsWith('/api/v1/'));
  const keys = profiles.map((p) => {
    const mine = api.filter((r) => r.key === p.masked);
    return {
      tier: p.tier,
      sent: mine.length,
      maxInWindow: maxInAnyWindow(mine.filter((r) => r.status !== 429).map((r) => r.at)),
      status429: mine.filter((r) => r.status === 429).length,
      streamsDone: p.done,
      streamsFailed: p.failed,
    };
  });
  const figures: LoadFigures = {
    seconds: options.seconds,
    keys,
    healthPolls: api.filter((r) => r.path === '/api/v1/health').length,
    heapAfterWarmupMb: mb(heapAfterWarmup),
    heapAtEndMb: mb(heapAtEnd),
    retained: {
      mockRequestLog: mock.control.requests().length,
      coreRequestLog: core.requestLog.list().length,
      limiterQueued: profiles.reduce(
        (n, p) => n + core.limiters.for(core.vault.get(p.profile.keyId)?.id ?? '').state().queued,
        0,
      ),
    },
  };
  await core.close();
  rmSync(dataDir, { recursive: true, force: true });
  return figures;
}
