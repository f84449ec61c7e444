// The stream parser under the network's worst habits: reads that split lines and UTF-8
// characters anywhere, CRLF line ends, comments, and endings with and without [DONE].
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { ApiError } from '../../electron/core/api-error';
import { ChatStream } from '../../electron/core/chat-stream';
import { containsKeyShaped } from '../../shared/key-shape';

function streamOf(reads: Uint8Array[]): ChatStream {
  let t = 0;
  return new ChatStream(
    {
      body: (async function* () {
        yield* reads;
      })(),
      elapsed: () => (t += 1),
      abort: () => undefined,
      classify: (error, partial) =>
        new ApiError({ status: 200, code: 'STREAM_INCOMPLETE', message: String(error), partial }),
      requestId: 'req_test',
    },
    0,
    () => undefined,
  );
}

/** Cuts `bytes` at the given offsets. */
function cut(bytes: Uint8Array, offsets: number[]): Uint8Array[] {
  const points = [...new Set(offsets.map((o) => o % (bytes.length + 1)))].sort((a, b) => a - b);
  const reads: Uint8Array[] = [];
  let last = 0;
  for (const p of [...points, bytes.length]) {
    if (p > last) reads.push(bytes.subarray(last, p));
    last = p;
  }
  return reads;
}

const encode = (text: string): Uint8Array => new TextEncoder().encode(text);
const PIECES = ['Hello, ', 'wörld ', '🚀🚀', ' 数据流', ' done.'];
const CRLF_STREAM =
  ': keep-alive comment\r\n\r\n' +
  PIECES.map((p) => `data: ${JSON.stringify({ content: p })}\r\n\r\n`).join('') +
  'data: [DONE]\r\n\r\n';

