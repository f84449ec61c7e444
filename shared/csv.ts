// CSV as RFC 4180 writes it and as spreadsheets read it: one place for the quoting and for the
// rule that keeps a spreadsheet from running a cell. What goes into these files comes from the
// service (a conversation's status is any string, an agent's slug is the service's), and support
// staff open them in Excel.

/**
 * Text a spreadsheet would run as a formula: `=`, `+`, `-` or `@` first — also after leading spaces,
 * which Excel and LibreOffice skip before they look — or a tab or carriage return first (OWASP,
 * "CSV injection"). Such a cell gets a leading apostrophe, which the spreadsheet shows as text.
 */
const FORMULA_START = /^(?:[\s\u00a0\u3000]*[=+\-@\uff1d\uff0b\uff0d\uff20]|[\t\r])/;

/** One field: quoted when it holds a quote, comma or line break (RFC 4180 §2.6-2.7). */
export function csvField(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return String(value);
  const safe = FORMULA_START.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

/** A header row, then one line per row; CRLF line ends, as RFC 4180 asks and Excel expects. */
export function csvText(
  columns: readonly string[],
  rows: readonly (readonly (string | number | null | undefined)[])[],
): string {
  return [columns, ...rows].map((row) => row.map(csvField).join(',')).join('\r\n') + '\r\n';
}
