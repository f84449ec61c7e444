// What the health tests share: cleanups after each test, a report and a target that answers at
// once, monitors, clients and mocks on a test's clock that are stopped after it.
import type { ManualClock } from '../../shared/clock';
import type { HealthReport } from '../../shared/api';
import { ApiClient } from '../../electron/core/api-client';
import {
  HealthMonitor,
  type HealthMonitorOptions,
  type HealthTarget,
} from '../../electron/core/health-monitor';
import { RateLimiter } from '../../electron/core/rate-limiter';
import { mockConnection, removeDir, startTestMock, tempDir, type TestMock } from '../support/mock';

export const MINUTE = 60_000;
export const DAY = 24 * 60 * MINUTE;
export const realPause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const cleanups: (() => Promise<void> | void)[] = [];

/** For each test file's afterEach: stops and removes what the helpers below started, newest first. */
export async function runCleanups(): Promise<void> {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
}

export function report(clock: { now(): number }, patch: Partial<HealthReport> = {}): HealthReport {
  return {
    status: 'healthy',
    timestamp: new Date(clock.now()).toISOString(),
    components: { api: 'operational', vps: 'operational', agents: 'operational', gateway: 'operational' },
    uptime_seconds: Math.floor(clock.now() / 1000) - 1_700_000_000,
    version: '1.0.0',
    ...patch,
  };
}

/** A target answering at once, as a service that is always up (for schedule and bound tests). */
export function stubTarget(clock: { now(): number }, answer: () => HealthReport = () => report(clock)) {
  const target = {
    calls: 0,
    profileId: 'p1',
    profileName: 'Stub',
    health: async () => {
      target.calls++;
      return answer();
    },
  };
  return target;
}

export function monitor(
  options: Partial<HealthMonitorOptions> & Pick<HealthMonitorOptions, 'clock' | 'target'>,
) {
  const m = new HealthMonitor(options);
  cleanups.push(() => m.stop());
  return m;
}

export function dir(): string {
  const d = tempDir('agent-console-health-');
  cleanups.push(() => removeDir(d));
  return d;
}

export async function startMock(clock: ManualClock): Promise<TestMock> {
  const mock = await startTestMock({ clock });
  cleanups.push(() => mock.stop());
  return mock;
}

export function clientFor(
  mock: TestMock,
  clock: ManualClock,
  key: string,
  limiter = new RateLimiter({ clock }),
) {
  const client = new ApiClient({
    profileId: 'p1',
    ...mockConnection(mock.server, key),
    limiter,
    clock,
    random: () => 0.5,
    // No silent retries with backoff on the manual clock: each check is one request.
    retries: { after5xx: 0, after429: 20 },
  });
  cleanups.push(() => client.close());
  return client;
}

export function targetOf(client: ApiClient, profileId = 'p1'): HealthTarget {
  return { profileId, profileName: 'Mock', health: (options) => client.health(options) };
}
