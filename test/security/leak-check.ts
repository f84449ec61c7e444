// The leak suite's one question: does this text hold the key, or any 8-character piece of it?
const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** A key of the real shape (docs/decisions.md) with a prefix of its own. */
export function plantKey(prefix = 'lk7'): string {
  let body = '';
  for (let i = 0; i < 32; i++) body += ALNUM[Math.floor(Math.random() * ALNUM.length)];
  return `${prefix}_${body}`;
}

/** Every 8-character piece of `key` found in `text` (none means no leak). */
export function keyPieces(text: string, key: string): string[] {
  const found: string[] = [];
  for (let i = 0; i + 8 <= key.length; i++) {
    const piece = key.slice(i, i + 8);
    if (text.includes(piece)) found.push(piece);
  }
  return found;
}

/**
 * Every `size`-character run of `key` found in `text` (none means no leak). The hostile-server
 * suite's test: a mask may show the last 4 characters, but no output holds 12 in a row.
 */
export function keyRuns(text: string, key: string, size = 12): string[] {
  const found: string[] = [];
  for (let i = 0; i + size <= key.length; i++) {
    const run = key.slice(i, i + size);
    if (text.includes(run)) found.push(run);
  }
  return found;
}
