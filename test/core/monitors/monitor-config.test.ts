// The monitors file may come from a pull request like a suite file: it reads no environment in a
// synthetic message, and never names the variable that holds a key as anything but the key.
import { describe, expect, test } from 'vitest';
import {
  checkMonitors,
  monitorsFileText,
  parseMonitorsFile,
  type MonitorConfig,
} from '../../../electron/core/monitors/monitor-config';

/** Every problem of a monitors file, as the user reads it. */
function problems(text: string): string[] {
  try {
    parseMonitorsFile(text, 'monitors.yaml');
  } catch (error) {
    return (error as Error).message.split('\n');
  }
  throw new Error('the file was accepted');
}

describe('a synthetic message reads no environment', () => {
  test('an environment variable in the message or an assertion is a problem at its line', () => {
    const text = [
      'monitors:',
      '  - name: Staging',
      '    service: { baseUrl: "https://staging.example.com", keyEnv: STAGING_KEY }',
      '    synthetic:',
      '      every: 5m',
      '      message: "ping {{env.CI_SECRET}}"',
      '      assert:',
      '        - contains: "{{env.STAGING_KEY}}"',
    ].join('\n');
    expect(problems(text)).toEqual([
      'monitors.yaml:6:7: monitors[0].synthetic.message: A synthetic message cannot read the environment ({{env.CI_SECRET}}): write the check as a suite file that lists CI_SECRET under env:.',
      'monitors.yaml:8:11: monitors[0].synthetic.assert[0].contains: STAGING_KEY holds the API key: a monitors file cannot read it.',
    ]);
  });

  test('the app’s own edits are checked the same way', () => {
    expect(() =>
      checkMonitors([
        { name: 'A', profile: 'Default', synthetic: { every: '5m', message: '{{env.AGENT_API_KEY}}' } },
      ]),
    ).toThrow('synthetic.message: AGENT_API_KEY holds the API key: a monitors file cannot read it.');
  });
});

describe('the variable that holds the key is not a webhook URL', () => {
  test('AGENT_API_KEY, or the monitor’s own keyEnv', () => {
    const text = [
      'monitors:',
      '  - name: A',
      '    service: { baseUrl: "https://a.example.com" }',
      '    notify:',
      '      webhooks:',
      '        - url: { env: AGENT_API_KEY }',
      '  - name: B',
      '    service: { baseUrl: "https://b.example.com", keyEnv: B_KEY }',
      '    notify:',
      '      webhooks:',
      '        - url: { env: HOOK_URL }',
      '        - url: { env: B_KEY }',
    ].join('\n');
    expect(problems(text)).toEqual([
      'monitors.yaml:6:11: monitors[0].notify.webhooks[0].url: AGENT_API_KEY holds the API key: it cannot be a webhook URL.',
      'monitors.yaml:12:11: monitors[1].notify.webhooks[1].url: B_KEY holds the API key: it cannot be a webhook URL.',
    ]);
  });
});

describe('latency budgets', () => {
  test('read with their window (10 by default) and written back in the file’s words', () => {
    const [monitor] = parseMonitorsFile(
      [
        'monitors:',
        '  - name: A',
        '    service: { baseUrl: "https://a.example.com" }',
        '    synthetic: { every: 5m, message: ping }',
        '    budgets: { ttft-p95: 2s, total-p95: 1500ms, health-response: 1s }',
      ].join('\n'),
      'monitors.yaml',
    );
    expect(monitor?.budgets).toEqual({
      'ttft-p95': 2000,
      'total-p95': 1500,
      'health-response': 1000,
      window: 10,
    });
    expect(monitorsFileText([monitor as MonitorConfig])).toContain(
      'budgets:\n      ttft-p95: 2s\n      total-p95: 1500ms\n      health-response: 1s\n      window: 10\n',
    );
  });

  test('a synthetic budget needs a synthetic check, and a budget names something', () => {
    expect(
      problems(
        ['monitors:', '  - name: A', '    profile: Default', '    budgets: { ttft-p95: 2s }'].join('\n'),
      ),
    ).toEqual([
      'monitors.yaml:2:5: monitors[0]: ttft-p95 and total-p95 budgets judge a synthetic check: add one (synthetic:).',
    ]);
    expect(
      problems(['monitors:', '  - name: A', '    profile: Default', '    budgets: { window: 5 }'].join('\n')),
    ).toEqual([
      'monitors.yaml:4:14: monitors[0].budgets: Name at least one budget: ttft-p95, total-p95 or health-response.',
    ]);
  });
});

