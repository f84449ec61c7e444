// One place that decides what a secret looks like and how it is masked, so the boundary where a
// server's reply is decoded, the request log, the files in the data folder and every other output
// agree (docs/security.md, "Redaction"). A secret is two things here:
//  - anything key-shaped (shared/key-shape.ts), whether the console has seen that key or not;
//  - a secret this process knows (`rememberSecret`): every key read from the vault, a webhook URL,
//    a value a suite file declared in its `env:` list. Masked wherever it appears, whatever its shape.
// Both are found in decoded text and in JSON's wire form: a server that writes a key's `_` as
// `\u005f`, or a URL's `/` as `\/`, hides nothing from the mask.
import { containsKeyShaped, KEY_SHAPED_SOURCE } from '../../shared/key-shape';

/**
 * A key is 3 alphanumerics + `_` + 32 alphanumerics, with no fixed prefix. Unanchored on purpose: a
 * key glued to other text ("key=ams_…", "Bearerams_…", a key inside a longer token) is still found.
 * The price is that any other identifier of that exact shape is masked too; in a log, hiding a
 * harmless id beats leaking a key.
 */
const KEY_SHAPED_ALL = new RegExp(KEY_SHAPED_SOURCE, 'g');

/** One character of a key as JSON may write it: itself, or a `\u00XX` escape of it. */
const WIRE_ALNUM = String.raw`(?:[A-Za-z0-9]|\\u00(?:3[0-9]|[46][1-9A-Fa-f]|[57][0-9Aa]))`;
/** A key-shaped run in JSON's wire form, any of its characters escaped. */
const KEY_SHAPED_WIRE = new RegExp(String.raw`${WIRE_ALNUM}{3}(?:_|\\u005[Ff])${WIRE_ALNUM}{32}`, 'g');
const JSON_ESCAPE = /\\u([0-9A-Fa-f]{4})|\\(["\\/bfnrt])/g;
const SIMPLE_ESCAPES: Readonly<Record<string, string>> = {
  '"': '"',
  '\\': '\\',
  '/': '/',
  b: '\b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
};

/** What a masked value starts with; a value that already starts with it is left alone (idempotence). */
const MASK = '***';

/** Shorter secrets are masked whole: four characters of an eight-character token is half of it. */
const MIN_LENGTH_TO_SHOW_TAIL = 12;

/**
 * Below this, a remembered value is not masked: masking "yes" or "1" would garble every output it
 * occurs in, and so short a value is no secret worth the name (CI systems draw the same line).
 */
export const MIN_REMEMBERED_SECRET_LENGTH = 8;

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

/** A remembered secret, with the pattern that finds it in JSON's wire form, made when first needed. */
interface Remembered {
  value: string;
  mask: string;
  wire?: RegExp;
}

/** Every secret this process has been told of, longest first (a secret inside another is masked with it). */
let remembered: Remembered[] = [];

/**
 * Tells the masking of a secret that is not key-shaped, or that must be masked even where the key
 * shape is broken up: from now on it is masked in every output of this process. Values shorter than
 * MIN_REMEMBERED_SECRET_LENGTH are not (see there); returns whether the value will be masked.
 */
export function rememberSecret(value: string): boolean {
  if (value.length < MIN_REMEMBERED_SECRET_LENGTH) return false;
  if (remembered.some((known) => known.value === value)) return true;
  remembered = [...remembered, { value, mask: maskSecret(value) }].sort(
    (a, b) => b.value.length - a.value.length,
  );
  return true;
}

/** The remembered secrets (the streaming redactor holds back text that may begin one). */
export function rememberedSecrets(): readonly string[] {
  return remembered.map((known) => known.value);
}

/** `text` as a pattern that matches exactly it. */
export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** `value` as a pattern that also matches it with any of its characters JSON-escaped. */
function wirePattern(value: string): RegExp {
  let source = '';
  for (const char of value) {
    const code = char.codePointAt(0) as number;
    const forms = [escapeRegExp(char)];
    if (code <= 0xffff) {
      const hex = code.toString(16).padStart(4, '0');
      const mixed = [...hex].map((h) => (/[a-f]/.test(h) ? `[${h}${h.toUpperCase()}]` : h)).join('');
      forms.push(`\\\\u${mixed}`);
    }
    const simple = Object.entries(SIMPLE_ESCAPES).find(([, decoded]) => decoded === char)?.[0];
    if (simple !== undefined) forms.push(`\\\\${escapeRegExp(simple)}`);
    source += `(?:${forms.join('|')})`;
  }
  return new RegExp(source, 'g');
}

function decodeJsonEscapes(text: string): string {
  return text.replace(JSON_ESCAPE, (_whole, hex: string | undefined, simple: string | undefined) =>
    hex !== undefined ? String.fromCharCode(parseInt(hex, 16)) : (SIMPLE_ESCAPES[simple as string] as string),
  );
}

/**
 * Replaces every secret in `text` with its mask — remembered secrets, then key-shaped runs, each
 * also when JSON-escaped — and keeps everything else byte for byte.
 */
export function redactSecrets(text: string): string {
  const escaped = text.includes('\\');
  for (const known of remembered) {
    if (text.includes(known.value)) text = text.replaceAll(known.value, known.mask);
    if (escaped) {
      known.wire ??= wirePattern(known.value);
      text = text.replace(known.wire, known.mask);
    }
  }
  // A cheap test first: most text holds no '_' at all, and then there is nothing to rebuild.
  if (text.includes('_')) text = text.replace(KEY_SHAPED_ALL, maskSecret);
  if (escaped && text.includes('\\u')) {
    text = text.replace(KEY_SHAPED_WIRE, (wire) => maskSecret(decodeJsonEscapes(wire)));
  }
  return text;
}

/** What secret `text` holds, if any: something key-shaped, or a secret this process remembers. */
export function secretIn(text: string): 'key' | 'remembered' | undefined {
  if (containsKeyShaped(text)) return 'key';
  return remembered.some((known) => text.includes(known.value)) ? 'remembered' : undefined;
}

/**
 * A credential header keeps its scheme ("Bearer ***…abcd") so a reader can still tell how the call
 * authenticated; every other value only loses its secrets.
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

/**
 * Every string of a decoded value — object keys too, at any depth — redacted; the value itself when
 * nothing changed, else a copy. Walks with its own stack: a value nested deeper than the call stack
 * allows is walked all the same.
 */
export function redactValue<T>(value: T): T {
  if (typeof value === 'string') return redactSecrets(value) as T;
  if (typeof value !== 'object' || value === null) return value;
  return redactTree(value) as T;
}

type Container = Record<string, unknown> | unknown[];

function redactTree(root: object): object {
  // Post-order over an explicit stack: a container is rebuilt only when something below it changed.
  const copies = new Map<object, Container>();
  const stack: { node: Container; done: boolean }[] = [{ node: root as Container, done: false }];
  const seen = new Set<object>();
  while (stack.length > 0) {
    const top = stack[stack.length - 1] as { node: Container; done: boolean };
    if (!top.done) {
      top.done = true;
      if (seen.has(top.node)) {
        stack.pop();
        continue;
      }
      seen.add(top.node);
      for (const child of Object.values(top.node)) {
        if (typeof child === 'object' && child !== null && !seen.has(child)) {
          stack.push({ node: child as Container, done: false });
        }
      }
      continue;
    }
    stack.pop();
    const node = top.node;
    const fresh = (child: unknown): unknown =>
      typeof child === 'string'
        ? redactSecrets(child)
        : typeof child === 'object' && child !== null
          ? (copies.get(child) ?? child)
          : child;
    if (Array.isArray(node)) {
      let copy: unknown[] | undefined;
      node.forEach((child, index) => {
        const next = fresh(child);
        if (next !== child) (copy ??= [...node])[index] = next;
      });
      if (copy) copies.set(node, copy);
      continue;
    }
    let copy: Record<string, unknown> | undefined;
    for (const [key, child] of Object.entries(node)) {
      const safeKey = redactSecrets(key);
      const next = fresh(child);
      if (next === child && safeKey === key) continue;
      if (!copy) {
        copy = {};
        for (const [k, v] of Object.entries(node)) copy[k] = v;
      }
      if (safeKey !== key) delete copy[key];
      copy[safeKey] = next;
    }
    if (copy) copies.set(node, copy);
  }
  return copies.get(root) ?? root;
}
