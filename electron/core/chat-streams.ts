// Streamed chats named by their caller (`core.chat.streams`): the streams still coming in and the
// last few that ended, held by the core rather than by a page, so a reloaded or reopened window
// finds its streams again (`live`) and the inspector can still read a long reply's raw frames
// (`frames`). A stream's chunks go out gathered for about one frame per event; its end goes out
// once the reply is recorded, with everything the inspector shows.
import {
  INLINE_FRAMES,
  INLINE_TEXT,
  type LiveStream,
  type StreamChunkEvent,
  type StreamEndEvent,
  type StreamFrames,
  type StreamStarted,
} from '../../shared/bridge/chat';
import type { ChatStream } from './chat-stream';
import { CoreError } from './core-error';

/** What a stream is started with: at least the message, and the agent and session it is for. */
interface StreamRequest {
  message: string;
  agent?: string | undefined;
  session_id?: string | undefined;
}

/** The exchange behind each stream (exchanges.ts, `core.chat.stream`): it records and limits it. */
type StreamExchange<R> = (
  request: R,
  options: { signal: AbortSignal },
) => Promise<{ stream: ChatStream; recorded: Promise<void> }>;

/** How long stream chunks gather before one chunk event: about one animation frame. */
const CHUNK_BATCH_MS = 16;
/**
 * …or how many, whichever comes first: a burst (a 1 MB reply arriving in a blink) goes to the page
 * as several events it takes in turn, not one it parses in a single long task.
 */
const CHUNK_BATCH_MAX = 1024;
/** Ended streams whose frames `frames` can still give (the newest; a 1 MB reply's are ~3 MB). */
const KEEP_ENDED = 8;

/** How a stream ended, and the failure that ended it, if any (the front end puts it in its words). */
type EndListener = (end: Omit<StreamEndEvent, 'error'>, failure: unknown) => void;

/** A running stream: its cancel switch and, once started, what a reopened window re-attaches to. */
interface Running {
  controller: AbortController;
  sessionId: string | undefined;
  message: string;
  agent: string | undefined;
  stream?: ChatStream;
  /** Every chunk read so far, for a window that re-attaches. */
  chunks: StreamChunkEvent['chunks'];
}

export class ChatStreams<R extends StreamRequest> {
  private readonly running = new Map<string, Running>();
  private readonly ended = new Map<string, ChatStream>();
  private readonly chunkListeners = new Set<(event: StreamChunkEvent) => void>();
  private readonly endListeners = new Set<EndListener>();

  constructor(private readonly exchange: StreamExchange<R>) {}

  /**
   * Starts a stream under the caller's id (so it listens before the first chunk can arrive); its
   * chunks and its end go to `onChunk` and `onEnd`.
   */
  async start(streamId: string, request: R): Promise<StreamStarted> {
    if (this.running.has(streamId)) throw new CoreError('BAD_INPUT', 'That stream id is already in use.');
    const running: Running = {
      controller: new AbortController(),
      sessionId: request.session_id,
      message: request.message,
      agent: request.agent,
      chunks: [],
    };
    this.running.set(streamId, running);
    try {
      const { stream, recorded } = await this.exchange(request, { signal: running.controller.signal });
      running.stream = stream;
      void this.forward(streamId, running, stream, recorded);
      return {
        streamId,
        ...(stream.requestId ? { requestId: stream.requestId } : {}),
        ...(stream.timing.headersMs !== undefined ? { headersMs: stream.timing.headersMs } : {}),
      };
    } catch (error) {
      this.running.delete(streamId);
      throw error;
    }
  }

  /** A session's streams still coming in, with their chunks so far. */
  live(sessionId: string): LiveStream[] {
    return [...this.running]
      .filter(([, running]) => running.sessionId === sessionId)
      .map(([streamId, running]) => liveView(streamId, running))
      .filter((live): live is LiveStream => live !== undefined);
  }

