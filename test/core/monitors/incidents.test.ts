// Incidents on the real mock, the core on a manual clock and a local webhook receiver: an outage
// opens an incident, it is told again every `escalate.after` to the channels named until someone
// acknowledges it, the acknowledgement and updates are on the disk when the call returns, and the
// recovery resolves it.
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { Monitor } from '../../../electron/core/monitors/monitor';
import { IncidentLog } from '../../../electron/core/monitors/incident-log';
import { until } from '../../support/until';
import { watchService, type WatchedService } from '../../support/watched-service';

const MINUTE = 60_000;
let watched: WatchedService;
let monitor: Monitor;

beforeAll(async () => {
  watched = await watchService('Production');
  const view = await watched.core.monitors.add({
    name: 'Production',
    profile: 'Production',
    // Polled by the test, not the schedule.
    health: { every: '24h' },
    notify: {
      webhooks: [
        { id: 'team', url: `${watched.receiverUrl}/team` },
        { id: 'oncall', url: `${watched.receiverUrl}/oncall` },
      ],
      escalate: { after: '15m', to: ['oncall'] },
    },
  });
  monitor = watched.core.monitors.get(view.id) as Monitor;
  watched.core.monitors.start();
  await until('the first poll', () => (monitor.currentStatus() === 'healthy' ? true : undefined));
}, 30_000);

afterAll(() => watched.close());

const to = (path: string) => watched.received.filter((r) => r.path === path).map((r) => r.body);

test('an outage opens an incident, re-notifies until acknowledged, and resolves on recovery', async () => {
  watched.mock.server.control.setHealth({ api: 'down' });
  await monitor.health.checkNow();
  await monitor.health.checkNow();
  expect(monitor.currentStatus()).toBe('unhealthy');

  const [incident] = watched.core.monitors.incidents.log.list({ open: true });
  expect(incident).toMatchObject({
    monitorId: monitor.id,
    monitorName: 'Production',
    status: 'unhealthy',
    startedAt: watched.clock.now(),
    checks: ['health poll: unhealthy'],
    escalations: 0,
  });
  expect(incident?.firstFailure).toMatch(/^Production: /);
  expect(watched.core.monitors.list()[0]?.incident?.id).toBe(incident?.id);
  const id = incident?.id as string;
  // Told once to every channel, the incident named.
  await expect.poll(() => watched.received.length).toBe(2);
  expect(to('/team')).toEqual([expect.objectContaining({ status: 'unhealthy', incident: { id } })]);

  // Nobody acknowledges: after 15 minutes it is told again, to on-call only, and again 15 later.
  await watched.clock.advance(14 * MINUTE);
  expect(to('/oncall')).toHaveLength(1);
  await watched.clock.advance(1 * MINUTE);
  await expect.poll(() => to('/oncall').length).toBe(2);
  expect(to('/oncall')[1]).toMatchObject({
    status: 'unhealthy',
    previous: 'unhealthy',
    title: 'Not acknowledged: Unhealthy',
    incident: { id, escalation: 1 },
  });
  expect(to('/oncall')[1]?.body).toMatch(
    /^Production: unhealthy for 15 min and nobody has acknowledged it\./,
  );
  await watched.clock.advance(15 * MINUTE);
  await expect.poll(() => to('/oncall').length).toBe(3);
  expect(to('/team')).toHaveLength(1);

  // Acknowledged: on the disk when the call returns (a fresh reader of the file sees it), and quiet.
  const acked = watched.core.monitors.incidents.acknowledge(id, 'Dana');
  expect(acked.acknowledged).toEqual({ by: 'Dana', at: watched.clock.now() });
  watched.core.monitors.incidents.addUpdate(id, 'Restarting the api pods.', 'Dana');
  const file = join(watched.dataDir, 'monitors', 'incidents.jsonl');
  expect(new IncidentLog(file).get(id)).toMatchObject({
    acknowledged: { by: 'Dana' },
    updates: [{ by: 'Dana', text: 'Restarting the api pods.' }],
    escalations: 2,
  });
  await watched.clock.advance(45 * MINUTE);
  await new Promise((resolve) => setTimeout(resolve, 200));
  expect(to('/oncall')).toHaveLength(3);

  // The service recovers: the incident is resolved by the monitor, and the recovery names it.
  watched.mock.server.control.setHealth({ api: 'operational' });
  await monitor.health.checkNow();
  await monitor.health.checkNow();
  expect(monitor.currentStatus()).toBe('healthy');
  expect(watched.core.monitors.incidents.log.get(id).resolved).toEqual({
    at: watched.clock.now(),
    by: 'monitor',
  });
  expect(watched.core.monitors.list()[0]?.incident).toBeUndefined();
  await expect.poll(() => to('/team').map((b) => b.status)).toEqual(['unhealthy', 'healthy']);
  expect(to('/team')[1]).toMatchObject({ incident: { id } });
});

test('a person acts under the name set in settings, else the OS user name', async () => {
  watched.mock.server.control.setHealth({ api: 'down' });
  await monitor.health.checkNow();
  await monitor.health.checkNow();
  const incidents = watched.core.monitors.incidents;
  const open = incidents.log.openFor(monitor.id);
  expect(incidents.acknowledge(open?.id as string).acknowledged?.by).toBe(
    (await import('node:os')).userInfo().username,
  );
  watched.core.settings.update((draft) => {
    draft.incidentName = 'Sam (SRE)';
  });
  expect(incidents.addUpdate(open?.id as string, 'Looking.').updates.at(-1)?.by).toBe('Sam (SRE)');
  expect(() => incidents.addUpdate(open?.id as string, '   ')).toThrow('Write what is known');
  expect(incidents.resolve(open?.id as string).resolved?.by).toBe('Sam (SRE)');
  watched.mock.server.control.setHealth({ api: 'operational' });
});
