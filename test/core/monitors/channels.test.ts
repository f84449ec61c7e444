// Teams, Discord and PagerDuty on the real mock with a local receiver, as their services document
// them: an outage reaches Teams as an Adaptive Card and Discord as an embed; PagerDuty gets one
// alert for the incident — triggered when it opens, acknowledged when a person acknowledges it in
// the app, resolved on recovery — every event with the same dedup key. The Teams URL and the
// routing key come from the environment, the Discord URL from the keychain (the app's form).
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { Monitor } from '../../../electron/core/monitors/monitor';
import { until } from '../../support/until';
import { watchProduction, watchService, type WatchedService } from '../../support/watched-service';

let watched: WatchedService;
let monitor: Monitor;
const ROUTING_KEY = 'R0uT1nG-k3y-0f-th3-t3st-5erv1ce0';

beforeAll(async () => {
  watched = await watchService('Production');
  process.env.TEST_TEAMS_URL = `${watched.receiverUrl}/teams`;
  process.env.TEST_PAGERDUTY_KEY = ROUTING_KEY;
  monitor = await watchProduction(
    watched,
    {
      webhooks: [
        { kind: 'teams', url: { env: 'TEST_TEAMS_URL' } },
        {
          kind: 'pagerduty',
          routingKey: { env: 'TEST_PAGERDUTY_KEY' },
          endpoint: `${watched.receiverUrl}/v2/enqueue`,
        },
      ],
    },
    [{ kind: 'discord', url: `${watched.receiverUrl}/discord` }],
  );
  watched.core.monitors.start();
  await until('the first poll', () => (monitor.currentStatus() === 'healthy' ? true : undefined));
}, 30_000);

afterAll(async () => {
  delete process.env.TEST_TEAMS_URL;
  delete process.env.TEST_PAGERDUTY_KEY;
  await watched.close();
});

const to = (path: string) => watched.received.filter((r) => r.path === path).map((r) => r.body);

async function confirm(status: 'down' | 'operational'): Promise<void> {
  watched.mock.server.control.setHealth({ api: status });
  await monitor.health.checkNow();
  await monitor.health.checkNow();
}

