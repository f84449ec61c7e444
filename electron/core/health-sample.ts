// What one health poll says, as the history keeps it. Pure: the same report or failure gives the
// same sample.
// - A failed poll is told apart from a bad report: no answer (NETWORK, CLIENT_TIMEOUT) is
//   "unreachable", 401/403 is "key rejected"; 5xx or a malformed reply is "unhealthy" (the service
//   answered, but not with health); anything else (e.g. still rate limited after retries) "unknown".
//   A poll that never left (the keychain did not give the key) is "unknown" with the core's code
//   (KEYCHAIN_UNAVAILABLE): it says nothing about the service.
// - Restarts and deploys are read off consecutive reports of one profile: the implied start time
//   (report time − uptime) moved later, or the version changed.
import { knownHealthStatus } from '../../shared/known-values';
import type { ReceivedHealthReport as HealthReport } from '../../shared/received';
import type { HealthSample, MonitorStatus } from '../../shared/health';
import { ApiError } from './api-error';
import { CoreError } from './core-error';

/** Two reports whose implied start times differ by less than this are the same run of the service. */
const RESTART_TOLERANCE_MS = 5_000;
/** A failure's message is kept for the screen and the notification, not in the history. */
const MAX_ERROR_TEXT = 300;

/** What a failed poll says about the service (see the header). */
export function statusOfFailure(error: unknown): MonitorStatus {
  const code = error instanceof ApiError ? error.code : undefined;
  const status = error instanceof ApiError ? error.status : 0;
  // A certificate not trusted: no exchange is possible either, as the header said before it had words.
  if (code === 'NETWORK' || code === 'CLIENT_TIMEOUT' || code === 'UNTRUSTED_CERT') return 'unreachable';
  if (status === 401 || status === 403) return 'key-rejected';
  if (status >= 500 || code === 'INVALID_RESPONSE') return 'unhealthy';
  return 'unknown';
}

/** A failure's words for the screen and the notification, cut to MAX_ERROR_TEXT. */
export function failureText(failure: unknown): string {
  return ((failure as Error)?.message ?? String(failure)).slice(0, MAX_ERROR_TEXT);
}

/** A failed poll's status, HTTP status and code. */
export function failureFacts(failure: unknown): Pick<HealthSample, 'status' | 'httpStatus' | 'errorCode'> {
  const error = failure instanceof ApiError ? failure : undefined;
  // The core's own codes (the keychain failing, the key gone) are kept: they say why, not the service.
  const code = error?.code ?? (failure instanceof CoreError ? failure.code : 'UNEXPECTED');
  return {
    status: statusOfFailure(failure),
    ...(error?.status ? { httpStatus: error.status } : {}),
    errorCode: code,
  };
}

/** The previous report of the same profile, its time on our clock. */
export interface PreviousReport {
  at: number;
  uptimeS: number;
  version: string;
}

/** A report's status, uptime, version and components not operational, and any restart or deploy since `previous`. */
export function reportFacts(
  report: HealthReport,
  at: number,
  previous: PreviousReport | undefined,
): Pick<HealthSample, 'status' | 'uptimeS' | 'version' | 'components' | 'restart' | 'deploy'> {
  const bad = Object.fromEntries(Object.entries(report.components).filter(([, v]) => v !== 'operational'));
  const facts: ReturnType<typeof reportFacts> = {
    // A status this console does not know is shown as the service sent it (the last report),
    // and counts as unknown here: it neither confirms nor clears an outage.
    status: knownHealthStatus(report.status) ?? 'unknown',
    uptimeS: report.uptime_seconds,
    version: report.version,
    ...(Object.keys(bad).length > 0 ? { components: bad } : {}),
  };
  if (previous) {
    // Both start times on our clock: the history keeps our times, so this also holds across a
    // restart of the console, whatever the skew between our clock and the service's.
    const startedBefore = previous.at - previous.uptimeS * 1000;
    const startedNow = at - report.uptime_seconds * 1000;
    if (startedNow - startedBefore > RESTART_TOLERANCE_MS) facts.restart = true;
    if (previous.version !== report.version) facts.deploy = { from: previous.version, to: report.version };
  }
  return facts;
}
