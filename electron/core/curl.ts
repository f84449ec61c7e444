// "Copy as curl" for a logged request or a chat the playground would send: runnable as is once
// the key is in $AGENT_API_KEY, and never containing the key itself.
import { API_PREFIX } from '../../shared/api';
import type { RequestLogEntry } from '../../shared/request-log-entry';
import type { ProfileStore } from './profile-store';
import type { Profile } from './profiles';
import type { RequestLog } from './request-log';

/** Single-quotes a shell word. */
function shellQuote(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}

function curlFor(
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

/** "Copy as curl" for a logged request, trusting the CA of the profile it went out with. */
export function curlForLogged(
  core: { requestLog: RequestLog; profiles: Pick<ProfileStore, 'get'> },
  id: string,
): string {
  const entry = core.requestLog.get(id);
  return curlFor(entry, core.profiles.get(entry.profileId)?.caCertPath);
}

/** "Copy as curl" for a chat request from a profile, the body exactly as the API client sends it. */
export function curlForChat(
  profile: Profile,
  {
    stream,
    ...input
  }: { message: string; agent?: string | undefined; session_id?: string | undefined; stream: boolean },
): string {
  const url = `${profile.baseUrl.replace(/\/+$/, '')}${API_PREFIX}/chat`;
  // api-client.ts sends `{ ...input, stream }`.
  const requestBody = JSON.stringify({ ...input, stream });
  return curlFor({ method: 'POST', url, requestBody, streamed: stream }, profile.caCertPath);
}
