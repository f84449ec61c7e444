import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { redactSecrets, rememberSecret } from '../../electron/core/redact';
import { maskAcrossPieces, redactPieces, StreamRedactor } from '../../electron/core/redact-stream';
import { keyPieces, plantKey } from './leak-check';

/** Splits `text` at the given offsets. */
function split(text: string, offsets: number[]): string[] {
  const cuts = [...new Set(offsets.map((o) => o % (text.length + 1)))].sort((a, b) => a - b);
  const out: string[] = [];
  let last = 0;
  for (const cut of [...cuts, text.length]) {
    out.push(text.slice(last, cut));
    last = cut;
  }
  return out;
}

describe('StreamRedactor: masking over the joined stream text', () => {
  test('a key split at every single offset never passes in 8 characters', () => {
    const key = plantKey();
    const text = `Incorrect API key provided: ${key}. Check it.`;
    for (let a = 0; a <= text.length; a++) {
      const joined = redactPieces([text.slice(0, a), text.slice(a)]).join('');
      expect(keyPieces(joined, key)).toEqual([]);
      expect(joined).toContain(`***…${key.slice(-4)}`);
      expect(joined.endsWith('. Check it.')).toBe(true);
    }
  });

  test('any split into many pieces, one character each included, leaks nothing', () => {
    fc.assert(
      fc.property(
        fc.string({ maxLength: 40 }),
        fc.string({ maxLength: 40 }),
        fc.array(fc.nat(), { maxLength: 40 }),
        (before, after, offsets) => {
          const key = plantKey();
          const text = `${before}${key}${after}`;
          const out = redactPieces(split(text, offsets)).join('');
          expect(keyPieces(out, key)).toEqual([]);
        },
      ),
      { numRuns: 500 },
    );
    const key = plantKey();
    expect(keyPieces(redactPieces([...`x ${key} y`]).join(''), key)).toEqual([]);
  });

  test('text with no key passes unchanged, chunk for chunk', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 120 }), fc.array(fc.nat(), { maxLength: 20 }), (text, offsets) => {
        const pieces = split(text, offsets);
        const out = redactPieces(pieces);
        expect(out.join('')).toBe(redactSecrets(text));
        if (!text.includes('_')) expect(out).toEqual(pieces);
      }),
      { numRuns: 500 },
    );
  });

  test('held-back text that never becomes a key is passed on at the end', () => {
    const redactor = new StreamRedactor();
    const parts = [redactor.push('see snake_case'), redactor.push('_name'), redactor.push(' here')];
    expect(parts[0]).toBe('see sn');
    expect(parts.join('')).toBe('see snake_case_name here');
    expect(redactor.push(' abc_de')).toBe(' ');
    expect(redactor.flush()).toBe('abc_de');
  });
});

describe("maskAcrossPieces: a stream's raw frames, each keeping its own text", () => {
  test('a key split across pieces at any offsets is masked where it begins; the rest stays in its piece', () => {
    fc.assert(
      fc.property(
        fc.string({ maxLength: 30 }).filter((t) => !t.includes('_')),
        fc.string({ maxLength: 30 }).filter((t) => !t.includes('_')),
        fc.array(fc.nat(), { maxLength: 6 }),
        (before, after, offsets) => {
          const key = plantKey();
          const pieces = split(`${before}${key}${after}`, offsets);
          const out = maskAcrossPieces(pieces, false);
          expect(out).toHaveLength(pieces.length);
          expect(out.join('')).toBe(`${before}***…${key.slice(-4)}${after}`);
          // The piece the key began in carries the mask; every other piece is as it came, less the key.
          const begins = pieces.findIndex((_, i) => pieces.slice(0, i + 1).join('').length > before.length);
          out.forEach((piece, i) => {
            expect(keyPieces(piece, key)).toEqual([]);
            if (i === begins) expect(piece).toContain(`***…${key.slice(-4)}`);
          });
          expect(out[0]?.startsWith(before.slice(0, pieces[0]?.length ?? 0))).toBe(true);
        },
      ),
      { numRuns: 300 },
    );
  });

  test('text that only looks like the start of a key stays in its piece; one still arriving is left out', () => {
    expect(maskAcrossPieces(['0A0_', ''], false)).toEqual(['0A0_', '']);
    expect(maskAcrossPieces(['see snake_', 'case here'], false)).toEqual(['see snake_', 'case here']);
    const pieces = ['text ', 'abc_', 'DEF'];
    expect(maskAcrossPieces(pieces, false)).toBe(pieces);
    expect(maskAcrossPieces(pieces, true)).toEqual(['text ', '', '']);
    const plain = ['no', ' underscores'];
    expect(maskAcrossPieces(plain, true)).toBe(plain);
  });
});

describe('a remembered secret of any shape, split across chunks', () => {
  test('never passes whole or in 8-character pieces, at every offset, and the rest passes as it came', () => {
    const secret = `ci-${plantKey().replace('_', '-')}`;
    rememberSecret(secret);
    const text = `token=${secret}; the rest.`;
    for (let a = 0; a <= text.length; a++) {
      for (const b of [a, Math.min(text.length, a + 7)]) {
        const pieces = [text.slice(0, a), text.slice(a, b), text.slice(b)];
        const joined = redactPieces(pieces).join('');
        expect(joined).toBe(`token=***…${secret.slice(-4)}; the rest.`);
        const frames = maskAcrossPieces(pieces, false);
        expect(keyPieces(frames.join(''), secret)).toEqual([]);
      }
    }
    // While the stream is open, the first characters of the secret at the very end stay out.
    expect(maskAcrossPieces(['token=', secret.slice(0, 9)], true)).toEqual(['token=', '']);
  });
});
