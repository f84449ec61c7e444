// `agent-console monitor --status-page DIR`: a folder that is not there, or a rewrite interval out of
// range, is refused in words before anything is watched (exit 2).
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { removeDir, tempDir } from '../support/mock';
import { runNode } from '../support/run-process';

let dataDir: string;

beforeAll(() => {
  dataDir = tempDir('agent-console-status-cli-');
});

afterAll(() => removeDir(dataDir));

const cli = (args: string[]) =>
  runNode(['bin/agent-console.js', 'monitor', ...args], { env: { AGENT_CONSOLE_DATA_DIR: dataDir } });

test('a status page folder that does not exist is named', async () => {
  const missing = join(dataDir, 'no-such-folder');
  const run = await cli(['--status-page', missing]);
  expect(run.code).toBe(2);
  expect(run.stderr).toContain(`--status-page names a folder that exists: there is none at ${missing}.`);
});

test('a rewrite interval out of range is said in words', async () => {
  const run = await cli(['--status-page', dataDir, '--status-every', '0.5']);
  expect(run.code).toBe(2);
  expect(run.stderr).toContain('--status-every takes whole seconds from 1 to 3600 (got "0.5").');
});
