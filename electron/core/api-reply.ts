// A service reply at the client's boundary: its headers one string each and masked, its rate-limit
// headers as numbers, its body read only up to a limit, and a JSON body checked by the tolerant
// reader (shared/received.ts) once every string in it is masked. Nothing past here sees a secret a
// server echoed, or a reply larger or deeper than this console takes (reply-limits.ts).
import type { z } from 'zod';
import type { RateHeaders } from '../../shared/request-log-entry';
import { ApiError } from './api-error';
import { redactSecrets, redactValue } from './redact';
import { MAX_JSON_DEPTH, megabytes, nestsDeeperThan } from './reply-limits';

export function rateFrom(headers: Record<string, string>): RateHeaders {
  const num = (name: string): number | undefined => {
    const value = headers[name];
    const n = value === undefined ? NaN : Number(value);
    return Number.isFinite(n) ? n : undefined;
  };
  return {
    limit: num('x-ratelimit-limit'),
    remaining: num('x-ratelimit-remaining'),
    reset: num('x-ratelimit-reset'),
    retryAfterS: num('retry-after'),
  };
}

/** A reply's headers, one string each, redacted: nothing past here sees a secret a server echoed. */
export function receivedHeaders(raw: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(raw)) {
    if (value === undefined) continue;
    out[redactSecrets(name.toLowerCase())] = redactSecrets(Array.isArray(value) ? value.join(', ') : value);
  }
  return out;
}

/**
 * A reply's body as text, read only up to `maxBytes`: past that (or a Content-Length that says so)
 * the rest is not read, and the call fails with REPLY_TOO_LARGE.
 */
export async function readBody(
  res: {
    statusCode: number;
    headers: Record<string, string | string[] | undefined>;
    body: AsyncIterable<Buffer> & { destroy(): unknown };
  },
  maxBytes: number,
  requestId: string | undefined,
): Promise<string> {
  const tooLarge = (): ApiError => {
    res.body.destroy();
    return new ApiError({
      status: res.statusCode,
      code: 'REPLY_TOO_LARGE',
      message: `The service's reply is larger than ${megabytes(maxBytes)}, more than this console reads; it was not read.`,
      requestId,
    });
  };
  if (Number(res.headers['content-length']) > maxBytes) throw tooLarge();
  const pieces: Buffer[] = [];
  let bytes = 0;
  for await (const piece of res.body) {
    bytes += piece.byteLength;
    if (bytes > maxBytes) throw tooLarge();
    pieces.push(piece);
  }
  return Buffer.concat(pieces, bytes).toString('utf8');
}

function describeZodError(error: z.ZodError, what: string): string {
  const issue = error.issues[0];
  const field = issue?.path.length ? issue.path.join('.') : '(root)';
  return `${what} does not match the service spec: field '${field}': ${issue?.message ?? 'invalid'}.`;
}

/**
 * A successful reply's JSON body (`what` names it in messages: "The reply to GET /api/v1/agents"),
 * masked and checked by `schema`; INVALID_RESPONSE, naming the field, when it is not what the
 * client relies on.
 */
export function parseReply<T extends z.ZodType>(
  schema: T,
  what: string,
  text: string,
  requestId: string | undefined,
): z.infer<T> {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new ApiError({
      status: 200,
      code: 'INVALID_RESPONSE',
      // Masked before it is cut: a key across the cut would lose its shape, not its secret.
      message: `${what} is not JSON: ${redactSecrets(text).slice(0, 120) || '(empty body)'}`,
      requestId,
    });
  }
  if (nestsDeeperThan(json, MAX_JSON_DEPTH)) {
    throw new ApiError({
      status: 200,
      code: 'INVALID_RESPONSE',
      message: `${what} is nested deeper than ${MAX_JSON_DEPTH} levels, which no reply of the service is; it was not read.`,
      requestId,
    });
  }
  // The boundary: every string the service sent, at any depth, is redacted before the core sees it.
  const result = schema.safeParse(redactValue(json));
  if (!result.success) {
    throw new ApiError({
      status: 200,
      code: 'INVALID_RESPONSE',
      message: describeZodError(result.error, what),
      requestId,
    });
  }
  return result.data;
}
