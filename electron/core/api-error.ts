// One error type for everything that can go wrong with a call (docs/decisions.md): both of the spec's
// error-body shapes, codes normalised to upper case, and the client's own failures.
import { CODE_BY_STATUS, FlatErrorBody, NestedErrorBody } from '../../shared/api';
import { redactSecrets } from './redact';
import { MAX_RETRY_AFTER_S } from './reply-limits';

/** Codes the client itself produces, beside the service's (INVALID_KEY, RATE_LIMITED, …). */
type ClientErrorCode =
  | 'NETWORK'
  | 'UNTRUSTED_CERT'
  | 'CLIENT_TIMEOUT'
  | 'ABORTED'
  | 'INVALID_RESPONSE'
  | 'STREAM_ERROR'
  | 'STREAM_INCOMPLETE'
  | 'RATE_LIMIT_QUEUE_FULL'
  | 'REPLY_TOO_LARGE';

export interface ApiErrorInit {
  status: number;
  /** The service's code (upper case), or one of the client's own. */
  code: ClientErrorCode | (string & {});
  message: string;
  type?: string;
  requestId?: string;
  retryAfterS?: number;
  /** For a broken stream: what arrived before it broke. */
  partial?: string;
  cause?: unknown;
}

export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly type: string | undefined;
  readonly requestId: string | undefined;
  readonly retryAfterS: number | undefined;
  readonly partial: string | undefined;

  /** Every text a server sent is masked here, once (a 401 that echoes the key). */
  constructor(init: ApiErrorInit) {
    super(redactSecrets(init.message), init.cause === undefined ? undefined : { cause: init.cause });
    this.name = 'ApiError';
    this.status = init.status;
    this.code = redactSecrets(init.code);
    this.type = init.type === undefined ? undefined : redactSecrets(init.type);
    this.requestId = init.requestId === undefined ? undefined : redactSecrets(init.requestId);
    this.retryAfterS = init.retryAfterS;
    this.partial = init.partial === undefined ? undefined : redactSecrets(init.partial);
  }

  toJSON() {
    return {
      status: this.status,
      code: this.code,
      message: this.message,
      type: this.type,
      requestId: this.requestId,
      retryAfterS: this.retryAfterS,
      partial: this.partial,
    };
  }
}

function parseRetryAfter(header: string | undefined): number | undefined {
  if (header === undefined) return undefined;
  const seconds = Number(header);
  if (Number.isFinite(seconds) && seconds >= 0) return Math.ceil(seconds);
  const date = Date.parse(header);
  return Number.isNaN(date) ? undefined : Math.max(0, Math.ceil((date - Date.now()) / 1000));
}

/**
 * The wait a 429 asks for, honoured up to MAX_RETRY_AFTER_S: a service (or whatever answers at its
 * address) that says "a day" would otherwise hold every call of the key for a day. The message says
 * when the wait was cut.
 */
function cappedWait(
  asked: number | undefined,
  message: string,
): { retryAfterS: number | undefined; message: string } {
  if (asked === undefined || asked <= MAX_RETRY_AFTER_S) return { retryAfterS: asked, message };
  const said = `${message.trimEnd()}${/[.!?]$/.test(message.trimEnd()) ? '' : '.'}`;
  return {
    retryAfterS: MAX_RETRY_AFTER_S,
    message: `${said} The service asked to wait ${asked} seconds; this console waits ${MAX_RETRY_AFTER_S / 60} minutes at most.`,
  };
}

/** The error for a non-2xx reply, whatever its body looks like (nested, flat, not JSON at all). */
export function errorFromResponse(
  status: number,
  bodyText: string,
  headers: Record<string, string | undefined>,
): ApiError {
  let json: unknown;
  try {
    json = JSON.parse(bodyText);
  } catch {
    json = undefined;
  }
  const headerRetry = parseRetryAfter(headers['retry-after']);
  const requestIdHeader = headers['x-request-id'];
  const nested = NestedErrorBody.safeParse(json);
  if (nested.success) {
    const { error } = nested.data;
    return new ApiError({
      status,
      code: error.code.toUpperCase(),
      ...cappedWait(headerRetry, error.message),
      type: error.type,
      requestId: error.request_id,
    });
  }
  const flat = FlatErrorBody.safeParse(json);
  if (flat.success) {
    return new ApiError({
      status,
      code: flat.data.code.toUpperCase(),
      ...cappedWait(headerRetry ?? flat.data.retry_after, flat.data.error),
      requestId: requestIdHeader,
    });
  }
  // Masked before it is cut: a key across the cut would lose its shape, not its secret.
  const snippet = redactSecrets(bodyText.trim()).slice(0, 200);
  return new ApiError({
    status,
    code: CODE_BY_STATUS[status] ?? `HTTP_${status}`,
    ...cappedWait(
      headerRetry,
      snippet
        ? `The service answered ${status} with a body that is not a known error shape: ${snippet}`
        : `The service answered ${status} with an empty body.`,
    ),
    requestId: requestIdHeader,
  });
}

/** One line for people: what went wrong, with the service's code and request id when there are any. */
export function describeError(error: unknown): string {
  if (error instanceof ApiError) {
    const parts = [error.code, error.status ? `HTTP ${error.status}` : undefined, error.requestId]
      .filter(Boolean)
      .join(', ');
    // Said once: a service's own message often says when to retry already.
    const saysWhen = /\bretry after\b/i.test(error.message);
    const wait = error.retryAfterS !== undefined && !saysWhen ? ` Retry after ${error.retryAfterS} s.` : '';
    return `${error.message}${wait} (${parts})`;
  }
  return error instanceof Error ? error.message : String(error);
}
