// Any failure, turned into what the renderer may see: a code it can act on and words a person can
// read, never a stack. The service's errors keep their status, request id and partial reply.
import { z } from 'zod';
import type { BridgeError } from '../../shared/bridge';
import { ApiFailure } from '../../mock/errors';
import { ApiError } from '../core/api-error';
import { CoreError } from '../core/core-error';
import { redactSecrets } from '../core/redact';

/** What the renderer may see of a failure: masked here too, whatever kind of error it was. */
export function toBridgeError(error: unknown): BridgeError {
  const raw = describe(error);
  return {
    ...raw,
    code: redactSecrets(raw.code),
    message: redactSecrets(raw.message),
    ...(raw.requestId !== undefined ? { requestId: redactSecrets(raw.requestId) } : {}),
    ...(raw.partial !== undefined ? { partial: redactSecrets(raw.partial) } : {}),
  };
}

function describe(error: unknown): BridgeError {
  if (error instanceof ApiError) {
    return {
      code: error.code,
      message: error.message,
      ...(error.status ? { status: error.status } : {}),
      ...(error.requestId ? { requestId: error.requestId } : {}),
      ...(error.retryAfterS !== undefined ? { retryAfterS: error.retryAfterS } : {}),
      ...(error.partial !== undefined ? { partial: error.partial } : {}),
    };
  }
  if (error instanceof CoreError) return { code: error.code, message: error.message };
  // The in-process mock's control refusing a change (an unknown agent, a bad tier).
  if (error instanceof ApiFailure) return { code: error.code, message: error.message, status: error.status };
  if (error instanceof z.ZodError) {
    const issue = error.issues[0];
    const field = issue?.path.join('.') || 'input';
    return { code: 'BAD_INPUT', message: `Invalid ${field}: ${issue?.message ?? 'not accepted'}.` };
  }
  return {
    code: 'INTERNAL',
    message: `The console core failed: ${(error as Error)?.message ?? String(error)}`,
  };
}
