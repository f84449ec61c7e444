// One place that decides what a secret looks like and how it is masked, so the request log, the
// transcript files and anything else written to disk or shown agree (DESIGN.md §6: secrets never in
// logs — redact Authorization and anything key-shaped).
import { containsKeyShaped, KEY_SHAPED_SOURCE } from '../../shared/key-shape';

/**
 * DESIGN.md §2: a key is 3 alphanumerics + `_` + 32 alphanumerics, with no fixed prefix. Unanchored on
 * purpose: a key glued to other text ("key=ams_…", "Bearerams_…", a key inside a longer token) is still
 * found. The price is that any other identifier of that exact shape is masked too; in a log, hiding a
 * harmless id beats leaking a key.
 */
const KEY_SHAPED_ALL = new RegExp(KEY_SHAPED_SOURCE, 'g');

/** What a masked value starts with; a value that already starts with it is left alone (idempotence). */
const MASK = '***';

/** Shorter secrets are masked whole: four characters of an eight-character token is half of it. */
const MIN_LENGTH_TO_SHOW_TAIL = 12;

/**
 * Headers whose whole value is a credential, whatever its shape (a malformed key, a token from some
 * other scheme). Lower case; header names are compared case-insensitively. The `*-authorization` ones
 * keep their scheme; cookies are hidden whole, since a cookie's last characters may be all of its value.
 */
const SCHEMED_CREDENTIAL_HEADERS = new Set(['authorization', 'proxy-authorization']);
const TOKEN_HEADERS = new Set(['x-api-key', 'api-key']);
const OPAQUE_CREDENTIAL_HEADERS = new Set(['cookie', 'set-cookie']);

/** `***…abcd` — the last four characters only, as the key list shows them. */
export function maskSecret(secret: string): string {
  if (secret.startsWith(MASK)) return secret;
  if (secret.length < MIN_LENGTH_TO_SHOW_TAIL) return MASK;
  return `${MASK}…${secret.slice(-4)}`;
}

export { containsKeyShaped };

/** Replaces every key-shaped run in `text` with its mask; everything else is kept byte for byte. */
export function redactSecrets(text: string): string {
  // A cheap test first: most bodies hold no '_' at all, and then there is nothing to rebuild.
  if (!text.includes('_')) return text;
  return text.replace(KEY_SHAPED_ALL, maskSecret);
}

/**
 * A credential header keeps its scheme ("Bearer ***…abcd") so a reader can still tell how the call
 * authenticated; every other value only loses its key-shaped parts.
 */
export function redactHeaderValue(name: string, value: string): string {
  const lower = name.toLowerCase();
  if (OPAQUE_CREDENTIAL_HEADERS.has(lower)) return MASK;
  if (TOKEN_HEADERS.has(lower)) return maskSecret(value.trim());
  if (!SCHEMED_CREDENTIAL_HEADERS.has(lower)) return redactSecrets(value);
  const match = /^([A-Za-z][A-Za-z0-9._~+/-]*)\s+(\S.*)$/.exec(value.trim());
  if (match?.[1] && match[2]) return `${match[1]} ${maskSecret(match[2])}`;
  return maskSecret(value.trim());
}

export function redactHeaders(headers: Readonly<Record<string, string>>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    out[redactSecrets(name)] = redactHeaderValue(name, value);
  }
  return out;
}

/**
 * Key-shaped parts anywhere in the URL, and any `user:password@` part whole (a lone user name is often a
 * token). Done on the text rather than through `new URL()` so the logged URL is otherwise exactly what
 * was called.
 */
export function redactUrl(url: string): string {
  return redactSecrets(url.replace(/^([A-Za-z][A-Za-z0-9+.-]*:\/\/)[^/?#@]*@/, `$1${MASK}@`));
}
