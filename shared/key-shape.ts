// What an API key looks like (docs/decisions.md: 3 alphanumerics, `_`, 32 alphanumerics, no fixed
// prefix), for the core's masking and the renderer's "never store a key" checks alike.

/** Unanchored: a key glued to other text is still found. */
export const KEY_SHAPED_SOURCE = '[A-Za-z0-9]{3}_[A-Za-z0-9]{32}';
const KEY_SHAPED_ANY = new RegExp(KEY_SHAPED_SOURCE);

/** True when `text` holds anything shaped like an API key. */
export function containsKeyShaped(text: string): boolean {
  return KEY_SHAPED_ANY.test(text);
}
