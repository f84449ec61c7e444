import { randomBytes, randomUUID } from 'node:crypto';

const ALPHANUMERIC = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

export function alphanumeric(length: number): string {
  const bytes = randomBytes(length * 2);
  let out = '';
  // 248 = 4 * 62: rejecting bytes above it keeps every character equally likely.
  for (let i = 0; i < bytes.length && out.length < length; i++) {
    const b = bytes[i] as number;
    if (b < 248) out += ALPHANUMERIC[b % 62];
  }
  return out.length === length ? out : out + alphanumeric(length - out.length);
}

/** docs/decisions.md: the mock issues keys with the `ams_` prefix (36 characters in all). */
export function newApiKey(): string {
  return `ams_${alphanumeric(32)}`;
}

export const newId = (prefix: string): string => `${prefix}_${alphanumeric(20)}`;
export const newUuid = (): string => randomUUID();

/** Last four characters, the only part of a key the mock ever logs or lists. */
export function maskKey(secret: string): string {
  return `${secret.slice(0, 4)}…${secret.slice(-4)}`;
}

const BOOT = alphanumeric(8);
let sequence = 0;
/** Request ids are unique per boot and cheap: a random boot prefix and a counter (no crypto per request). */
export function newRequestId(): string {
  sequence = (sequence + 1) % Number.MAX_SAFE_INTEGER;
  return `req_${BOOT}${sequence.toString(36).padStart(8, '0')}`;
}
