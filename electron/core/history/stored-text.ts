// Text as the history database keeps it. SQLite's text is UTF-8 read back up to its first NUL, so a
// NUL or a lone surrogate (valid in a JS string, and in an id a server may send) would come back
// cut short or as U+FFFD, and two ids could become one. Those characters, and the escape character
// itself, are written as U+0001 and a short code; everything else is kept as it is, so the
// full-text index sees the words people typed.
const ESCAPE = '\u0001';
// eslint-disable-next-line no-control-regex -- NUL and the escape character are what is escaped
const NEEDS_ESCAPE = /[\0\u0001]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const NEEDS_ESCAPE_ALL = new RegExp(NEEDS_ESCAPE.source, 'g');
// eslint-disable-next-line no-control-regex -- the escape character starts each code
const ESCAPED = /\u0001(?:(0)|(\u0001)|u([0-9a-f]{4}))/g;

export function storedText(text: string): string {
  if (!NEEDS_ESCAPE.test(text)) return text;
  return text.replace(NEEDS_ESCAPE_ALL, (c) =>
    c === '\0'
      ? `${ESCAPE}0`
      : c === ESCAPE
        ? `${ESCAPE}${ESCAPE}`
        : `${ESCAPE}u${c.charCodeAt(0).toString(16)}`,
  );
}

export function shownText(text: string): string {
  if (!text.includes(ESCAPE)) return text;
  return text.replace(
    ESCAPED,
    (_, nul: string | undefined, esc: string | undefined, hex: string | undefined) =>
      nul ? '\0' : esc ? ESCAPE : String.fromCharCode(parseInt(hex as string, 16)),
  );
}

/** storedText for a value that may be absent. */
export function storedOrNull(text: string | undefined | null): string | null {
  return text === undefined || text === null ? null : storedText(text);
}
