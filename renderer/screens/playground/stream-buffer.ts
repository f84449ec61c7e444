// Where a reply's chunks live while they stream: outside React and outside any store, appended to
// arrays (never a string rebuilt per chunk), with subscribers told at most once per animation
// frame. A 1 MB reply in 20,000 chunks then costs one small render per frame, not 20,000 renders
// of the transcript (docs/architecture.md, "The chat playground", Rendering).
import type { StreamChunkEvent } from '../../../shared/bridge';

/** A gap between chunks longer than this is called out in the inspector. */
export const SLOW_GAP_MS = 1000;

export class StreamBuffer {
  readonly chunks: string[] = [];
  /** Arrival of each chunk, in ms since the request was sent (the core's clock). */
  readonly atMs: number[] = [];
  readonly gapMs: number[] = [];
  /** Characters so far (UTF-16 units, as `text().length`). */
  length = 0;
  gapsOverSlow = 0;
  maxGapMs = 0;
  /** Bumped once per frame in which chunks arrived: what React compares. */
  version = 0;
  private joined = '';
  private joinedCount = 0;
  private readonly listeners = new Set<() => void>();

  append(chunks: StreamChunkEvent['chunks']): void {
    for (const chunk of chunks) {
      this.chunks.push(chunk.content);
      this.atMs.push(chunk.atMs);
      // The first chunk's "gap" is the wait since the request: that is time to first chunk, not pacing.
      const gap = this.chunks.length === 1 ? 0 : chunk.gapMs;
      this.gapMs.push(gap);
      this.length += chunk.content.length;
      if (gap > SLOW_GAP_MS) this.gapsOverSlow++;
      if (gap > this.maxGapMs) this.maxGapMs = gap;
    }
    if (chunks.length > 0) markDirty(this);
  }

  /** A whole reply at once (not streamed, or reopened from a transcript). */
  setText(text: string): void {
    this.clear();
    if (text !== '') {
      this.chunks.push(text);
      this.atMs.push(0);
      this.gapMs.push(0);
      this.length = text.length;
    }
    markDirty(this);
  }

  clear(): void {
    this.chunks.length = 0;
    this.atMs.length = 0;
    this.gapMs.length = 0;
    this.length = 0;
    this.gapsOverSlow = 0;
    this.maxGapMs = 0;
    this.joined = '';
    this.joinedCount = 0;
    markDirty(this);
  }

  /** The text so far; joins only the chunks added since the last call. */
  text(): string {
    if (this.joinedCount < this.chunks.length) {
      this.joined += this.chunks.slice(this.joinedCount).join('');
      this.joinedCount = this.chunks.length;
    }
    return this.joined;
  }

  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  readonly getVersion = (): number => this.version;

  /** Called by the frame scheduler only. */
  notify(): void {
    this.version++;
    for (const listener of this.listeners) listener();
  }
}

const dirty = new Set<StreamBuffer>();
const afterFlush = new Set<() => void>();
let frame: number | undefined;

function flush(): void {
  frame = undefined;
  const buffers = [...dirty];
  dirty.clear();
  // Every subscriber hears in the same task, so React batches all of them into one render.
  for (const buffer of buffers) buffer.notify();
  for (const listener of afterFlush) listener();
}

function markDirty(buffer: StreamBuffer): void {
  dirty.add(buffer);
  frame ??= requestAnimationFrame(flush);
}

/** Runs after each frame's buffers have been told (the transcript keeps itself scrolled down). */
export function onFrameFlushed(listener: () => void): () => void {
  afterFlush.add(listener);
  return () => afterFlush.delete(listener);
}

/** One buffer per reply, by the reply's id; replies are kept for as long as the page is open. */
const buffers = new Map<string, StreamBuffer>();

export function bufferFor(replyId: string): StreamBuffer {
  let buffer = buffers.get(replyId);
  if (!buffer) buffers.set(replyId, (buffer = new StreamBuffer()));
  return buffer;
}

export function dropBuffer(replyId: string): void {
  buffers.delete(replyId);
}
