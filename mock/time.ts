/** The UTC calendar date (YYYY-MM-DD) of a millisecond timestamp. */
export function isoDate(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}
