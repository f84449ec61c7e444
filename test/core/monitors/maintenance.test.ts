// Maintenance windows: when they fall (repeating on a zone's wall clock, or one range), and what
// they do on the real mock with the core on a manual clock — the checks go on, the status reads
// Maintenance, nobody is told and no incident opens, the time counts neither up nor down; after
// the window a service still down is told, and opens its incident.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ManualClock } from '../../../shared/clock';
import { MaintenanceWindows } from '../../../electron/core/monitors/maintenance';
import type { Monitor } from '../../../electron/core/monitors/monitor';
import { watchService, type WatchedService } from '../../support/watched-service';

const at = (iso: string) => Date.parse(iso);

describe('when a window falls', () => {
  test('"sun 02:00" for 1h, in UTC unless tz names a zone', () => {
    const utc = new MaintenanceWindows([{ every: 'sun 02:00', for: 3_600_000 }]);
    // 2026-11-29 is a Sunday.
    expect(utc.active(at('2026-11-29T01:59:59Z'))).toBeUndefined();
    expect(utc.active(at('2026-11-29T02:00:00Z'))).toEqual({
      from: at('2026-11-29T02:00:00Z'),
      to: at('2026-11-29T03:00:00Z'),
    });
    expect(utc.active(at('2026-11-29T02:59:30Z'))?.to).toBe(at('2026-11-29T03:00:00Z'));
    expect(utc.active(at('2026-11-29T03:00:00Z'))).toBeUndefined();
    expect(utc.next(at('2026-11-29T03:00:00Z'))?.from).toBe(at('2026-12-06T02:00:00Z'));

    // Berlin is UTC+1 in winter: 02:00 there is 01:00 UTC.
    const berlin = new MaintenanceWindows([
      { every: 'sun 02:00', for: 3_600_000, tz: 'Europe/Berlin', name: 'Deploys' },
    ]);
    expect(berlin.active(at('2026-11-29T01:30:00Z'))).toEqual({
      from: at('2026-11-29T01:00:00Z'),
      to: at('2026-11-29T02:00:00Z'),
      name: 'Deploys',
    });
    expect(berlin.active(at('2026-11-29T02:30:00Z'))).toBeUndefined();
  });

  test('daily, across midnight, and a one-off range', () => {
    const daily = new MaintenanceWindows([{ every: 'daily 23:30', for: 3_600_000 }]);
    expect(daily.active(at('2026-11-25T00:15:00Z'))?.to).toBe(at('2026-11-25T00:30:00Z'));
    expect(daily.next(at('2026-11-25T12:00:00Z'))?.from).toBe(at('2026-11-25T23:30:00Z'));
    const once = new MaintenanceWindows([{ from: '2026-12-01T22:00:00Z', to: '2026-12-02T01:00:00Z' }]);
    expect(once.active(at('2026-12-02T00:00:00Z'))).toEqual({
      from: at('2026-12-01T22:00:00Z'),
      to: at('2026-12-02T01:00:00Z'),
    });
    expect(once.next(at('2026-11-30T00:00:00Z'))?.from).toBe(at('2026-12-01T22:00:00Z'));
    expect(once.next(at('2026-12-03T00:00:00Z'))).toBeUndefined();
  });
});

describe('on the real mock', () => {
  let watched: WatchedService;
  let monitor: Monitor;

  beforeAll(async () => {
    watched = await watchService('Production', { clock: new ManualClock(at('2026-11-29T01:50:00Z')) });
    const view = await watched.core.monitors.add({
      name: 'Production',
      profile: 'Production',
      health: { every: '24h' },
      maintenance: [{ every: 'sun 02:00', for: '1h', name: 'Sunday deploys' }],
      notify: { webhooks: [{ id: 'team', url: `${watched.receiverUrl}/team` }] },
    });
    monitor = watched.core.monitors.get(view.id) as Monitor;
  }, 30_000);

  afterAll(() => watched.close());

  test('the checks go on, nobody is told, no incident opens, the time is left out of uptime; after it, an outage is told', async () => {
    await monitor.health.checkNow();
    expect(monitor.currentStatus()).toBe('healthy');

    await watched.clock.advance(15 * 60_000); // 02:05, in the window
    watched.mock.server.control.setHealth({ api: 'down' });
    await monitor.health.checkNow();
    await monitor.health.checkNow();
    // The poll saw it: the health poll's own status is unhealthy, the monitor's is Maintenance.
    expect(monitor.health.state().confirmed).toBe('unhealthy');
    expect(monitor.currentStatus()).toBe('maintenance');
    const row = watched.core.monitors.list()[0];
    expect(row?.maintenance?.active).toEqual({
      from: at('2026-11-29T02:00:00Z'),
      to: at('2026-11-29T03:00:00Z'),
      name: 'Sunday deploys',
    });
    expect(watched.notifications.filter((n) => n.desktop)).toEqual([]);
    expect(watched.core.monitors.incidents.log.list()).toEqual([]);
    // Only the healthy poll before the window counts.
    expect(row?.uptime['24h']).toBe(100);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(watched.received).toEqual([]);

    await watched.clock.advance(60 * 60_000); // 03:05, the window is over, the api still down
    await monitor.health.checkNow();
    expect(monitor.currentStatus()).toBe('unhealthy');
    await expect.poll(() => watched.received.map((r) => r.body.status)).toEqual(['unhealthy']);
    expect(watched.core.monitors.incidents.log.openFor(monitor.id)?.status).toBe('unhealthy');
    // Up 01:50–02:05, then the window left out, then down 03:05–03:15: 15 of 25 minutes.
    await watched.clock.advance(10 * 60_000);
    await monitor.health.checkNow();
    expect(watched.core.monitors.list()[0]?.uptime['24h']).toBe(60);
    watched.mock.server.control.setHealth({ api: 'operational' });
  });
});
