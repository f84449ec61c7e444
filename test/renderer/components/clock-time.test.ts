// The transcript's times: the same words `toLocaleTimeString()` wrote before, from one formatter.
import { describe, expect, it } from 'vitest';
import { clockTime } from '../../../renderer/components/clock-time';

describe('clockTime', () => {
  it('writes the local time of day as toLocaleTimeString does, for times across a day', () => {
    const start = Date.parse('2026-11-24T00:00:00Z');
    for (let minutes = 0; minutes < 24 * 60; minutes += 97) {
      const at = start + minutes * 60_000 + 13_000;
      expect(clockTime(at)).toBe(new Date(at).toLocaleTimeString());
    }
  });
});
