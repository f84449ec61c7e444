// The status page from the real monitors on the real mock (a manual clock): only the monitors
// marked public, each with 90 day cells coloured by the day's worst status and its availability in
// words, the open incident with the update a person posted, and the maintenance ahead — and
// nothing its users must not see: no base URL, key, agent, other monitor or error detail. Names
// and updates holding markup are text. Written into a folder as two files anyone can read.
import { readFileSync, statSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Monitor } from '../../../electron/core/monitors/monitor';
import { statusPage, type StatusPage } from '../../../electron/core/monitors/status-page';
import {
  publishStatusPage,
  statusPageText,
  writeStatusPage,
} from '../../../electron/core/monitors/status-page-files';
import { removeDir, tempDir } from '../../support/mock';
import { until } from '../../support/until';
import { addMockProfile, watchService, type WatchedService } from '../../support/watched-service';

const MINUTE = 60_000;
const DAY = 1440 * MINUTE;
const HOSTILE_NAME = 'Production <script>alert(1)</script>';
const HOSTILE_UPDATE = '<img src=x onerror=alert(2)> Restarting the api; back in 5 min.';
let watched: WatchedService;
let monitor: Monitor;
let page: StatusPage;
let html: string;
let json: string;

beforeAll(async () => {
  watched = await watchService('Production');
  await addMockProfile(watched.core, 'Staging', watched.mock);
  const view = await watched.core.monitors.add({
    name: HOSTILE_NAME,
    profile: 'Production',
    public: true,
    health: { every: '24h' },
    maintenance: [{ name: 'Database upgrade', from: '2026-11-03T02:00:00Z', to: '2026-11-03T04:00:00Z' }],
  });
  await watched.core.monitors.add({ name: 'Internal staging', profile: 'Staging', health: { every: '24h' } });
  monitor = watched.core.monitors.get(view.id) as Monitor;
  // 89 days before today, minute by minute: healthy, but for a 30-minute outage 10 days ago, a
  // degraded hour 20 days ago, a maintenance hour 5 days ago, and a day 30 days ago not checked.
  const today = watched.clock.now() - (watched.clock.now() % DAY);
  for (let d = 89; d >= 1; d--) {
    if (d === 30) continue;
    for (let m = 0; m < 1440; m++) {
      const s =
        d === 10 && m >= 600 && m < 630
          ? 'unhealthy'
          : d === 20 && m >= 60 && m < 120
            ? 'degraded'
            : d === 5 && m < 60
              ? 'maintenance'
              : 'healthy';
      monitor.minutes.record({ t: today - d * DAY + m * MINUTE, s, n: 1 });
    }
  }
  watched.core.monitors.start();
  await until('the first poll', () => (monitor.currentStatus() === 'healthy' ? true : undefined));
  watched.mock.server.control.setHealth({ api: 'down' });
  await monitor.health.checkNow();
  await monitor.health.checkNow();
  const [incident] = watched.core.monitors.incidents.log.list({ open: true });
  watched.core.monitors.incidents.addUpdate(incident?.id as string, HOSTILE_UPDATE, 'Ada');
  const text = await statusPageText(watched.core.monitors, watched.clock.now());
  html = text.html;
  json = text.json;
  page = JSON.parse(json) as StatusPage;
}, 60_000);

afterAll(() => watched.close());

