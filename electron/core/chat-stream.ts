// A streamed chat reply (spec §6), parsed with eventsource-parser: lines and UTF-8 characters split
// across network reads, CRLF and comments are its job. Exposed as an async iterator of chunks with
// timing, plus the raw frames for the stream inspector.
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { STREAM_DONE, StreamEvent } from '../../shared/api';
import { ApiError } from './api-error';

export interface StreamChunk {
  index: number;
  content: string;
  /** Milliseconds since the request was sent. */
  atMs: number;
  /** Milliseconds since the previous chunk (or since the request, for the first). */
  gapMs: number;
}

export interface StreamFrame {
  atMs: number;
  /** The event's data, or a comment's text. */
  data: string;
  comment?: boolean;
}

export type StreamStatus = 'connecting' | 'streaming' | 'done' | 'failed' | 'cancelled';

export interface StreamTiming {
  /** Until the response headers arrived. */
  headersMs?: number;
  firstChunkMs?: number;
  totalMs?: number;
}

export interface StreamSource {
  body: AsyncIterable<Uint8Array>;
  /** Milliseconds since the request was sent, on the client's clock. */
  elapsed(): number;
  /** Ends the underlying request (consumer stopped early). */
  abort(): void;
  /** Classifies a failure of the body (network, timeout, abort) into an ApiError. */
  classify(error: unknown, partial: string): ApiError;
  requestId: string | undefined;
}

export class ChatStream implements AsyncIterable<StreamChunk> {
  text = '';
  chunkCount = 0;
  readonly frames: StreamFrame[] = [];
  readonly timing: StreamTiming = {};
  status: StreamStatus = 'connecting';
  error: ApiError | undefined;
  private iterated = false;
  private readonly finished: Promise<void>;
  private settle!: () => void;

  constructor(
    private readonly source: StreamSource,
    headersMs: number,
    private readonly onEnd: (stream: ChatStream) => void,
  ) {
    this.timing.headersMs = headersMs;
    this.finished = new Promise((resolve) => (this.settle = resolve));
  }

  get requestId(): string | undefined {
    return this.source.requestId;
  }

  /** Resolves when the stream has ended, however it ended. */
  ended(): Promise<void> {
    return this.finished;
  }

  /** Stops reading; the partial reply stays in `text` and the status becomes `cancelled`. */
  cancel(): void {
    if (this.status === 'connecting' || this.status === 'streaming') {
      this.status = 'cancelled';
      this.source.abort();
    }
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<StreamChunk> {
    if (this.iterated) throw new Error('A chat stream can be read only once.');
    this.iterated = true;
    const pending: StreamChunk[] = [];
    let sawDone = false;
    let failure: ApiError | undefined;
    let lastAt = 0;
    const onEvent = (event: EventSourceMessage): void => {
      const atMs = this.source.elapsed();
      this.frames.push({ atMs, data: event.data });
      if (sawDone || failure) return;
      if (event.data === STREAM_DONE) {
        sawDone = true;
        return;
      }
      let parsed: StreamEvent;
      try {
        parsed = StreamEvent.parse(JSON.parse(event.data));
      } catch {
        failure = new ApiError({
          status: 200,
          code: 'INVALID_RESPONSE',
          message: `The stream sent an event that is not {"content": …} or {"error": …}: ${event.data.slice(0, 120)}`,
          requestId: this.requestId,
          partial: this.text,
        });
        return;
      }
      if ('error' in parsed) {
        failure = new ApiError({
          status: 200,
          code: 'STREAM_ERROR',
          message: parsed.error.message,
          type: parsed.error.code,
          requestId: this.requestId,
          partial: this.text,
        });
        return;
      }
      this.timing.firstChunkMs ??= atMs;
      this.text += parsed.content;
      pending.push({ index: this.chunkCount++, content: parsed.content, atMs, gapMs: atMs - lastAt });
      lastAt = atMs;
    };
    const parser = createParser({
      onEvent,
      onComment: (comment) => this.frames.push({ atMs: this.source.elapsed(), data: comment, comment: true }),
    });
    const decoder = new TextDecoder('utf-8');
    this.status = 'streaming';
    try {
      try {
        for await (const bytes of this.source.body) {
          parser.feed(decoder.decode(bytes, { stream: true }));
          while (pending.length > 0) yield pending.shift() as StreamChunk;
          if (failure) throw failure;
          if (sawDone) break;
        }
        parser.feed(decoder.decode());
      } catch (error) {
        if (error instanceof ApiError) throw error;
        throw this.source.classify(error, this.text);
      }
      while (pending.length > 0) yield pending.shift() as StreamChunk;
      if (failure) throw failure;
      if (!sawDone) {
        throw new ApiError({
          status: 200,
          code: 'STREAM_INCOMPLETE',
          message:
            'The connection closed before the stream finished ([DONE] never arrived). The reply is incomplete.',
          requestId: this.requestId,
          partial: this.text,
        });
      }
      this.status = 'done';
    } catch (error) {
      if ((this.status as StreamStatus) !== 'cancelled') {
        // Aborted through the caller's signal: a stop, not a failure.
        this.status = (error as ApiError).code === 'ABORTED' ? 'cancelled' : 'failed';
      }
      this.error = error as ApiError;
      throw error;
    } finally {
      if (this.status === 'streaming') {
        // The consumer stopped early (break / return): end the request.
        this.status = 'cancelled';
        this.source.abort();
      }
      this.timing.totalMs = this.source.elapsed();
      this.onEnd(this);
      this.settle();
    }
  }

  /** Reads the whole stream; resolves with the full reply or rejects with an ApiError carrying the partial. */
  async collect(): Promise<string> {
    for await (const _chunk of this) {
      // Chunks accumulate in `text`.
    }
    return this.text;
  }
}
