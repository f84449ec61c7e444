// "Save as test case" writes into a suite file that is reviewed and committed like code: a key, or
// a secret this console knows, in what it would write is refused, and nothing is written.
import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { rememberSecret } from '../../../electron/core/redact';
import { saveCase } from '../../../electron/core/suites/save-case';
import { removeDir, tempDir } from '../../support/mock';

const dir = tempDir('agent-console-save-case-');
afterAll(() => removeDir(dir));

const key = `ams_${'Zq9'.repeat(10)}xy`;
const observed = { message: 'hello', agent: 'echo', reply: 'Echo: hello', stream: false };
const EXISTING = '# Mine.\nname: Echo\ntargets: { agents: [echo] }\ncases:\n  - { name: hi, message: hi }\n';

describe('a key in what would be written is refused, and the file is left as it was', () => {
  test.each([
    ['the message', { ...observed, message: `use ${key} please` }, undefined, 'The message holds an API key'],
    ['the reply', { ...observed, reply: `Your key: ${key}` }, undefined, 'The reply holds an API key'],
    ['the case name', observed, `case ${key}`, 'The case name holds an API key'],
  ])('in %s', async (_what, input, name, words) => {
    const existing = join(dir, `existing-${randomUUID()}.yaml`);
    writeFileSync(existing, EXISTING);
    await expect(saveCase(existing, input, name)).rejects.toThrow(
      `${words}; it was not saved to the suite file.`,
    );
    expect(readFileSync(existing, 'utf8')).toBe(EXISTING);
    const fresh = join(dir, `new-${randomUUID()}.yaml`);
    await expect(saveCase(fresh, input, name)).rejects.toThrow(words);
    expect(existsSync(fresh)).toBe(false);
  });

  test('a secret this console knows, whatever its shape: a declared value, a webhook URL', async () => {
    const secret = `staging-password-${randomUUID()}`;
    rememberSecret(secret);
    const file = join(dir, 'remembered.yaml');
    await expect(saveCase(file, { ...observed, message: `log in with ${secret}` })).rejects.toMatchObject({
      code: 'HOLDS_SECRET',
      message:
        'The message holds a secret this console keeps (an API key, a webhook URL or a suite’s declared value); it was not saved to the suite file.',
    });
    expect(existsSync(file)).toBe(false);
  });

  test('an ordinary message is saved', async () => {
    const file = join(dir, 'ok.yaml');
    await expect(saveCase(file, observed)).resolves.toMatchObject({ caseName: 'hello' });
    expect(readFileSync(file, 'utf8')).toContain('message: hello');
  });
});

test("a case added to a file keeps the user's compact flow lists and maps as written", async () => {
  const file = join(dir, `compact-${randomUUID()}.yaml`);
  writeFileSync(file, EXISTING);
  await saveCase(file, observed, 'again');
  const written = readFileSync(file, 'utf8');
  expect(written).toContain('targets: { agents: [echo] }');
  expect(written).not.toContain('[ echo ]');
  expect(written.startsWith(EXISTING)).toBe(true);
  // Indented as the user's own cases are.
  expect(written.slice(EXISTING.length)).toMatch(/^ {2}- name: again\n {4}message: hello\n/);
});
