// The JSON Schema editors read (schemas/agent-test-suite.schema.json) is the zod schema written out:
// never stale, and it agrees with the loader on real suite files.
import { readFileSync } from 'node:fs';
import Ajv2020 from 'ajv/dist/2020';
import { expect, test } from 'vitest';
import { parse } from 'yaml';
import { findSuiteFiles } from '../../../electron/core/suites/suite-loader';
import { suiteJsonSchema } from '../../../shared/suite';

const committed = JSON.parse(readFileSync('schemas/agent-test-suite.schema.json', 'utf8')) as object;

test('the committed JSON Schema is the one the zod schema gives (else: npx tsx scripts/write-suite-schema.ts)', () => {
  expect(committed).toEqual(suiteJsonSchema());
});

test('an editor validating with the JSON Schema accepts every example and flags a mistyped assertion', async () => {
  const validate = new Ajv2020({ allErrors: true, allowUnionTypes: true }).compile(committed);
  for (const file of await findSuiteFiles(['examples/agent-tests', 'examples/agent-tests/failing'])) {
    expect(validate(parse(readFileSync(file, 'utf8'))), `${file}: ${JSON.stringify(validate.errors)}`).toBe(
      true,
    );
  }
  const typo = { name: 'x', cases: [{ name: 'a', message: 'hi', assert: [{ contain: 'hi' }] }] };
  expect(validate(typo)).toBe(false);
  expect(validate.errors?.[0]).toMatchObject({
    instancePath: '/cases/0/assert/0',
    keyword: 'additionalProperties',
    params: { additionalProperty: 'contain' },
  });
});
