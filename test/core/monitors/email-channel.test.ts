// Email on the real mock, received by a local SMTP server (smtp-server, from the nodemailer
// project) that offers STARTTLS with a self-signed certificate made by openssl and takes a login
// only once the connection is encrypted: an outage arrives with its words in the subject and body,
// the password read from the environment; a monitor named with CR/LF in it adds no header and no
// recipient; a server that never answers costs one bounded wait, not the monitor.
import { createServer, type Server as NetServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { simpleParser } from 'mailparser';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { ManualClock } from '../../../shared/clock';
import type { Monitor } from '../../../electron/core/monitors/monitor';
import { ChannelDispatch } from '../../../electron/core/monitors/channels/channel-dispatch';
import { createMemorySecretStore } from '../../../electron/core/secret-store';
import { removeDir, tempDir } from '../../support/mock';
import { startSmtpReceiver, type ReceivedMail, type SmtpReceiver } from '../../support/smtp-receiver';
import { until } from '../../support/until';
import { watchProduction, watchService, type WatchedService } from '../../support/watched-service';

const PASSWORD = 'Smtp-pa55word-of-the-test-server';
let dir: string;
let smtp: SmtpReceiver;
let received: ReceivedMail[];
let watched: WatchedService;
let monitor: Monitor;

beforeAll(async () => {
  dir = tempDir('agent-console-smtp-');
  smtp = await startSmtpReceiver(dir, { user: 'monitor', password: PASSWORD });
  received = smtp.received;
  process.env.TEST_SMTP_PASSWORD = PASSWORD;
  watched = await watchService('Production');
  const email = {
    kind: 'email' as const,
    host: '127.0.0.1',
    port: smtp.port,
    ca: smtp.caFile,
    user: 'monitor',
    password: { env: 'TEST_SMTP_PASSWORD' },
    from: 'monitor@example.com',
    to: ['oncall@example.com', 'ops@example.com'],
  };
  monitor = await watchProduction(watched, { webhooks: [email] });
}, 60_000);

afterAll(async () => {
  delete process.env.TEST_SMTP_PASSWORD;
  await watched?.close();
  await smtp?.close();
  if (dir) removeDir(dir);
});

test('an outage arrives by email over STARTTLS, its words in the subject and the body', async () => {
  watched.mock.server.control.setHealth({ api: 'down' });
  await monitor.health.checkNow();
  await monitor.health.checkNow();
  await until('the email', () => received[0]);
  const [mail] = received;
  expect(mail).toMatchObject({
    from: 'monitor@example.com',
    to: ['oncall@example.com', 'ops@example.com'],
    secure: true,
    user: 'monitor',
  });
  const parsed = await simpleParser(mail?.raw ?? '');
  expect(parsed.subject).toBe('[Agent Console] Service unhealthy: Production');
  const incident = watched.core.monitors.incidents.log.openFor(monitor.id);
  expect(parsed.text).toContain('Monitor: Production');
  expect(parsed.text).toContain('Status: Unhealthy (was Healthy)');
  expect(parsed.text).toContain(`Incident: ${incident?.id}`);
  watched.mock.server.control.setHealth({ api: 'operational' });
  await monitor.health.checkNow();
  await monitor.health.checkNow();
  await until('the recovery email', () => received[1]);
  expect((await simpleParser(received[1]?.raw ?? '')).subject).toBe(
    '[Agent Console] Service healthy again: Production',
  );
});

test('a monitor named with CR/LF in it adds no header and no recipient', async () => {
  const before = received.length;
  const injected = await watched.core.monitors.update(monitor.id, {
    ...monitor.config,
    name: 'Production\r\nBcc: intruder@evil.example\r\n\r\nForged body',
  });
  const result = await watched.core.monitors.sendTest(injected.id);
  expect(result.failures).toEqual([]);
  await until('the test email', () => received[before]);
  const mail = received[before] as ReceivedMail;
  expect(mail.to).toEqual(['oncall@example.com', 'ops@example.com']);
  const headers = mail.raw.slice(0, mail.raw.indexOf('\r\n\r\n'));
  expect(headers).not.toMatch(/^bcc:/im);
  const parsed = await simpleParser(mail.raw);
  expect(parsed.bcc).toBeUndefined();
  expect(parsed.subject).toBe(
    '[Agent Console] Test notification: Production Bcc: intruder@evil.example Forged body',
  );
});

test('an SMTP server that never answers costs one bounded wait, and says so in words', async () => {
  const silent: NetServer = createServer(() => undefined);
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  const dispatch = new ChannelDispatch({
    secrets: createMemorySecretStore(),
    sleep: (ms, signal) => new ManualClock(0).sleep(ms, signal),
    timeoutMs: 500,
  });
  const started = Date.now();
  const outcome = await dispatch.test(
    [
      {
        kind: 'email',
        host: '127.0.0.1',
        port: (silent.address() as AddressInfo).port,
        tls: 'starttls',
        from: 'monitor@example.com',
        to: ['oncall@example.com'],
      },
    ],
    {
      monitorId: 'm',
      monitorName: 'Production',
      from: 'healthy',
      to: 'healthy',
      at: 0,
      title: 'Test notification',
      body: 'Production: notifications reach you here.',
      desktop: false,
      test: true,
    },
    'localhost',
  );
  expect(Date.now() - started).toBeLessThan(5000);
  expect(outcome.delivered).toBe(0);
  expect(outcome.failures).toEqual([
    expect.stringMatching(/^The email via 127\.0\.0\.1:\d+ was not sent \(ETIMEDOUT\)\.$/) as unknown,
  ]);
  await new Promise((resolve) => silent.close(resolve));
});
