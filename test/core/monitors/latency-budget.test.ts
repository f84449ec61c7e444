// Latency budgets on the real mock: agents that answer, but slower than the monitor's TTFT
// budget, make it "Degraded (slow)" once that holds for two runs, told once with its own words
// and metric; back within budget, it is healthy again, told once.
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { Monitor } from '../../../electron/core/monitors/monitor';
import { monitorMetrics } from '../../../electron/core/monitors/monitor-metrics';
import { watchService, type WatchedService } from '../../support/watched-service';

let watched: WatchedService;
let monitor: Monitor;

beforeAll(async () => {
  watched = await watchService('Production');
  const view = await watched.core.monitors.add({
    name: 'Production',
    profile: 'Production',
    synthetic: { every: '1m', agents: ['echo'], message: 'ping', assert: [{ contains: 'ping' }] },
    budgets: { 'ttft-p95': '500ms', window: 2 },
    newChannels: [{ kind: 'webhook', url: `${watched.receiverUrl}/json`, format: 'json' }],
  });
  monitor = watched.core.monitors.get(view.id) as Monitor;
  await monitor.health.checkNow();
}, 30_000);

afterAll(() => watched.close());

/** One synthetic run a minute after the last, on the core's clock. */
async function run(): Promise<void> {
  await watched.clock.advance(60_000);
  await monitor.checkSyntheticNow();
}

test('a TTFT over budget for two runs makes the monitor Degraded (slow), told once; back within budget, healthy', async () => {
  await run();
  expect(monitor.currentStatus()).toBe('healthy');

  watched.mock.server.control.setAgent('echo', { latencyMs: 1200 });
  await run();
  // One judgement over budget is not yet news.
  expect(monitor.currentStatus()).toBe('healthy');
  await run();
  expect(monitor.currentStatus()).toBe('slow');
  const slow = watched.notifications.filter((n) => n.to === 'slow');
  expect(slow).toHaveLength(1);
  expect(slow[0]).toMatchObject({ title: 'Degraded (slow)', from: 'healthy' });
  expect(slow[0]?.body).toMatch(/^Production: TTFT p95 \d\.\d s over its 500 ms budget \(last 2 runs\)/);
  expect(watched.core.monitors.list()[0]?.budgets).toEqual([
    expect.objectContaining({ name: 'ttft-p95', limitMs: 500, window: 2, over: true }),
  ]);

  const metrics = monitorMetrics(
    { monitors: watched.core.monitors, limiters: watched.core.limiters, vault: watched.core.vault },
    { defaultMetrics: false },
  );
  const text = await metrics.metrics();
  expect(text).toContain('agent_console_latency_budget_exceeded{monitor="Production",budget="ttft-p95"} 1');
  expect(text).toContain('agent_console_monitor_status{monitor="Production",status="slow"} 1');
  expect(text).toContain(
    'agent_console_latency_budget_limit_seconds{monitor="Production",budget="ttft-p95"} 0.5',
  );
  metrics.close();

  watched.mock.server.control.setAgent('echo', { latencyMs: 0 });
  await run();
  await run();
  // The slow run has left the window; the fast ones must hold twice.
  expect(monitor.currentStatus()).toBe('slow');
  await run();
  expect(monitor.currentStatus()).toBe('healthy');
  const back = watched.notifications.filter((n) => n.from === 'slow');
  expect(back).toEqual([expect.objectContaining({ to: 'healthy', title: 'Within latency budgets again' })]);
  await expect.poll(() => watched.received.map((r) => r.body.status)).toEqual(['slow', 'healthy']);
}, 30_000);
