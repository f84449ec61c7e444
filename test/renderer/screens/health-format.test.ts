// The Health screen's interval list says every choice in one format: words, not "1 h" beside
// "15 minutes".
import { expect, test } from 'vitest';
import { intervalWords } from '../../../renderer/screens/health/health-format';

test('every interval in words, singular and plural, hours too', () => {
  expect([10_000, 30_000, 60_000, 120_000, 300_000, 900_000, 3_600_000].map(intervalWords)).toEqual([
    '10 seconds',
    '30 seconds',
    '1 minute',
    '2 minutes',
    '5 minutes',
    '15 minutes',
    '1 hour',
  ]);
  // An interval set elsewhere (the CLI, a monitor file) reads the same way.
  expect(intervalWords(90_000)).toEqual('1 minute 30 seconds');
  expect(intervalWords(7_200_000)).toEqual('2 hours');
});
