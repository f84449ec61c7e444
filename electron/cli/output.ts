// How the CLI speaks: human tables by default, JSON for scripts, and an exit code per error class.
import { ApiError } from '../core/api-error';
export { describeError } from '../core/api-error';
import { CoreError } from '../core/core-error';
import { TranscriptFileError } from '../core/transcript-file';

/** Exit codes, by class of failure (documented in the README). */
export const EXIT = {
  ok: 0,
  failure: 1,
  usage: 2,
  auth: 3,
  plan: 4,
  notFound: 5,
  rateLimited: 6,
  service: 7,
  network: 8,
  keychain: 9,
  interrupted: 130,
} as const;

/** A problem with what the user typed: exit 2. */
export class UsageError extends Error {}

export function exitCodeFor(error: unknown): number {
  if (error instanceof UsageError) return EXIT.usage;
  if (error instanceof CoreError) {
    // No keychain at start, or one that failed since (locked, its daemon or D-Bus session gone).
    if (error.code === 'NO_KEYCHAIN' || error.code === 'KEYCHAIN_UNAVAILABLE') return EXIT.keychain;
    // A file of ours that cannot be read or written is not the user's typing.
    if (error instanceof TranscriptFileError) return EXIT.failure;
    return EXIT.usage;
  }
  if (error instanceof ApiError) {
    if (error.code === 'ABORTED') return EXIT.interrupted;
    if (error.code === 'NETWORK' || error.code === 'CLIENT_TIMEOUT' || error.code === 'UNTRUSTED_CERT')
      return EXIT.network;
    switch (error.status) {
      case 400:
        return EXIT.usage;
      case 401:
        return EXIT.auth;
      case 403:
        return EXIT.plan;
      case 404:
        return EXIT.notFound;
      case 429:
        return EXIT.rateLimited;
      default:
        return EXIT.service;
    }
  }
  return EXIT.failure;
}

/**
 * A usage error in one line and where the help is: commander's "error: unknown option '--agnet'
 * (Did you mean --agent?)" becomes "agent-console: unknown option --agnet; did you mean --agent?".
 */
export function usageErrorText(message: string, command: string): string {
  const said = message
    .replace(/^error: /, '')
    .replace(/'([^'\s]+)'/g, '$1')
    .replace(/\s*\(Did you mean (.+)\?\)\s*$/, '; did you mean $1?')
    .trim();
  return `agent-console: ${said}\nSee \`${command} --help\`.`;
}

/** Column headers for people, one place for every table the CLI prints. */
const HEADERS: Readonly<Record<string, string>> = {
  id: 'ID',
  last4: 'Ends in',
  baseUrl: 'Base URL',
  caCertPath: 'CA certificate',
  clientCert: 'Client certificate',
  createdAt: 'Created',
  deployed_at: 'Deployed',
  session_id: 'Session',
  message_count: 'Messages',
  started_at: 'Started',
  last_message_at: 'Last message',
  updated_at: 'Updated',
  chunkCount: 'Chunks',
  durationMs: 'Duration (ms)',
  recordedAt: 'Recorded',
  latencyMs: 'Latency (ms)',
  chunkDelayMs: 'Chunk delay (ms)',
  requestId: 'Request ID',
  at: 'Time',
};

/** A field's header: its entry above, else its words ("fallback" → "Fallback"). */
function header(column: string): string {
  const words = column
    .replace(/_/g, ' ')
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toLowerCase();
  return HEADERS[column] ?? words.charAt(0).toUpperCase() + words.slice(1);
}

export function table(rows: readonly object[], columns: string[]): string {
  if (rows.length === 0) return '(none)';
  const cell = (v: unknown): string => (v === undefined || v === null ? '' : String(v));
  const at = (row: object, column: string): unknown => (row as Record<string, unknown>)[column];
  const headers = columns.map(header);
  const widths = columns.map((c, i) =>
    Math.max((headers[i] as string).length, ...rows.map((r) => cell(at(r, c)).length)),
  );
  const line = (values: string[]): string =>
    values
      .map((v, i) => v.padEnd(widths[i] as number))
      .join('  ')
      .trimEnd();
  return [line(headers), ...rows.map((r) => line(columns.map((c) => cell(at(r, c)))))].join('\n');
}

/**
 * Calls `handler` on each of `signals` until the returned function is called. A plain `on`, never
 * `once`: the lock library's exit hook (signal-exit) re-raises a signal when it believes it is the
 * last listener, and a `once` listener has already removed itself by the time that hook runs —
 * which killed the process mid-shutdown, exit code lost and history unflushed.
 */
export function onStopSignals(
  handler: () => void,
  signals: readonly NodeJS.Signals[] = ['SIGINT'],
): () => void {
  for (const signal of signals) process.on(signal, handler);
  return () => {
    for (const signal of signals) process.removeListener(signal, handler);
  };
}
