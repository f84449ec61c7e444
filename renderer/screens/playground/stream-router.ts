// Routes the core's stream events to replies. A stream is registered before `chat:stream` is
// called, because its chunks (and even its end) may arrive before the call's own answer does.
// A window that reopens a session while one of its replies is still streaming in the core (after
// a reload) re-attaches to it: it takes the text so far from `chat:live` and follows the events
// from there, by chunk index, so nothing is shown twice or skipped.
import type { LiveStream, StreamChunkEvent, StreamEndEvent } from '../../../shared/bridge';
import { liveStreams, onStreamChunk, onStreamEnd } from '../../data/chat';
import { bufferFor } from './stream-buffer';

interface Expected {
  replyId: string;
  /** Chunks with a lower index are already in the buffer. */
  next: number;
  resolve: (end: StreamEndEvent) => void;
}

function apply(target: Expected, chunks: StreamChunkEvent['chunks']): void {
  const fresh = chunks.filter((c) => c.index >= target.next);
  if (fresh.length === 0) return;
  target.next = (fresh.at(-1) as StreamChunkEvent['chunks'][number]).index + 1;
  bufferFor(target.replyId).append(fresh);
}

class StreamRouter {
  private readonly expected = new Map<string, Expected>();
  /** While a session's live streams are being read: events of streams not (yet) known here. */
  private attaching = 0;
  private readonly early = new Map<string, { chunks: StreamChunkEvent['chunks']; end?: StreamEndEvent }>();
  private listening = false;

  private listen(): void {
    if (this.listening) return;
    this.listening = true;
    onStreamChunk((event) => {
      const target = this.expected.get(event.streamId);
      if (target) apply(target, event.chunks);
      else if (this.attaching > 0) {
        const seen = this.early.get(event.streamId) ?? { chunks: [] };
        seen.chunks.push(...event.chunks);
        this.early.set(event.streamId, seen);
      }
    });
    onStreamEnd((event) => {
      const target = this.expected.get(event.streamId);
      if (!target) {
        if (this.attaching > 0)
          this.early.set(event.streamId, { chunks: [], ...this.early.get(event.streamId), end: event });
        return;
      }
      this.expected.delete(event.streamId);
      target.resolve(event);
    });
  }

  /** Resolves with the stream's end; its chunks go to the reply's buffer meanwhile. */
  expect(streamId: string, replyId: string): Promise<StreamEndEvent> {
    this.listen();
    return new Promise((resolve) => this.expected.set(streamId, { replyId, next: 0, resolve }));
  }

  /** The call failed before the stream started: no end will come. */
  forget(streamId: string): void {
    this.expected.delete(streamId);
  }

  /** True when this page already follows the stream (its reply is shown from its own send). */
  isFollowed(streamId: string): boolean {
    return this.expected.has(streamId);
  }

  /**
   * Reads a session's live streams; events that arrive meanwhile are kept until `attach` (or the
   * returned `done`) so none falls between the snapshot and the re-attachment.
   */
  async readLive(sessionId: string): Promise<{ live: LiveStream[]; done: () => void }> {
    this.listen();
    this.attaching++;
    const done = (): void => {
      this.attaching--;
      if (this.attaching === 0) this.early.clear();
    };
    try {
      return { live: await liveStreams(sessionId), done };
    } catch {
      // An older core without the call, or a failure: the session opens without live replies.
      done();
      return { live: [], done: () => undefined };
    }
  }

  /** Shows a live stream's chunks so far in the reply's buffer and follows it to its end. */
  attach(live: LiveStream, replyId: string): Promise<StreamEndEvent> {
    bufferFor(replyId).clear();
    return new Promise((resolve) => {
      const target: Expected = { replyId, next: 0, resolve };
      apply(target, live.chunks);
      const seen = this.early.get(live.streamId);
      this.early.delete(live.streamId);
      if (seen) apply(target, seen.chunks);
      if (seen?.end) resolve(seen.end);
      else this.expected.set(live.streamId, target);
    });
  }
}

/** The page's one router: every stream of every reply goes through it. */
export const streamRouter = new StreamRouter();