describe('maintenance windows', () => {
  test('repeating or one range, written back in the file’s words', () => {
    const [monitor] = parseMonitorsFile(
      [
        'monitors:',
        '  - name: A',
        '    profile: Default',
        '    maintenance:',
        '      - { every: sun 02:00, for: 90m, tz: Europe/Berlin }',
        '      - { from: 2026-12-01T22:00:00Z, to: 2026-12-02T01:00:00+01:00, name: Migration }',
      ].join('\n'),
      'monitors.yaml',
    );
    expect(monitor?.maintenance).toEqual([
      { every: 'sun 02:00', for: 5_400_000, tz: 'Europe/Berlin' },
      { from: '2026-12-01T22:00:00Z', to: '2026-12-02T01:00:00+01:00', name: 'Migration' },
    ]);
    expect(monitorsFileText([monitor as MonitorConfig])).toContain('for: 90m');
  });

  test('each problem named at its line', () => {
    expect(
      problems(
        [
          'monitors:',
          '  - name: A',
          '    profile: Default',
          '    maintenance:',
          '      - { every: sunday 2am, for: 1h }',
          '      - { every: sun 02:00, for: 1h, tz: Mars/Olympus }',
          '      - { every: sun 02:00 }',
          '      - { from: 2026-12-02T01:00:00Z, to: 2026-12-01T22:00:00Z }',
          '      - { from: 2026-12-01 22:00, to: 2026-12-02T01:00:00Z }',
        ].join('\n'),
      ),
    ).toEqual([
      'monitors.yaml:5:18: monitors[0].maintenance[0].every: Write when it begins as "sun 02:00" (a day mon … sun, or daily, then a 24-hour time).',
      'monitors.yaml:6:42: monitors[0].maintenance[1].tz: An IANA time zone such as Europe/Berlin (UTC when left out).',
      'monitors.yaml:7:9: monitors[0].maintenance[2]: A maintenance window repeats (every: and for:, tz: optional) or is one range (from: and to:).',
      'monitors.yaml:8:9: monitors[0].maintenance[3]: A maintenance window ends (to:) after it begins (from:).',
      'monitors.yaml:9:17: monitors[0].maintenance[4].from: An ISO date-time with its offset, e.g. 2026-11-30T02:00:00Z.',
    ]);
  });
});

describe('public: on the status page', () => {
  test('true, or { show-errors: true }; kept as written when the app saves the file', () => {
    const monitors = parseMonitorsFile(
      [
        'monitors:',
        '  - { name: API, profile: Default, public: true }',
        '  - { name: Chat, profile: Other, public: { show-errors: true } }',
        '  - { name: Internal, profile: Third }',
      ].join('\n'),
      'monitors.yaml',
    );
    expect(monitors.map((m) => m.public)).toEqual([true, { 'show-errors': true }, undefined]);
    const again = parseMonitorsFile(monitorsFileText(monitors), 'monitors.yaml');
    expect(again.map((m) => m.public)).toEqual([true, { 'show-errors': true }, undefined]);
  });

  test('anything else is named at its line, in words', () => {
    expect(
      problems(
        [
          'monitors:',
          '  - name: A',
          '    profile: Default',
          '    public: yes',
          '  - name: B',
          '    profile: Other',
          '    public: { show-errors: true, title: Hi }',
        ].join('\n'),
      ),
    ).toEqual([
      'monitors.yaml:4:13: monitors[0].public: Write public: true (names and words only), or public: { show-errors: true } to show what failed too.',
      'monitors.yaml:7:34: monitors[1].public.title: Unknown field "title".',
    ]);
  });
});