  /** The raw frames of a stream that ended lately. */
  frames(streamId: string): StreamFrames {
    const stream = this.ended.get(streamId);
    if (!stream) {
      throw new CoreError(
        'NOT_FOUND',
        `The raw frames of that reply are no longer kept: the console keeps those of its last ${KEEP_ENDED} streams while it runs. Send the message again to see them.`,
      );
    }
    return stream.frames;
  }

  cancel(streamId: string): { cancelled: boolean } {
    const running = this.running.get(streamId);
    running?.controller.abort();
    return { cancelled: running !== undefined };
  }

  onChunk(listener: (event: StreamChunkEvent) => void): () => void {
    this.chunkListeners.add(listener);
    return () => this.chunkListeners.delete(listener);
  }

  onEnd(listener: EndListener): () => void {
    this.endListeners.add(listener);
    return () => this.endListeners.delete(listener);
  }

  /** Stops every stream still coming in (the core is closing). */
  close(): void {
    for (const running of this.running.values()) running.controller.abort();
  }

  /** Forwards a started stream's chunks in batches, then its end once the reply is recorded. */
  private async forward(
    streamId: string,
    running: Running,
    stream: ChatStream,
    recorded: Promise<void>,
  ): Promise<void> {
    const pending: StreamChunkEvent['chunks'] = [];
    let timer: NodeJS.Timeout | undefined;
    const send = (chunks: StreamChunkEvent['chunks']): void => {
      for (const listener of this.chunkListeners) listener({ streamId, chunks });
    };
    const flush = (): void => {
      timer = undefined;
      if (pending.length > 0) send(pending.splice(0));
    };
    let failure: unknown;
    try {
      for await (const batch of stream.batches()) {
        pending.push(...batch);
        running.chunks.push(...batch);
        while (pending.length >= CHUNK_BATCH_MAX) send(pending.splice(0, CHUNK_BATCH_MAX));
        if (pending.length === 0) {
          clearTimeout(timer);
          timer = undefined;
        } else {
          timer ??= setTimeout(flush, CHUNK_BATCH_MS);
        }
      }
    } catch (error) {
      failure = error;
    } finally {
      if (timer) clearTimeout(timer);
      flush();
      // Shown as ended only once it is in the transcript; listed as live until then, and its
      // frames kept for `frames` before the end says they can be asked for.
      await recorded;
      this.running.delete(streamId);
      this.keep(streamId, stream);
      const end = endOf(streamId, stream);
      for (const listener of this.endListeners) listener(end, failure);
    }
  }

  private keep(streamId: string, stream: ChatStream): void {
    this.ended.set(streamId, stream);
    for (const oldest of this.ended.keys()) {
      if (this.ended.size <= KEEP_ENDED) break;
      this.ended.delete(oldest);
    }
  }
}

function liveView(streamId: string, running: Running): LiveStream | undefined {
  const { stream } = running;
  if (!stream) return undefined;
  return {
    streamId,
    message: running.message,
    ...(running.agent !== undefined ? { agent: running.agent } : {}),
    chunks: [...running.chunks],
    timing: { ...stream.timing },
    ...(stream.requestId ? { requestId: stream.requestId } : {}),
  };
}

/** The end as the page takes it: long text and many frames stay behind (`frames` has them). */
function endOf(streamId: string, stream: ChatStream): Omit<StreamEndEvent, 'error'> {
  return {
    streamId,
    status: stream.status === 'done' ? 'done' : stream.status === 'cancelled' ? 'cancelled' : 'failed',
    ...(stream.text.length <= INLINE_TEXT ? { text: stream.text } : {}),
    textLength: stream.text.length,
    chunkCount: stream.chunkCount,
    timing: stream.timing,
    ...(stream.frames.length <= INLINE_FRAMES ? { frames: stream.frames } : {}),
    frameCount: stream.frames.length,
    sawDone: stream.sawDone,
    ...(stream.requestId ? { requestId: stream.requestId } : {}),
  };
}
