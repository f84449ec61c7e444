// Writes schemas/agent-test-suite.schema.json from the zod schema of suite files (shared/suite.ts),
// formatted as Prettier would. `npx tsx scripts/write-suite-schema.ts` after changing the format;
// test/core/suites/suite-schema.test.ts fails while the committed file is stale.
import { writeFile } from 'node:fs/promises';
import { format, resolveConfig } from 'prettier';
import { suiteJsonSchema } from '../shared/suite';

const SUITE_SCHEMA_PATH = 'schemas/agent-test-suite.schema.json';

const options = (await resolveConfig(SUITE_SCHEMA_PATH)) ?? {};
const text = await format(JSON.stringify(suiteJsonSchema()), { ...options, parser: 'json' });
await writeFile(SUITE_SCHEMA_PATH, text);
console.log(`Wrote ${SUITE_SCHEMA_PATH}`);
