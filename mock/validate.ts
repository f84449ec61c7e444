// Request checks that name the parameter or field at fault and its bounds (issue: bad input gets
// a clear error in the spec's shape).
import type { z } from 'zod';
import { badRequest } from './errors';

type Query = Record<string, unknown>;

/** Refuses query parameters an endpoint does not take, so a typo (`?page=2`) is not silently ignored. */
export function onlyParams(query: Query, allowed: readonly string[]): void {
  for (const name of Object.keys(query)) {
    if (!allowed.includes(name)) {
      throw badRequest(
        allowed.length === 0
          ? `This endpoint takes no query parameters (got '${name}').`
          : `Unknown query parameter '${name}'. Allowed: ${allowed.join(', ')}.`,
      );
    }
  }
}

function single(query: Query, name: string): string | undefined {
  const value = query[name];
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw badRequest(`Query parameter '${name}' must be given once.`);
  return value;
}

export function intParam(query: Query, name: string, min: number, max: number, fallback: number): number {
  const raw = single(query, name);
  if (raw === undefined) return fallback;
  const bounds =
    max === Number.MAX_SAFE_INTEGER ? `an integer of at least ${min}` : `an integer from ${min} to ${max}`;
  if (!/^-?\d+$/.test(raw))
    throw badRequest(`Query parameter '${name}' must be ${bounds} (got "${clip(raw)}").`);
  const value = Number(raw);
  if (max === Number.MAX_SAFE_INTEGER && value > max) {
    // Past 2^53 − 1 a number no longer names one integer: say where the range ends.
    throw badRequest(
      `Query parameter '${name}' must be at most ${max}, the largest safe integer (got ${clip(raw)}).`,
    );
  }
  if (value < min || value > max)
    throw badRequest(`Query parameter '${name}' must be ${bounds} (got ${clip(raw)}).`);
  return value;
}

export function stringParam(query: Query, name: string): string | undefined {
  const raw = single(query, name);
  if (raw === '') throw badRequest(`Query parameter '${name}' must not be empty.`);
  return raw;
}

/** Parses a JSON body against a strict schema, turning the first problem into a sentence. */
export function parseBody<T extends z.ZodType>(schema: T, body: unknown): z.infer<T> {
  if (body === undefined || body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw badRequest('Request body must be a JSON object.');
  }
  const result = schema.safeParse(body);
  if (result.success) return result.data;
  const issue = result.error.issues[0] as z.core.$ZodIssue;
  const field = issue.path.join('.');
  switch (issue.code) {
    case 'unrecognized_keys':
      throw badRequest(`Unknown field '${clip(issue.keys[0] ?? '')}'.`);
    case 'invalid_type':
      if ((body as Record<string, unknown>)[field] === undefined) {
        throw badRequest(`Field '${field}' is required.`);
      }
      throw badRequest(`Field '${field}' must be a ${issue.expected}.`);
    default:
      throw badRequest(`Field '${field}': ${issue.message}`);
  }
}

function clip(text: string): string {
  return text.length > 40 ? `${text.slice(0, 40)}…` : text;
}
