// A webhook URL read from the environment is a credential (Slack's is): once read, it is masked in
// every output of the process, like the URLs the app keeps in the keychain.
import { randomUUID } from 'node:crypto';
import { expect, test } from 'vitest';
import { secretFromEnv } from '../../../electron/core/monitors/channels/channel-secrets';
import { redactSecrets } from '../../../electron/core/redact';

test('the value of a webhook’s env variable is remembered as a secret when read', () => {
  const url = `https://hooks.example.com/services/${randomUUID()}`;
  process.env.AGENT_CONSOLE_TEST_HOOK = url;
  try {
    expect(redactSecrets(url)).toBe(url);
    expect(secretFromEnv('AGENT_CONSOLE_TEST_HOOK', 'a webhook URL')).toBe(url);
    expect(redactSecrets(`posting to ${url}`)).toBe(`posting to ***…${url.slice(-4)}`);
  } finally {
    delete process.env.AGENT_CONSOLE_TEST_HOOK;
  }
  expect(() => secretFromEnv('AGENT_CONSOLE_TEST_HOOK', 'a webhook URL')).toThrow(
    'The environment variable AGENT_CONSOLE_TEST_HOOK (a webhook URL) is not set.',
  );
});
