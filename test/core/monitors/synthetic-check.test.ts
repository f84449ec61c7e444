// A synthetic check's suite file is a suite file like any other: it may not read the variable its
// monitor takes the key from, any more than AGENT_API_KEY.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { syntheticSuite } from '../../../electron/core/monitors/synthetic-check';
import { removeDir, tempDir } from '../../support/mock';

const dir = tempDir('agent-console-synthetic-');
afterAll(() => removeDir(dir));

test('a suite file that declares the monitor’s keyEnv does not load, naming its line', async () => {
  const file = join(dir, 'checks.yaml');
  writeFileSync(
    file,
    'name: Checks\nenv: [STAGING_KEY]\ncases: [{ name: ping, message: "{{env.STAGING_KEY}}" }]\n',
  );
  const config = { every: 300_000, suite: file, stream: true };
  await expect(syntheticSuite(config, 'Staging', { keyEnv: 'STAGING_KEY' })).rejects.toThrow(
    `${file}:2:7: env[0]: STAGING_KEY holds the API key: a suite file cannot read it.`,
  );
  // Another monitor, with its key elsewhere, may read it.
  process.env.STAGING_KEY = 'not-a-key-here';
  try {
    const suite = await syntheticSuite(config, 'Other', { keyEnv: 'OTHER_KEY' });
    expect(suite.cases[0]?.steps[0]?.message).toBe('not-a-key-here');
  } finally {
    delete process.env.STAGING_KEY;
  }
});