describe('the status page of the monitors marked public', () => {
  test('each public monitor: its status now and 90 days, each coloured by its worst status', () => {
    expect(page.monitors.map((m) => m.name)).toEqual([HOSTILE_NAME]);
    expect(page).toMatchObject({ level: 'outage', words: 'Major outage' });
    const [shown] = page.monitors;
    expect(shown).toMatchObject({ level: 'outage', words: 'Major outage' });
    const days = shown?.days ?? [];
    expect(days).toHaveLength(90);
    const ago = (d: number) => days[89 - d];
    expect(ago(0)).toMatchObject({ date: '2026-11-02', level: 'outage' });
    expect(ago(1)).toEqual({ date: '2026-11-01', level: 'operational', availability: 100 });
    // 30 of 1440 minutes down: 97.916… %, cut to two decimals.
    expect(ago(10)).toEqual({ date: '2026-10-23', level: 'outage', availability: 97.91 });
    expect(ago(20)).toEqual({ date: '2026-10-13', level: 'degraded', availability: 100 });
    // The maintenance hour counts neither way; the day's worst is what the service was.
    expect(ago(5)).toEqual({ date: '2026-10-28', level: 'operational', availability: 100 });
    expect(ago(30)).toEqual({ date: '2026-10-03', level: 'no-data', availability: null });
    expect(ago(89)).toMatchObject({ level: 'operational' });
  });

  test('the open incident with the update a person posted, and the maintenance ahead', () => {
    expect(page.incidents).toEqual([
      {
        monitor: HOSTILE_NAME,
        level: 'outage',
        words: 'Major outage',
        startedAt: '2026-11-02T09:00:00.000Z',
        acknowledged: false,
        updates: [{ at: '2026-11-02T09:00:00.000Z', text: HOSTILE_UPDATE }],
      },
    ]);
    expect(page.maintenance).toEqual([
      {
        monitor: HOSTILE_NAME,
        name: 'Database upgrade',
        from: '2026-11-03T02:00:00.000Z',
        to: '2026-11-03T04:00:00.000Z',
        underWay: false,
      },
    ]);
  });

  test('names and words only: no base URL, host, key, other monitor, person or error detail', () => {
    const { baseUrl, keys } = watched.mock.server;
    const incident = watched.core.monitors.incidents.log.list({ open: true })[0];
    for (const [name, text] of [
      ['html', html],
      ['json', json],
    ] as const) {
      expect(text, name).not.toContain(baseUrl);
      expect(text, name).not.toContain(new URL(baseUrl).host);
      expect(text, name).not.toContain(keys.pro);
      expect(text, name).not.toContain('Internal staging');
      expect(text, name).not.toContain('Ada');
      expect(text, name).not.toContain(incident?.firstFailure);
      expect(text, name).not.toContain('health poll');
    }
  });

  test('a name and an update holding markup are text on the page', () => {
    expect(html).not.toMatch(/<script|<img/i);
    expect(html).toContain('Production &lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).toContain('&lt;img src=x onerror=alert(2)&gt; Restarting the api; back in 5 min.');
    const cells = html.match(/<li class="l-[a-z-]+" title="[^"]*" aria-label="[^"]*"><\/li>/g) ?? [];
    expect(cells).toHaveLength(90);
    expect(html).toContain('title="2026-10-23: 97.91% available, major outage"');
    expect(html).toContain('title="2026-10-03: no data"');
    // Nothing to fetch, nothing to run.
    expect(html).toContain(`default-src 'none'`);
    expect(html).not.toMatch(/\b(src|href)="(https?:)?\/\//);
  });

  test('written into a folder: index.html and status.json, readable by a web server', async () => {
    const dir = tempDir('agent-console-status-');
    try {
      const written = await writeStatusPage(dir, { html, json, monitors: 1 });
      expect(written.map((f) => f.slice(dir.length + 1))).toEqual(['index.html', 'status.json']);
      expect(readFileSync(written[0] as string, 'utf8')).toBe(html);
      expect(readFileSync(written[1] as string, 'utf8')).toBe(json);
      if (process.platform !== 'win32') expect(statSync(written[0] as string).mode & 0o777).toBe(0o644);
    } finally {
      removeDir(dir);
    }
  });
});

describe('"Publish status page…"', () => {
  test('a typed folder outside the home folder is refused in words; a cancelled dialog writes nothing', async () => {
    const home = tempDir('agent-console-status-home-');
    try {
      const outside = tempDir('agent-console-status-outside-');
      await expect(
        publishStatusPage(
          watched.core.monitors,
          outside,
          { kind: 'typed', homeDir: home },
          watched.clock.now(),
        ),
      ).rejects.toThrow(/is not: publish the status page to a folder there\.$/);
      removeDir(outside);
      const chooser = { kind: 'chooser' as const, choose: async () => undefined };
      await expect(
        publishStatusPage(watched.core.monitors, undefined, chooser, watched.clock.now()),
      ).resolves.toBe(null);
      const published = await publishStatusPage(
        watched.core.monitors,
        'site',
        { kind: 'typed', homeDir: home },
        watched.clock.now(),
      ).catch((error: Error) => error.message);
      expect(published).toMatch(/^There is no folder at .*site\.$/);
    } finally {
      removeDir(home);
    }
  });

  test('with no monitor on the page, it says how to put one there', async () => {
    const solo = await watchService('Solo');
    try {
      await solo.core.monitors.add({ name: 'Solo', profile: 'Solo', health: { every: '24h' } });
      await expect(
        publishStatusPage(
          solo.core.monitors,
          'x',
          { kind: 'typed', homeDir: solo.dataDir },
          solo.clock.now(),
        ),
      ).rejects.toThrow(
        'No monitor is on the status page: tick "On the status page" in a monitor’s form (or write public: true in the monitors file), then publish.',
      );
    } finally {
      await solo.close();
    }
  });
});

describe('what a monitor file may show besides', () => {
  const source = {
    status: 'synthetic-failing' as const,
    days: [],
    maintenance: {},
    failing: ['says pong on echo'],
    incidents: [
      {
        id: 'i1',
        monitorId: 'api',
        monitorName: 'API',
        status: 'synthetic-failing' as const,
        startedAt: Date.UTC(2026, 10, 2, 9),
        checks: ['says pong on echo'],
        firstFailure: 'API: says pong on echo: the reply lacks "pong".',
        updates: [
          { at: Date.UTC(2026, 10, 2, 9, 5), by: 'monitor', text: 'Now unhealthy: API: api down.' },
          { at: Date.UTC(2026, 10, 2, 9, 6), by: 'ada', text: 'Looking into it.' },
        ],
        escalations: 0,
      },
    ],
  };

  test('public: true — the words a user is told, not what failed nor the monitor’s own notes', () => {
    const shown = statusPage(
      [{ ...source, config: { name: 'API', public: true } }],
      Date.UTC(2026, 10, 2, 10),
    );
    expect(shown.monitors[0]).toMatchObject({ level: 'partial-outage', words: 'Partial outage' });
    expect(shown.monitors[0]).not.toHaveProperty('failing');
    expect(shown.incidents[0]?.updates.map((u) => u.text)).toEqual(['Looking into it.']);
    expect(shown.incidents[0]).not.toHaveProperty('firstFailure');
  });

  test('public: { show-errors: true } — what fails, the first failure and the monitor’s notes too', () => {
    const shown = statusPage(
      [{ ...source, config: { name: 'API', public: { 'show-errors': true } } }],
      Date.UTC(2026, 10, 2, 10),
    );
    expect(shown.monitors[0]?.failing).toEqual(['says pong on echo']);
    expect(shown.incidents[0]?.firstFailure).toBe('API: says pong on echo: the reply lacks "pong".');
    expect(shown.incidents[0]?.updates).toHaveLength(2);
  });

  test('no public monitor: a page that says so', () => {
    const shown = statusPage([{ ...source, config: { name: 'API' } }], Date.UTC(2026, 10, 2, 10));
    expect(shown).toMatchObject({
      monitors: [],
      incidents: [],
      words: 'Nothing is published on this page yet.',
    });
  });
});
