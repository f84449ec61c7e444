// `agent-console openapi [--format json|yaml]`: the service as this console understands it, as an
// OpenAPI 3.1 document on stdout (shared/openapi.ts makes it from the schemas the client reads with).
import { parseArgs } from 'node:util';
import { stringify } from 'yaml';
import { openApiDocument } from '../../shared/openapi';
import { EXIT } from './output';

const FORMATS = ['json', 'yaml'] as const;

const OPENAPI_HELP = `Usage: agent-console openapi [--format json|yaml]

Writes an OpenAPI 3.1 document of the Agent Messaging Service, as this console reads it, to stdout:
its paths, request bodies, both error shapes, the rate-limit headers and the chat stream's events.
JSON by default. \`npm run mock\` serves the same document at /openapi.json.`;

export function openapiCommand(argv: string[]): number {
  let options;
  try {
    options = parseArgs({
      args: argv,
      options: { format: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
      strict: true,
    }).values;
  } catch (error) {
    process.stderr.write(`agent-console openapi: ${(error as Error).message}\n\n${OPENAPI_HELP}\n`);
    return EXIT.usage;
  }
  if (options.help) {
    process.stdout.write(`${OPENAPI_HELP}\n`);
    return EXIT.ok;
  }
  const format = options.format ?? 'json';
  if (!(FORMATS as readonly string[]).includes(format)) {
    process.stderr.write(`agent-console openapi: --format must be json or yaml (got "${format}").\n`);
    return EXIT.usage;
  }
  const document = openApiDocument();
  process.stdout.write(format === 'yaml' ? stringify(document) : `${JSON.stringify(document, null, 2)}\n`);
  return EXIT.ok;
}
