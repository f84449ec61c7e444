// Masking over a stream's joined text: a secret split across chunks is masked as surely as one that
// arrives whole. Text that could be the start of a secret ("abc_XY…", the first characters of a
// remembered one) is held back until it is either a whole secret (then masked) or clearly not one;
// ordinary text passes through at once, chunk for chunk. The 1–3 characters before a key's `_` may
// already have gone out with the previous chunk; the rest of the key is then masked, so at most those
// 3 characters are ever shown.
import { KEY_SHAPED_SOURCE } from '../../shared/key-shape';
import { maskSecret, redactSecrets, rememberedSecrets } from './redact';

const KEY_SHAPED_ALL = new RegExp(KEY_SHAPED_SOURCE, 'g');
/** A key that has begun but not ended: 3 alphanumerics, `_`, up to 31 more. */
const KEY_IN_PROGRESS = /^[A-Za-z0-9]{3}_[A-Za-z0-9]{0,31}$/;
/** How many already-sent characters can start a key that the next chunk ends. */
const TAIL = 3;

/** A stretch of the joined text that is a secret, and what it shows instead. */
interface Hidden {
  start: number;
  end: number;
  mask: string;
}

/** Every secret in `text`, key-shaped or remembered, in order; overlapping ones merged. */
function hiddenIn(text: string, secrets: readonly string[]): Hidden[] {
  const found: Hidden[] = [];
  for (const secret of secrets) {
    for (let at = text.indexOf(secret); at !== -1; at = text.indexOf(secret, at + secret.length)) {
      found.push({ start: at, end: at + secret.length, mask: maskSecret(secret) });
    }
  }
  if (text.includes('_')) {
    for (const match of text.matchAll(KEY_SHAPED_ALL)) {
      found.push({ start: match.index, end: match.index + match[0].length, mask: maskSecret(match[0]) });
    }
  }
  if (found.length < 2) return found;
  found.sort((a, b) => a.start - b.start || b.end - a.end);
  const merged: Hidden[] = [];
  for (const range of found) {
    const last = merged[merged.length - 1];
    if (last && range.start < last.end) last.end = Math.max(last.end, range.end);
    else merged.push({ ...range });
  }
  return merged;
}

/**
 * Where the secret that may still be arriving at the end of `text` begins (a key in progress, or the
 * first characters of a remembered secret), at or after `from`; `text.length` when none.
 */
function comingFrom(text: string, from: number, secrets: readonly string[]): number {
  let cut = text.length;
  const start = text.lastIndexOf('_') - TAIL;
  if (start >= from && KEY_IN_PROGRESS.test(text.slice(start))) cut = start;
  for (const secret of secrets) {
    const first = secret[0] as string;
    for (let at = Math.max(from, text.length - secret.length + 1); at < cut; at++) {
      if (text[at] === first && secret.startsWith(text.slice(at))) {
        cut = at;
        break;
      }
    }
  }
  return cut;
}

export class StreamRedactor {
  /** Ends with the last characters already passed on (`tail`): kept whole, sliced only when read. */
  private sentEnd = '';
  /** Characters held back: a possible secret in progress. */
  private pending = '';

  /** Takes the next piece of the stream; returns what may be passed on now (maybe ''). */
  push(piece: string): string {
    const secrets = rememberedSecrets();
    // Nearly every piece: nothing held back, no `_` and nothing that begins a remembered secret.
    if (this.pending === '' && !piece.includes('_') && !secrets.some((s) => piece.includes(s[0] as string))) {
      return this.sent(piece);
    }
    const text = this.tail + this.pending + piece;
    const base = this.tail.length;
    let out = '';
    let from = base;
    for (const range of hiddenIn(text, secrets)) {
      if (range.end <= base) continue;
      out += text.slice(from, Math.max(from, range.start)) + range.mask;
      from = range.end;
    }
    const cut = comingFrom(text, from === base ? 0 : from, secrets);
    out += text.slice(from, Math.max(cut, from));
    this.pending = text.slice(Math.max(cut, from));
    return this.sent(out);
  }

  /** The end of the stream: whatever is still held back (an unfinished secret is not a secret). */
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
 * Masks secrets over pieces as one text, each piece keeping its own text otherwise (a stream's raw
 * frames, which the inspector shows as they came): a secret is masked in the piece where it begins
 * and left out of the pieces it runs on into. With `open` (the stream not ended by [DONE]), what may
 * be a secret still coming at the very end is left out as well, as the stream's chunks hold it back.
 * Returns `pieces` itself when there is nothing to mask.
 */
export function maskAcrossPieces(pieces: readonly string[], open: boolean): readonly string[] {
  const secrets = rememberedSecrets();
  if (!pieces.some((piece) => piece.includes('_') || secrets.some((s) => piece.includes(s[0] as string)))) {
    return pieces;
  }
  const text = pieces.join('');
  const hidden = hiddenIn(text, secrets);
  const keysEnd = hidden[hidden.length - 1]?.end ?? 0;
  const coming = open ? comingFrom(text, keysEnd, secrets) : text.length;
  if (coming < text.length) hidden.push({ start: coming, end: text.length, mask: '' });
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
