// The channels of a monitors file: each kind's fields checked with the file's line and field, a
// credential written in clear refused in words (it belongs in the environment or the keychain),
// and a file written before there were kinds read as webhooks.
import { describe, expect, test } from 'vitest';
import { monitorsFileText, parseMonitorsFile } from '../../../electron/core/monitors/monitor-config';

const head = [
  'monitors:',
  '  - name: Production',
  '    profile: Production',
  '    notify:',
  '      webhooks:',
];

/** Every problem of a file whose one monitor has these channel lines. */
function problems(channelLines: string[]): string[] {
  try {
    parseMonitorsFile([...head, ...channelLines].join('\n'), 'monitors.yaml');
  } catch (error) {
    return (error as Error).message.split('\n');
  }
  throw new Error('the file was accepted');
}

describe('each kind of channel', () => {
  test('a file of every kind is read, and written back in the same words', () => {
    const text = [
      ...head,
      '        - url: https://hooks.example.com/a',
      '        - { kind: teams, id: team, url: { env: TEAMS_WEBHOOK_URL } }',
      '        - { kind: discord, url: { env: DISCORD_WEBHOOK_URL } }',
      '        - { kind: pagerduty, id: oncall, routingKey: { env: PAGERDUTY_ROUTING_KEY } }',
      '        - kind: email',
      '          host: smtp.example.com',
      '          user: monitor',
      '          password: { env: SMTP_PASSWORD }',
      '          from: monitor@example.com',
      '          to: oncall@example.com',
      '      escalate: { after: 15m, to: [oncall] }',
    ].join('\n');
    const [monitor] = parseMonitorsFile(text, '/work/monitors.yaml');
    expect(monitor?.notify.webhooks).toEqual([
      { kind: 'webhook', url: 'https://hooks.example.com/a', format: 'json' },
      { kind: 'teams', id: 'team', url: { env: 'TEAMS_WEBHOOK_URL' } },
      { kind: 'discord', url: { env: 'DISCORD_WEBHOOK_URL' } },
      { kind: 'pagerduty', id: 'oncall', routingKey: { env: 'PAGERDUTY_ROUTING_KEY' } },
      {
        kind: 'email',
        host: 'smtp.example.com',
        port: 587,
        tls: 'starttls',
        user: 'monitor',
        password: { env: 'SMTP_PASSWORD' },
        from: 'monitor@example.com',
        to: ['oncall@example.com'],
      },
    ]);
    const again = parseMonitorsFile(monitorsFileText([monitor!]), '/work/monitors.yaml');
    expect(again[0]?.notify.webhooks).toEqual(monitor?.notify.webhooks);
  });

  test('a credential written in clear is refused at its line, saying where it belongs', () => {
    expect(
      problems([
        '        - kind: teams',
        '          url: https://acme.webhook.office.com/webhookb2/abc',
        '        - kind: pagerduty',
        '          routingKey: R0UT1NGKEY0123456789abcdef012345',
        '        - kind: email',
        '          host: smtp.example.com',
        '          user: monitor',
        '          password: hunter2hunter2',
        '          from: monitor@example.com',
        '          to: [oncall@example.com]',
      ]),
    ).toEqual([
      'monitors.yaml:7:16: monitors[0].notify.webhooks[0].url: A Teams webhook URL is a credential: name an environment variable ({env: TEAMS_WEBHOOK_URL}) or add it in the app (kept in the keychain), never in this file.',
      'monitors.yaml:9:23: monitors[0].notify.webhooks[1].routingKey: A PagerDuty routing key is a credential: name an environment variable ({env: PAGERDUTY_ROUTING_KEY}) or add it in the app (kept in the keychain), never in this file.',
      'monitors.yaml:13:21: monitors[0].notify.webhooks[2].password: An SMTP password is a credential: name an environment variable ({env: SMTP_PASSWORD}) or add it in the app (kept in the keychain), never in this file.',
    ]);
  });

  test('every field of a kind is checked at its line, and an unknown kind or field is named', () => {
    expect(
      problems([
        '        - kind: sms',
        '          url: { env: X }',
        '        - kind: discord',
        '          url: { env: discord-url }',
        '        - kind: pagerduty',
        '          routingKey: { env: PD_KEY }',
        '          endpoint: ftp://events.example.com',
        '        - kind: email',
        '          host: "smtp.example.com\\r\\nRCPT TO: <x@evil.example>"',
        '          port: 70000',
        '          tls: none',
        '          from: not-an-address',
        '          to: []',
        '          cc: boss@example.com',
      ]),
    ).toEqual([
      'monitors.yaml:6:17: monitors[0].notify.webhooks[0].kind: kind is one of webhook, teams, discord, pagerduty, email.',
      'monitors.yaml:9:23: monitors[0].notify.webhooks[1].url.env: An environment variable name: A-Z, 0-9 and _.',
      'monitors.yaml:12:21: monitors[0].notify.webhooks[2].endpoint: An https:// URL (http:// only for this computer).',
      'monitors.yaml:14:17: monitors[0].notify.webhooks[3].host: An SMTP server host name such as smtp.example.com.',
      'monitors.yaml:15:17: monitors[0].notify.webhooks[3].port: Too big: expected number to be <=65535',
      'monitors.yaml:16:16: monitors[0].notify.webhooks[3].tls: Invalid option: expected one of "starttls"|"tls"',
      'monitors.yaml:17:17: monitors[0].notify.webhooks[3].from: An email address such as ops@example.com.',
      'monitors.yaml:18:15: monitors[0].notify.webhooks[3].to: Too small: expected array to have >=1 items',
      'monitors.yaml:19:11: monitors[0].notify.webhooks[3].cc: Unknown field "cc".',
    ]);
  });

  test('an SMTP login names both user and password, and no channel reads the API key’s variable', () => {
    expect(
      problems([
        '        - { kind: email, host: smtp.example.com, user: monitor, from: a@example.com, to: b@example.com }',
        '        - { kind: pagerduty, routingKey: { env: AGENT_API_KEY } }',
      ]),
    ).toEqual([
      'monitors.yaml:6:11: monitors[0].notify.webhooks[0]: An SMTP login names both user: and password: (or neither).',
    ]);
    expect(problems(['        - { kind: pagerduty, routingKey: { env: AGENT_API_KEY } }'])).toEqual([
      'monitors.yaml:6:30: monitors[0].notify.webhooks[0].routingKey: AGENT_API_KEY holds the API key: it cannot be a PagerDuty routing key.',
    ]);
  });

  test('an email channel’s CA file is found beside the monitors file', () => {
    const [monitor] = parseMonitorsFile(
      [
        ...head,
        '        - { kind: email, host: mail.internal, ca: certs/mail-ca.pem, from: a@example.com, to: b@example.com }',
      ].join('\n'),
      '/srv/watch/monitors.yaml',
    );
    expect(monitor?.notify.webhooks[0]).toMatchObject({ ca: '/srv/watch/certs/mail-ca.pem' });
  });
});

test('the README’s channels example is a file the monitor accepts, with every kind in it', async () => {
  const { readFileSync } = await import('node:fs');
  const readme = readFileSync('README.md', 'utf8');
  const block = /### Channels[\s\S]*?```yaml\n([\s\S]*?)```/.exec(readme)?.[1] ?? '';
  const indented = block
    .split('\n')
    .map((line) => `    ${line}`)
    .join('\n');
  const text = `monitors:\n  - name: Production\n    profile: Production\n${indented}`;
  const [monitor] = parseMonitorsFile(text, 'README.md');
  expect(monitor?.notify.webhooks.map((c) => c.kind)).toEqual([
    'webhook',
    'teams',
    'discord',
    'pagerduty',
    'email',
  ]);
  expect(monitor?.notify.escalate).toEqual({ after: 15 * 60_000, to: ['oncall'] });
});
