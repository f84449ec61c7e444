// "Copy as curl" for a logged request: runnable as is once the key is in $AGENT_API_KEY, and never
// containing the key itself.
import type { RequestLogEntry } from '../../shared/request-log-entry';

/** Single-quotes a shell word. */
function shellQuote(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}

export function curlFor(
  entry: Pick<RequestLogEntry, 'method' | 'url' | 'requestBody' | 'streamed'>,
  caCertPath?: string,
): string {
  const parts = ['curl'];
  if (entry.streamed) parts.push('-N');
  if (caCertPath) parts.push('--cacert', shellQuote(caCertPath));
  if (entry.method !== 'GET') parts.push('-X', entry.method);
  parts.push(shellQuote(entry.url));
  // Double quotes so the shell expands the variable; the secret never enters the command.
  parts.push('-H', '"Authorization: Bearer $AGENT_API_KEY"');
  if (entry.requestBody !== undefined) {
    parts.push(
      '-H',
      shellQuote('Content-Type: application/json'),
      '--data-raw',
      shellQuote(entry.requestBody),
    );
  }
  return parts.join(' ');
}
