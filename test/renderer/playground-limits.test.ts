// The playground's checks of what the user typed, against the service's limits (spec §4, §8).
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import {
  MAX_MESSAGE_BYTES,
  newSessionId,
  sessionIdProblem,
  utf8ByteLength,
} from '../../renderer/screens/playground/limits';

describe('utf8ByteLength', () => {
  test('counts UTF-8 bytes, not characters', () => {
    expect(utf8ByteLength('')).toBe(0);
    expect(utf8ByteLength('abc')).toBe(3);
    expect(utf8ByteLength('é')).toBe(2);
    expect(utf8ByteLength('数据')).toBe(6);
    expect(utf8ByteLength('🚀')).toBe(4);
    expect(utf8ByteLength('é'.repeat(51_201))).toBeGreaterThan(MAX_MESSAGE_BYTES);
  });

  test('agrees with TextEncoder on any string, lone surrogates included', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (text) => {
        expect(utf8ByteLength(text)).toBe(new TextEncoder().encode(text).length);
      }),
    );
  });
});

describe('session ids', () => {
  test('are checked as the service checks them', () => {
    expect(sessionIdProblem('abc123')).toBeUndefined();
    expect(sessionIdProblem('a'.repeat(128))).toBeUndefined();
    expect(sessionIdProblem('a'.repeat(129))).toMatch(/at most 128 characters; this one is 129/);
    expect(sessionIdProblem('with space')).toMatch(/only letters and digits/);
    expect(sessionIdProblem('dash-ed')).toMatch(/only letters and digits/);
    expect(sessionIdProblem('')).toMatch(/Enter a session id/);
  });

  test('new ones are accepted by that check and do not repeat', () => {
    const ids = new Set(Array.from({ length: 200 }, () => newSessionId()));
    expect(ids.size).toBe(200);
    for (const id of ids) expect(sessionIdProblem(id)).toBeUndefined();
  });
});
