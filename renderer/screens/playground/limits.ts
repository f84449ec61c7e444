// The service's input limits (spec §4, §8) checked as the user types, so a message the service
// would refuse is never sent and nothing typed is thrown away.
import { MAX_MESSAGE_BYTES, MAX_SESSION_ID_LENGTH, SESSION_ID_PATTERN } from '../../../shared/api-limits';

export { MAX_MESSAGE_BYTES };

/**
 * UTF-8 length without allocating an encoded copy: runs on every keystroke of a box that may
 * hold more than 100 KB. Lone surrogates count 3 bytes, as TextEncoder's U+FFFD replacement does.
 */
export function utf8ByteLength(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        bytes += 4;
        i++;
      } else bytes += 3;
    } else bytes += 3;
  }
  return bytes;
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(2)} MB`;
}

/** Why a pasted session id would be refused by the service (400), or undefined when it is fine. */
export function sessionIdProblem(id: string): string | undefined {
  if (id === '') return 'Enter a session id.';
  if (id.length > MAX_SESSION_ID_LENGTH) {
    return `A session id is at most ${MAX_SESSION_ID_LENGTH} characters; this one is ${id.length}.`;
  }
  if (!SESSION_ID_PATTERN.test(id)) return 'A session id has only letters and digits (A–Z, a–z, 0–9).';
  return undefined;
}

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** A new session id: 24 random alphanumerics, the shape the service accepts. */
export function newSessionId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(24));
  // 248 = 4 × 62: rejecting larger bytes keeps every character equally likely.
  let id = '';
  for (const b of bytes) if (b < 248) id += ALPHABET[b % 62];
  return id.length >= 16 ? id : newSessionId();
}
