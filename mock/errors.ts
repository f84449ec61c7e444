// Error replies in the spec's two shapes (spec §7; which one is used is docs/decisions.md's decision).
import { CODE_BY_STATUS } from '../shared/api';

export type ErrorShape = 'nested' | 'flat' | 'flat-429';

const TYPE_BY_STATUS: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  403: 'permission_error',
  404: 'not_found_error',
  408: 'timeout_error',
  429: 'rate_limit_error',
  431: 'invalid_request_error',
  504: 'timeout_error',
};

/** A refusal the mock answers with; thrown from handlers and hooks, rendered by the error handler. */
export class ApiFailure extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly retryAfterS?: number,
  ) {
    super(message);
  }
}

/**
 * A refusal by the control path's gate (its token, its loopback rule): always in the nested shape,
 * whatever the error-shape fault says, since that fault stands for the service's API, not this path.
 */
export class ControlRefusal extends ApiFailure {}

export const badRequest = (message: string): ApiFailure => new ApiFailure(400, 'BAD_REQUEST', message);

export function errorBody(shape: ErrorShape, failure: ApiFailure, requestId: string): unknown {
  const flat = shape === 'flat' || (shape === 'flat-429' && failure.status === 429);
  if (flat) {
    return {
      error: failure.message,
      code: failure.code.toUpperCase(),
      status: failure.status,
      ...(failure.retryAfterS !== undefined ? { retry_after: failure.retryAfterS } : {}),
    };
  }
  return {
    error: {
      // Spec §7 shows the nested rate-limit code in lower case; the chat table's codes are upper case.
      code: failure.status === 429 ? failure.code.toLowerCase() : failure.code,
      message: failure.message,
      type: TYPE_BY_STATUS[failure.status] ?? 'api_error',
      request_id: requestId,
    },
  };
}

/** The failure an injected fault of `status` stands for. */
export function injectedFailure(status: number): ApiFailure {
  const code = CODE_BY_STATUS[status] ?? `HTTP_${status}`;
  // Spec §7: a rate limit's message names the seconds to wait.
  return status === 429
    ? new ApiFailure(
        status,
        code,
        `Injected fault: the mock answers ${status} ${code}. Retry after 1 second.`,
        1,
      )
    : new ApiFailure(status, code, `Injected fault: the mock answers ${status} ${code}.`);
}

/** What a broken proxy sends instead of a successful reply (the malformed-reply fault, 'bad-json'). */
export const NOT_JSON_BODY = '<html><body><h1>200 OK</h1>Injected fault: not JSON.</body></html>';
