// The headless monitor's channels hold secrets read from the environment — a Teams and a Discord
// URL, a PagerDuty routing key, an SMTP password — and every one of them fails: the receivers
// answer 500 and the SMTP server refuses the login. None of the secrets shows in a line it writes,
// an error it gives, a metric it serves or a file of its data folder, and the chat channels'
// bodies carry none either (PagerDuty's carries its own routing key, as its API asks).
import { writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { freePort } from '../support/free-port';
import { removeDir, tempDir } from '../support/mock';
import { startSmtpReceiver, type SmtpReceiver } from '../support/smtp-receiver';
import { startMonitorProcess, type MonitorProcess } from './hostile-processes';
import { fileLeaks, leaks, until, type Secret } from './hostile-support';
import { plantKey } from './leak-check';

const token = () => plantKey('tok').slice(4);
const TEAMS = token();
const DISCORD = token();
const ROUTING_KEY = token();
const PASSWORD = `Pw-${token()}`;
const SECRETS: Secret[] = [
  { name: 'TEAMS_TOKEN', value: TEAMS },
  { name: 'DISCORD_TOKEN', value: DISCORD },
  { name: 'ROUTING_KEY', value: ROUTING_KEY },
  { name: 'SMTP_PASSWORD', value: PASSWORD },
];
let dir: string;
let receiver: Server;
let smtp: SmtpReceiver;
let monitor: MonitorProcess;
const posted: { path: string; body: string }[] = [];

beforeAll(async () => {
  dir = tempDir('agent-console-hostile-channels-');
  receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (d: Buffer) => (body += d.toString()));
    req.on('end', () => {
      posted.push({ path: req.url ?? '', body });
      res.writeHead(500).end('{"error":"no"}');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  // It expects another password: the login fails, and the failure is told.
  smtp = await startSmtpReceiver(dir, { user: 'monitor', password: 'another-password-entirely' });
  const monitors = [
    {
      name: 'Production',
      service: { baseUrl: `http://127.0.0.1:${await freePort()}` },
      health: { every: '10s' },
      notify: {
        webhooks: [
          { kind: 'teams', url: { env: 'TEAMS_WEBHOOK_URL' } },
          { kind: 'discord', url: { env: 'DISCORD_WEBHOOK_URL' } },
          {
            kind: 'pagerduty',
            routingKey: { env: 'PAGERDUTY_ROUTING_KEY' },
            endpoint: `${base}/v2/enqueue`,
          },
          {
            kind: 'email',
            host: '127.0.0.1',
            port: smtp.port,
            ca: smtp.caFile,
            user: 'monitor',
            password: { env: 'SMTP_PASSWORD' },
            from: 'monitor@example.com',
            to: ['oncall@example.com'],
          },
        ],
      },
    },
  ];
  writeFileSync(join(dir, 'monitors.yaml'), JSON.stringify({ monitors }, null, 2));
  monitor = await startMonitorProcess(join(dir, 'monitors.yaml'), join(dir, 'data'), plantKey('hc4'), {
    TEAMS_WEBHOOK_URL: `${base}/teams/${TEAMS}`,
    DISCORD_WEBHOOK_URL: `${base}/discord/${DISCORD}`,
    PAGERDUTY_ROUTING_KEY: ROUTING_KEY,
    SMTP_PASSWORD: PASSWORD,
  });
}, 60_000);

afterAll(async () => {
  await monitor?.stop();
  await smtp?.close();
  await new Promise((resolve) => (receiver ? receiver.close(resolve) : resolve(undefined)));
  if (dir) removeDir(dir);
});

test('no secret of a channel shows in its lines, its errors, its metrics or its files', async () => {
  const told = ['The Teams webhook', 'The Discord webhook', 'PagerDuty', 'The email via'];
  await until(
    `a failure of every channel on stderr (${monitor.stderr()})`,
    () => {
      if (monitor.ended()) throw new Error(`the monitor ended (${monitor.ended()}): ${monitor.stderr()}`);
      return told.every((words) => monitor.stderr().includes(words)) ? true : undefined;
    },
    45_000,
  );
  expect(monitor.stderr()).toMatch(/The email via 127\.0\.0\.1:\d+ was not sent \(EAUTH 535\)\./);
  const metrics = await (await fetch(`${monitor.metricsUrl}/metrics`)).text();
  expect(metrics).toContain('agent_console_monitor_status{monitor="Production"');
  const chats = posted.filter((p) => !p.path.startsWith('/v2/'));
  expect(chats.length).toBeGreaterThanOrEqual(6);
  expect([
    ...leaks('stdout', monitor.stdout(), SECRETS),
    ...leaks('stderr', monitor.stderr(), SECRETS),
    ...leaks('/metrics', metrics, SECRETS),
    ...fileLeaks(join(dir, 'data'), SECRETS),
    ...chats.flatMap((p) => leaks(`body to ${p.path.slice(0, 9)}`, p.body, SECRETS)),
    ...posted
      .filter((p) => p.path.startsWith('/v2/'))
      .flatMap((p) =>
        leaks(
          'PagerDuty body',
          p.body,
          SECRETS.filter((s) => s.name !== 'ROUTING_KEY'),
        ),
      ),
  ]).toEqual([]);
}, 60_000);
