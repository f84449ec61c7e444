// The CLI's one line about a newer version: what the desktop app heard from its update feed, read
// from the data folder (no request of its own), on stderr; never when updates are off, and never
// a feed's odd version string.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { removeDir, tempDir } from '../support/mock';
import { runNode } from '../support/run-process';

const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));

/** `agent-console profiles list` on a data folder where the app once heard of `version`. */
async function listProfiles(version: string, extra: { settings?: object; env?: NodeJS.ProcessEnv } = {}) {
  const dataDir = tempDir('agent-console-update-notice-');
  dirs.push(dataDir);
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  writeFileSync(join(dataDir, 'update-latest.json'), JSON.stringify({ version, checkedAt: Date.now() }));
  if (extra.settings) writeFileSync(join(dataDir, 'settings.json'), JSON.stringify(extra.settings));
  return runNode(['bin/agent-console.js', 'profiles', 'list', '--json'], {
    env: { AGENT_CONSOLE_DATA_DIR: dataDir, AGENT_CONSOLE_UPDATES: undefined, ...extra.env },
  });
}

test('a newer version the app has heard of: one line on stderr, the output as it was', async () => {
  const result = await listProfiles('99.1.0');
  expect(result.code, result.stderr).toBe(0);
  expect(JSON.parse(result.stdout)).toEqual(expect.any(Array));
  expect(result.stderr.trim().split('\n')).toEqual([
    expect.stringMatching(/^Agent Console 99\.1\.0 is available \(this is \d+\.\d+\.\d+/),
  ]);
});

test.each([
  ['the same or an older version', '0.0.1', {}],
  ['updates turned off in Settings', '99.1.0', { settings: { updates: { enabled: false } } }],
  ['updates off for the machine', '99.1.0', { env: { AGENT_CONSOLE_UPDATES: 'off' } }],
  ['a version with control characters', '99.1.0\u001b[2J', {}],
  ['a version that is not a version', 'latest and greatest', {}],
])('%s: nothing said', async (_, version, extra) => {
  const result = await listProfiles(version, extra);
  expect(result.code, result.stderr).toBe(0);
  expect(result.stderr).toBe('');
});