test('an incident reaches Teams and Discord in their shapes, and is one PagerDuty alert from trigger to resolve', async () => {
  await confirm('down');
  const incident = watched.core.monitors.incidents.log.openFor(monitor.id);
  expect(incident).toBeDefined();
  await expect.poll(() => watched.received.length).toBe(3);
  const told = watched.notifications.at(-1);
  expect(told?.title).toBe('Service unhealthy');

  // Teams: a message carrying one Adaptive Card.
  const [teams] = to('/teams');
  expect(teams).toEqual({
    type: 'message',
    attachments: [
      {
        contentType: 'application/vnd.microsoft.card.adaptive',
        contentUrl: null,
        content: expect.objectContaining({ type: 'AdaptiveCard', version: '1.4' }) as unknown,
      },
    ],
  });
  const card = (teams?.attachments as { content: { body: Record<string, unknown>[] } }[])[0]?.content;
  expect(card?.body[0]).toMatchObject({
    type: 'TextBlock',
    text: 'Service unhealthy',
    color: 'Attention',
  });
  expect(card?.body[1]).toMatchObject({
    type: 'TextBlock',
    text: expect.stringMatching(/^Production: /) as unknown,
  });
  expect(card?.body[2]).toMatchObject({
    type: 'FactSet',
    facts: expect.arrayContaining([
      { title: 'Status', value: 'Unhealthy' },
      { title: 'Incident', value: incident?.id },
    ]) as unknown,
  });

  // Discord: content and one embed, mentions off.
  const [discord] = to('/discord');
  expect(discord).toMatchObject({
    content: 'Service unhealthy: Production',
    embeds: [
      {
        title: 'Service unhealthy',
        description: expect.stringMatching(/^Production: /) as unknown,
        color: 0xd93025,
        footer: { text: 'Agent Console' },
      },
    ],
    allowed_mentions: { parse: [] },
  });

  // PagerDuty: a trigger with the incident's dedup key and what its alert shows.
  const dedup = `agent-console-${incident?.id}`;
  expect(to('/v2/enqueue')).toEqual([
    {
      routing_key: ROUTING_KEY,
      event_action: 'trigger',
      dedup_key: dedup,
      payload: expect.objectContaining({
        summary: expect.stringMatching(/^Service unhealthy: Production: /) as unknown,
        source: new URL(watched.mock.server.baseUrl).host,
        severity: 'critical',
        component: 'Production',
      }) as unknown,
      client: 'Agent Console',
    },
  ]);

  // A person acknowledges it in the app: PagerDuty's alert is acknowledged, the chats are not told.
  watched.core.monitors.incidents.acknowledge(incident?.id as string, 'Dana');
  await expect.poll(() => to('/v2/enqueue').length).toBe(2);
  expect(to('/v2/enqueue')[1]).toEqual({
    routing_key: ROUTING_KEY,
    event_action: 'acknowledge',
    dedup_key: dedup,
  });

  // Recovery resolves the incident, and with it the alert; the chats hear it is healthy.
  await confirm('operational');
  await expect.poll(() => to('/v2/enqueue').length).toBe(3);
  expect(to('/v2/enqueue')[2]).toEqual({
    routing_key: ROUTING_KEY,
    event_action: 'resolve',
    dedup_key: dedup,
  });
  await expect.poll(() => to('/discord').length).toBe(2);
  expect(to('/discord')[1]).toMatchObject({
    embeds: [{ title: 'Service healthy again', color: 0x1e8e3e }],
  });
  expect(to('/teams')).toHaveLength(2);
  expect(new Set(to('/v2/enqueue').map((e) => e.dedup_key))).toEqual(new Set([dedup]));
});

test('an incident a person resolves by hand resolves its PagerDuty alert too', async () => {
  const before = to('/v2/enqueue').length;
  await confirm('down');
  const incident = watched.core.monitors.incidents.log.openFor(monitor.id);
  await expect.poll(() => to('/v2/enqueue').length).toBe(before + 1);
  watched.core.monitors.incidents.resolve(incident?.id as string, 'Sam');
  await expect.poll(() => to('/v2/enqueue').length).toBe(before + 2);
  expect(to('/v2/enqueue').slice(before)).toEqual([
    expect.objectContaining({ event_action: 'trigger', dedup_key: `agent-console-${incident?.id}` }),
    { routing_key: ROUTING_KEY, event_action: 'resolve', dedup_key: `agent-console-${incident?.id}` },
  ]);
  await confirm('operational');
});

test('the test button reaches every channel, and PagerDuty’s test alert is resolved at once', async () => {
  const before = watched.received.length;
  const result = await watched.core.monitors.sendTest(monitor.id);
  expect(result).toEqual({ desktop: true, webhooks: 3, failures: [] });
  const events = watched.received.slice(before).filter((r) => r.path === '/v2/enqueue');
  expect(
    events.map((e) => [e.body.event_action, (e.body.payload as { severity?: string })?.severity]),
  ).toEqual([
    ['trigger', 'info'],
    ['resolve', undefined],
  ]);
  expect(events[0]?.body.dedup_key).toBe(events[1]?.body.dedup_key);
  // The Overview shows each channel by kind and host, never a secret.
  expect(watched.core.monitors.list()[0]?.settings.webhooks).toEqual([
    { id: '0', kind: 'teams', target: '$TEST_TEAMS_URL' },
    {
      id: '1',
      kind: 'pagerduty',
      target: `${new URL(watched.receiverUrl).origin}/… (routing key $TEST_PAGERDUTY_KEY)`,
    },
    { id: expect.any(String) as unknown, kind: 'discord', target: 'kept in the keychain' },
  ]);
});