describe('ChatStream', () => {
  test('reads split anywhere (even inside a character) give the same chunks, with CRLF and comments', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.nat(), { maxLength: 30 }), async (offsets) => {
        const stream = streamOf(cut(encode(CRLF_STREAM), offsets));
        const chunks: string[] = [];
        for await (const chunk of stream) chunks.push(chunk.content);
        expect(chunks).toEqual(PIECES);
        expect(stream.text).toBe(PIECES.join(''));
        expect(stream.status).toBe('done');
        expect(stream.frames[0]).toMatchObject({
          comment: true,
          data: expect.stringContaining('keep-alive comment'),
        });
      }),
      { numRuns: 200 },
    );
  });

  test('one byte per read', async () => {
    const bytes = encode(CRLF_STREAM);
    const stream = streamOf([...bytes].map((b) => Uint8Array.of(b)));
    expect(await stream.collect()).toBe(PIECES.join(''));
  });

  test('chunks carry their index, arrival time and the gap since the previous one', async () => {
    const stream = streamOf([encode(CRLF_STREAM)]);
    const chunks = [];
    for await (const chunk of stream) chunks.push(chunk);
    expect(chunks.map((c) => c.index)).toEqual([0, 1, 2, 3, 4]);
    for (let i = 1; i < chunks.length; i++) {
      expect(chunks[i]?.gapMs).toBe((chunks[i]?.atMs ?? 0) - (chunks[i - 1]?.atMs ?? 0));
    }
    expect(stream.timing.firstChunkMs).toBe(chunks[0]?.atMs);
  });

  test('a stream that ends without [DONE] is STREAM_INCOMPLETE and keeps the partial reply', async () => {
    const stream = streamOf([encode('data: {"content":"par"}\n\ndata: {"content":"tial"}\n\n')]);
    const error = await stream.collect().catch((e: unknown) => e as ApiError);
    expect(error).toMatchObject({ code: 'STREAM_INCOMPLETE', partial: 'partial' });
    expect(stream.status).toBe('failed');
  });

  test('the stream_error event is STREAM_ERROR with the partial reply and the service message', async () => {
    const stream = streamOf([
      encode(
        'data: {"content":"so far"}\n\ndata: {"error":{"code":"stream_error","message":"agent crashed"}}\n\ndata: [DONE]\n\n',
      ),
    ]);
    const error = await stream.collect().catch((e: unknown) => e as ApiError);
    expect(error).toMatchObject({
      code: 'STREAM_ERROR',
      message: 'agent crashed',
      partial: 'so far',
      requestId: 'req_test',
    });
  });

  test('an event that is not JSON is a clear INVALID_RESPONSE, not a crash', async () => {
    const stream = streamOf([encode('data: {"content":"ok"}\n\ndata: {oops\n\ndata: [DONE]\n\n')]);
    const error = (await stream.collect().catch((e: unknown) => e)) as ApiError;
    expect(error).toMatchObject({ code: 'INVALID_RESPONSE', partial: 'ok' });
    expect(error.message).toContain('{oops');
  });

  test('anything after [DONE] is ignored', async () => {
    const stream = streamOf([encode('data: {"content":"a"}\n\ndata: [DONE]\n\ndata: {"content":"b"}\n\n')]);
    expect(await stream.collect()).toBe('a');
  });

  test('a stream can be read only once', async () => {
    const stream = streamOf([encode(CRLF_STREAM)]);
    await stream.collect();
    await expect(stream.collect()).rejects.toThrow('only once');
  });

  test('lines ending in bare CR complete, even when the last CR is the last byte of the body', async () => {
    const text =
      PIECES.map((p) => `data: ${JSON.stringify({ content: p })}\r\r`).join('') + 'data: [DONE]\r\r';
    await fc.assert(
      fc.asyncProperty(fc.array(fc.nat(), { maxLength: 20 }), async (offsets) => {
        const stream = streamOf(cut(encode(text), offsets));
        expect(await stream.collect()).toBe(PIECES.join(''));
        expect(stream.status).toBe('done');
      }),
      { numRuns: 100 },
    );
  });

  test('a non-content event of a newer service is kept in the frames and the stream goes on', async () => {
    const stream = streamOf([
      encode(
        'data: {"content":"a"}\n\ndata: {"type":"usage","tokens":12}\n\ndata: {"content":"b","extra":1}\n\n',
      ),
      encode('data: [DONE]\n\n'),
    ]);
    expect(await stream.collect()).toBe('ab');
    expect(stream.chunkCount).toBe(2);
    expect(stream.frames.map((f) => f.data)).toContain('{"type":"usage","tokens":12}');
  });

  test('the inspector gets every frame byte for byte, whatever its spelling, and the text as far as it came', async () => {
    const events = [
      '{"content":"plain "}',
      '{"content":"say \\"hi\\" "}',
      '{"content":"caf\\u00e9 "}',
      '{ "content": "spaced " }',
      '{"content":"x","content":"last "}',
      '{"content":"extra ","n":1}',
      '{"content":"a }"}',
    ];
    const stream = streamOf([
      encode(`: hello\n\n${events.map((e) => `data: ${e}\n\n`).join('')}`),
      encode('data: [DONE]\n\n'),
    ]);
    const seen: string[] = [];
    for await (const _batch of stream.batches()) seen.push(stream.text);
    expect(seen[0]).toBe('plain say "hi" café spaced last extra a }');
    expect(stream.text).toBe('plain say "hi" café spaced last extra a }');
    expect(stream.frames.map((f) => f.data)).toEqual(['hello', ...events, '[DONE]']);
    expect(stream.frames.map((f) => f.comment === true)).toEqual([true, ...events.map(() => false), false]);
  });

  // The plain event's content is read without JSON.parse. Whatever the string (quotes,
  // backslashes, control characters, lone surrogates, astral characters), the chunk must be what
  // JSON.parse gives and the frame the bytes that came. Pieces shaped like the start of a key
  // (`abc_…`) are mixed in: the masking holds those back from the chunks, never from the frames.
  test('every content string reads back exactly as JSON.parse gives it, and its frame byte for byte', async () => {
    const piece = fc.oneof(
      fc.string({ unit: 'binary' }),
      fc.stringMatching(/^[A-Za-z0-9]{0,4}_[A-Za-z0-9]{0,6}$/),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.array(piece, { minLength: 1, maxLength: 8 }).filter((p) => !containsKeyShaped(p.join(''))),
        async (pieces) => {
          const events = pieces.map((content) => JSON.stringify({ content }));
          const stream = streamOf([
            encode(`${events.map((e) => `data: ${e}\n\n`).join('')}data: [DONE]\n\n`),
          ]);
          const chunks: string[] = [];
          for await (const chunk of stream) chunks.push(chunk.content);
          // Through UTF-8, a lone surrogate becomes U+FFFD, as JSON.parse of the bytes received gives.
          const received = events.map(
            (e) => (JSON.parse(new TextDecoder().decode(encode(e))) as { content: string }).content,
          );
          // Text that could begin a key (`abc_…`) is held back a chunk or two by the masking.
          if (!pieces.some((p) => p.includes('_'))) expect(chunks).toEqual(received);
          expect(stream.text).toBe(received.join(''));
          expect(stream.frames.map((f) => f.data)).toEqual([
            ...events.map((e) => new TextDecoder().decode(encode(e))),
            '[DONE]',
          ]);
        },
      ),
      { numRuns: 300 },
    );
  });

  // Found by the property above (seed 835955955): text that may begin a key is held back from the
  // chunks, and the frames showed it nowhere. The frames are the events as they came.
  test('text held back from the chunks as a possible key is in its own frame, as it came', async () => {
    const events = ['{"content":"0A0_"}', '{"content":""}', '{"content":"snake_case\\n"}'];
    const stream = streamOf([encode(`${events.map((e) => `data: ${e}\n\n`).join('')}data: [DONE]\n\n`)]);
    expect(await stream.collect()).toBe('0A0_snake_case\n');
    expect(stream.frames.map((f) => f.data)).toEqual([...events, '[DONE]']);
  });

  test('a key split across frames is masked in the frame it began in, and gone from the next', async () => {
    const key = `k3y_${'A1b2C3d4'.repeat(4)}`;
    const text = `Your key is ${key}, keep it.`;
    for (let at = 0; at <= text.length; at++) {
      const events = [text.slice(0, at), text.slice(at)].map((content) => JSON.stringify({ content }));
      const stream = streamOf([encode(`${events.map((e) => `data: ${e}\n\n`).join('')}data: [DONE]\n\n`)]);
      await stream.collect();
      const contents = stream.frames
        .slice(0, 2)
        .map((f) => (JSON.parse(f.data) as { content: string }).content);
      expect(contents.join('')).toBe(`Your key is ***…${key.slice(-4)}, keep it.`);
      expect(JSON.stringify(stream.frames)).not.toContain(key.slice(4, 12));
    }
  });

  test('a stream cut off in the middle of a key shows no piece of it, in its chunks or its frames', async () => {
    const partial = `k3y_${'A1b2C3d4'.repeat(3)}`;
    const events = ['Your key is ', partial].map((content) => JSON.stringify({ content }));
    const stream = streamOf([encode(events.map((e) => `data: ${e}\n\n`).join(''))]);
    await expect(stream.collect()).rejects.toMatchObject({ code: 'STREAM_INCOMPLETE' });
    expect(stream.text).toBe('Your key is ');
    expect(stream.frames.map((f) => f.data)).toEqual(['{"content":"Your key is "}', '{"content":""}']);
  });

  test('a raw control character inside the content string is not JSON, and says so', async () => {
    const stream = streamOf([
      encode('data: {"content":"a"}\n\ndata: {"content":"tab\there"}\n\ndata: [DONE]\n\n'),
    ]);
    await expect(stream.collect()).rejects.toMatchObject({ code: 'INVALID_RESPONSE', partial: 'a' });
  });

  test('content that is not a string still breaks the stream clearly', async () => {
    const stream = streamOf([encode('data: {"content":"a"}\n\ndata: {"content":7}\n\ndata: [DONE]\n\n')]);
    await expect(stream.collect()).rejects.toMatchObject({ code: 'INVALID_RESPONSE', partial: 'a' });
  });

  // The frames are kept as runs of a read's plain events and the chunks' text as one string
  // per read; what the inspector and the reply show must be as if each were kept on its own.
  test('the frames keep their order and the moment of the read that brought them, however kinds mix', async () => {
    const frame = (c: string) => `data: ${JSON.stringify({ content: c })}\n\n`;
    const stream = streamOf([
      encode(`${frame('a')}: between\n\n${frame('b')}data: {"type":"usage"}\n\n${frame('c')}`),
      encode(`${frame('d')}data: {"content":"e","n":1}\n\n`),
      encode(`${frame('f')}data: [DONE]\n\n`),
    ]);
    const seen: string[] = [];
    for await (const _batch of stream.batches()) seen.push(stream.text);
    expect(seen).toEqual(['abc', 'abcde', 'abcdef']);
    expect(stream.frames).toEqual([
      { atMs: 1, data: '{"content":"a"}' },
      { atMs: 1, data: 'between', comment: true },
      { atMs: 1, data: '{"content":"b"}' },
      { atMs: 1, data: '{"type":"usage"}' },
      { atMs: 1, data: '{"content":"c"}' },
      { atMs: 2, data: '{"content":"d"}' },
      { atMs: 2, data: '{"content":"e","n":1}' },
      { atMs: 3, data: '{"content":"f"}' },
      { atMs: 3, data: '[DONE]' },
    ]);
  });

  test("batches: all of a read's chunks in one step, none for a read without content", async () => {
    const frame = (c: string) => `data: ${JSON.stringify({ content: c })}\n\n`;
    const stream = streamOf([
      encode(frame('a') + frame('b') + frame('c')),
      encode(': comment\n\n'),
      encode(frame('d') + 'data: [DONE]\n\n'),
    ]);
    const steps: string[][] = [];
    for await (const batch of stream.batches()) steps.push(batch.map((c) => c.content));
    expect(steps).toEqual([['a', 'b', 'c'], ['d']]);
    expect(stream.status).toBe('done');
  });
});
