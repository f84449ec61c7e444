// Core figures for `npm run bench`: the streaming client's parse rate (docs/performance.md: ≥ 50,000
// chunks/s) and the rate limiter's cost per request.
import { createParser } from 'eventsource-parser';
import { systemClock } from '../shared/clock';
import { ChatStream } from '../electron/core/chat-stream';
import { ApiError } from '../electron/core/api-error';
import { RateLimiter } from '../electron/core/rate-limiter';
import { median } from './timing';

export interface Figure {
  figure: string;
  value: string;
  note: string;
}

const fmt = (n: number): string => Math.round(n).toLocaleString('en-US');

/** Builds an event stream of `count` chunks, cut into network-sized reads that split lines and characters. */
function syntheticStream(count: number): Uint8Array[] {
  const frames: string[] = [];
  for (let i = 0; i < count; i++)
    frames.push(`data: ${JSON.stringify({ content: `word${i % 97} é🚀 ` })}\n\n`);
  frames.push('data: [DONE]\n\n');
  const bytes = new TextEncoder().encode(frames.join(''));
  const reads: Uint8Array[] = [];
  for (let at = 0; at < bytes.length;) {
    const size = 1_000 + ((at * 7919) % 3_000); // 1–4 KB reads, never aligned to frames
    reads.push(bytes.subarray(at, at + size));
    at += size;
  }
  return reads;
}

/** One pass of the client over `reads`, consumed as the front ends do (a read's chunks per step). */
async function clientParseRate(reads: Uint8Array[]): Promise<number> {
  const t0 = performance.now();
  const stream = new ChatStream(
    {
      body: (async function* () {
        yield* reads;
      })(),
      elapsed: () => performance.now() - t0,
      abort: () => undefined,
      classify: (error) => new ApiError({ status: 0, code: 'NETWORK', message: String(error) }),
      requestId: undefined,
    },
    0,
    () => undefined,
  );
  let chunks = 0;
  for await (const batch of stream.batches()) chunks += batch.length;
  if (stream.status !== 'done') throw new Error(`the stream ended ${stream.status}`);
  return chunks / ((performance.now() - t0) / 1000);
}

export async function streamingClientFigure(count = 200_000, rounds = 5): Promise<Figure> {
  const reads = syntheticStream(count);
  // Both warmed up, then measured back to back, `rounds` times: one pass swings ±30% here.
  await clientParseRate(reads);
  rawParseRate(reads);
  const rates: number[] = [];
  const raws: number[] = [];
  const ratios: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const rate = await clientParseRate(reads);
    const raw = rawParseRate(reads);
    rates.push(rate);
    raws.push(raw);
    ratios.push(rate / raw);
  }
  return {
    figure: 'streaming client parse',
    value: `${fmt(median(rates))} chunks/s`,
    note: `${fmt(count)} chunks in 1–4 KB reads, read by batches() as the app and CLI do (goal ≥ 50,000); raw eventsource-parser + JSON.parse over the same bytes ${fmt(median(raws))} chunks/s: client/raw = ${median(ratios).toFixed(2)}× (goal ≥ 0.8×; median of ${rounds}, each ${[
      ...ratios,
    ]
      .sort((a, b) => a - b)
      .map((r) => r.toFixed(2))
      .join('/')})`,
  };
}

/** The floor under any client: eventsource-parser and JSON.parse alone, on the same reads. */
function rawParseRate(reads: Uint8Array[]): number {
  const decoder = new TextDecoder();
  let chunks = 0;
  const parser = createParser({
    onEvent: (event) => {
      if (event.data !== '[DONE]' && (JSON.parse(event.data) as { content?: string }).content !== undefined)
        chunks++;
    },
  });
  const t0 = performance.now();
  for (const read of reads) parser.feed(decoder.decode(read, { stream: true }));
  return chunks / ((performance.now() - t0) / 1000);
}

export async function limiterFigure(requests = 200_000): Promise<Figure> {
  const limiter = new RateLimiter({ clock: systemClock, limit: Number.MAX_SAFE_INTEGER, marginMs: 0 });
  for (let i = 0; i < 1_000; i++) await limiter.acquire(); // warm up
  const t0 = performance.now();
  for (let i = 0; i < requests; i++) {
    await limiter.acquire();
    limiter.observe({ limit: Number.MAX_SAFE_INTEGER, remaining: Number.MAX_SAFE_INTEGER - 1 });
    limiter.succeeded();
  }
  const micros = ((performance.now() - t0) * 1000) / requests;
  return {
    figure: 'rate limiter overhead',
    value: `${micros.toFixed(2)} µs/request`,
    note: `acquire + observe headers + success, ${fmt(requests)} requests`,
  };
}
