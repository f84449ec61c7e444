// The `wordsPerChunk` knob of the storyteller (mock/agent-replies.ts): bigger chunks, same count,
// so the bench can stream 1 MB in 20,000 chunks at full speed.
import fc from 'fast-check';
import { expect, test } from 'vitest';
import { composeChunks, composeReply, splitIntoChunks } from '../../mock/agent-replies';
import type { AgentRecord } from '../../mock/state';

const story = (tuning: Partial<AgentRecord['tuning']>): AgentRecord =>
  ({
    tuning: {
      behaviour: 'story',
      latencyMs: 0,
      chunkDelayMs: 0,
      chunkCount: 50,
      failAfterChunks: 0,
      ...tuning,
    },
  }) as AgentRecord;

test('one word per chunk by default; wordsPerChunk words per chunk when set, still chunkCount chunks', () => {
  const plain = story({});
  const words = splitIntoChunks(plain, composeReply(plain, 'hi', []));
  expect(words).toHaveLength(50);
  expect(words.every((w) => !w.trim().includes(' '))).toBe(true);

  const big = story({ wordsPerChunk: 9 });
  const text = composeReply(big, 'hi', []);
  const chunks = splitIntoChunks(big, text);
  expect(chunks).toHaveLength(50);
  expect(chunks.join('')).toBe(text);
  expect(chunks[0]?.trim().split(' ')).toHaveLength(9);
});

// The streamed chunks are made directly, not by splitting the text; they must be the same.
test('the chunks a stream sends are the reply split as before, for any message and size', () => {
  fc.assert(
    fc.property(
      fc.string({ unit: 'binary' }),
      fc.nat({ max: 300 }),
      fc.option(fc.integer({ min: 1, max: 12 }), { nil: undefined }),
      (message, chunkCount, wordsPerChunk) => {
        const agent = story({ chunkCount, ...(wordsPerChunk === undefined ? {} : { wordsPerChunk }) });
        const text = composeReply(agent, message, []);
        const chunks = composeChunks(agent, message, []);
        expect(chunks).toEqual(splitIntoChunks(agent, text));
        expect(chunks.join('')).toBe(text);
        expect(chunks).toHaveLength(Math.max(chunkCount, 1));
      },
    ),
    { numRuns: 300 },
  );
});
