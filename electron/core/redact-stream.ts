// Masking over a stream's joined text (issue 13, point 3): a key split across chunks is masked as
// surely as one that arrives whole. Text that could be the start of a key ("abc_XY…") is held back
// until it is either a whole key (then masked) or clearly not one; ordinary text passes through at
// once, chunk for chunk. The 1–3 characters before the `_` may already have gone out with the
// previous chunk; the rest of the key is then masked, so at most those 3 characters are ever shown.
import { KEY_SHAPED_SOURCE } from '../../shared/key-shape';
import { maskSecret, redactSecrets } from './redact';

const KEY_SHAPED_ALL = new RegExp(KEY_SHAPED_SOURCE, 'g');
/** A key that has begun but not ended: 3 alphanumerics, `_`, up to 31 more. */
const KEY_IN_PROGRESS = /^[A-Za-z0-9]{3}_[A-Za-z0-9]{0,31}$/;
/** How many already-sent characters can start a key that the next chunk ends. */
const TAIL = 3;

export class StreamRedactor {
  /** Ends with the last characters already passed on (`tail`): kept whole, sliced only when read. */
  private sentEnd = '';
  /** Characters held back: a possible key in progress. */
  private pending = '';

  /** Takes the next piece of the stream; returns what may be passed on now (maybe ''). */
  push(piece: string): string {
    // Nearly every piece: nothing held back and no `_` in it, so nothing to mask or hold.
    if (this.pending === '' && !piece.includes('_')) return this.sent(piece);
    const text = this.tail + this.pending + piece;
    const base = this.tail.length;
    if (!text.includes('_')) {
      this.pending = '';
      return this.sent(text.slice(base));
    }
    let out = '';
    let from = base;
    for (const match of text.matchAll(KEY_SHAPED_ALL)) {
      const end = match.index + match[0].length;
      out += text.slice(from, Math.max(from, match.index)) + maskSecret(match[0]);
      from = end;
    }
    let cut = text.length;
    const underscore = text.lastIndexOf('_');
    const start = underscore - TAIL;
    if (start >= (from === base ? 0 : from) && KEY_IN_PROGRESS.test(text.slice(start))) {
      cut = Math.max(start, from);
    }
    out += text.slice(from, cut);
    this.pending = text.slice(cut);
    return this.sent(out);
  }

  /** The end of the stream: whatever is still held back (an unfinished key is not a key). */
  flush(): string {
    const rest = redactSecrets(this.pending);
    this.pending = '';
    return this.sent(rest);
  }

  /** The last characters already passed on. */
  private get tail(): string {
    return this.sentEnd.slice(-TAIL);
  }

  private sent(text: string): string {
    this.sentEnd = text.length >= TAIL ? text : this.tail + text;
    return text;
  }
}

/** Masks a whole sequence of pieces (saved chunks) as one text; each piece keeps its place. */
export function redactPieces(pieces: readonly string[]): string[] {
  const redactor = new StreamRedactor();
  const out = pieces.map((piece) => redactor.push(piece));
  const rest = redactor.flush();
  if (rest !== '' && out.length > 0) out[out.length - 1] += rest;
  return out;
}

/**
 * Masks keys over pieces as one text, each piece keeping its own text otherwise (a stream's raw
 * frames, which the inspector shows as they came): a key is masked in the piece where it begins and
 * left out of the pieces it runs on into. With `open` (the stream not ended by [DONE]), what may be a
 * key still coming at the very end is left out as well, as the stream's chunks hold it back. Returns
 * `pieces` itself when there is nothing to mask.
 */
export function maskAcrossPieces(pieces: readonly string[], open: boolean): readonly string[] {
  if (!pieces.some((piece) => piece.includes('_'))) return pieces;
  const text = pieces.join('');
  const hidden: { start: number; end: number; mask: string }[] = [];
  let keysEnd = 0;
  for (const match of text.matchAll(KEY_SHAPED_ALL)) {
    keysEnd = match.index + match[0].length;
    hidden.push({ start: match.index, end: keysEnd, mask: maskSecret(match[0]) });
  }
  const coming = text.lastIndexOf('_') - TAIL;
  if (open && coming >= keysEnd && KEY_IN_PROGRESS.test(text.slice(coming))) {
    hidden.push({ start: coming, end: text.length, mask: '' });
  }
  if (hidden.length === 0) return pieces;
  const out: string[] = [];
  let next = 0;
  let at = 0;
  for (const piece of pieces) {
    const end = at + piece.length;
    let masked = '';
    let from = at;
    for (let range = hidden[next]; range !== undefined && range.start < end; range = hidden[next]) {
      if (range.start > from) masked += text.slice(from, range.start);
      if (range.start >= at) masked += range.mask;
      from = Math.max(from, Math.min(range.end, end));
      if (range.end > end) break;
      next++;
    }
    out.push(masked + text.slice(from, end));
    at = end;
  }
  return out;
}
