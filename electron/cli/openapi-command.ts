// `agent-console openapi [--format json|yaml]`: the service as this console understands it, as an
// OpenAPI 3.1 document on stdout (shared/openapi.ts makes it from the schemas the client reads with).
import { stringify } from 'yaml';
import { openApiDocument } from '../../shared/openapi';
import type { CommandContext } from './cli-session';

export function openapiCommand(context: CommandContext): void {
  const format = (context.options as { format?: string }).format ?? 'json';
  const document = openApiDocument();
  context.io.out(format === 'yaml' ? stringify(document).trimEnd() : JSON.stringify(document, null, 2));
}
