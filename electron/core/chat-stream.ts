// A streamed chat reply (spec §6), parsed with eventsource-parser: lines and UTF-8 characters split
// across network reads, CRLF and comments are its job. Exposed as an async iterator of chunks with
// timing, plus the raw frames for the stream inspector.
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { STREAM_DONE, StreamEvent } from '../../shared/api';
import { ApiError } from './api-error';
import { redactSecrets } from './redact';
import { megabytes } from './reply-limits';
import { maskAcrossPieces, StreamRedactor } from './redact-stream';

/** A non-content event of a newer service (`{"type":"usage"}`): kept in the frames, not a chunk. */
const IGNORED = Symbol('ignored');

/**
 * `{"content":"…"}` whose string has no quote, backslash or control character: nothing in it is
 * escaped, so the characters between the quotes are the content itself, exactly what JSON.parse
 * would give, without an object built for each event (nearly every event is one of these).
 */
// eslint-disable-next-line no-control-regex -- a raw control character is not JSON: such events take JSON.parse's path
const PLAIN_CONTENT = /^\{"content":"[^"\\\u0000-\u001f]*"\}$/;

/**
 * An event's content; its error; IGNORED for an object with neither; undefined when it breaks
 * what the client relies on. A `{"content": "…"}` event skips the schema.
 */
function contentOf(
  data: string,
): string | { error: { code: string; message: string } } | typeof IGNORED | undefined {
  let json: unknown;
  try {
    json = JSON.parse(data);
  } catch {
    return undefined;
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json)) return undefined;
  const event = json as Record<string, unknown>;
  if (typeof event.content === 'string' && event.error === undefined) return event.content;
  if ('content' in event) return undefined;
  if (!('error' in event)) return IGNORED;
  const parsed = StreamEvent.safeParse(event);
  return parsed.success && 'error' in parsed.data ? parsed.data : undefined;
}

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
  /** The most bytes of body read; past them the stream is ended as REPLY_TOO_LARGE. */
  maxBytes?: number;
  requestId: string | undefined;
}

/**
 * A run of frames as the stream keeps them: plain content frames, of chunks `from` to `to - 1`,
 * that one network read brought; or one other frame (an event that is not plain, a comment).
 */
type FrameRun = { atMs: number; from: number; to: number } | { atMs: number; data: string; comment: boolean };

export class ChatStream implements AsyncIterable<StreamChunk> {
  // What a long stream keeps: its 20,000 chunks as 20,000 small strings, and a frame
  // each, survived into the old generation and cost the collector more than parsing them did. The
  // chunks' text is kept instead as the reply, added to once per network read (`joined`), with
  // where each chunk begins in it (`chunkStart`, plain numbers); and the frames as
  // runs (`runs`): the plain `{"content":"…"}` frames of one read are one run of chunk indexes.
  // `frames` builds the frames' objects when asked. A chunk is what the masking passed on, which
  // holds back text that may begin a key: where that differs from the content as it
  // came, the content is kept by the chunk's index (`cameAs`), and so is the data of a frame that
  // was not the plain `{"content":"…"}` its content spells exactly (`sources`). Both are rare.
  /** The reply up to the read under way. */
  private joined = '';
  /** The chunks of the read under way, added to `joined` once it is over. */
  private unread: string[] = [];
  private readonly chunkStart: number[] = [];
  private textLength = 0;
  chunkCount = 0;
  /** Bytes of the body read from the wire. */
  bytesRead = 0;
  private readonly runs: FrameRun[] = [];
  private frameCount = 0;
  private readonly cameAs = new Map<number, string>();
  private readonly sources = new Map<number, string>();
  /** Chunks that came as a frame: all but the masking's last release at [DONE]. */
  private framedChunks = 0;
  private built: StreamFrame[] | undefined;
  private builtOpen = false;
  readonly timing: StreamTiming = {};
  status: StreamStatus = 'connecting';
  /** The closing `[DONE]` arrived (also after a `stream_error`, which the service follows with one). */
  sawDone = false;
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

  /** The reply so far. */
  get text(): string {
    this.sealRead();
    return this.joined;
  }

  /** The chunks' text of the read under way, added to the reply as one string. */
  private sealRead(): void {
    if (this.unread.length === 0) return;
    this.joined += this.unread.join('');
    this.unread = [];
  }

  /** The first `count` chunks' texts. */
  private chunkTexts(count: number): string[] {
    const text = this.text;
    const texts: string[] = [];
    for (let k = 0; k < count; k++) {
      texts.push(text.slice(this.chunkStart[k], this.chunkStart[k + 1] ?? this.textLength));
    }
    return texts;
  }

  /**
   * The raw events and comments so far, in order, as the stream inspector shows them: as they came,
   * but with keys masked over the whole reply, a key split across frames too.
   */
  get frames(): StreamFrame[] {
    // Until [DONE] releases it, what may be a key still coming stays out, as it does from the chunks:
    // a stream cut off mid-key shows no part of it.
    const open = !this.sawDone;
    if (this.built?.length === this.frameCount && this.builtOpen === open) return this.built;
    const came = this.chunkTexts(this.framedChunks).map((chunk, k) => this.cameAs.get(k) ?? chunk);
    const contents = maskAcrossPieces(came, open);
    const frames: StreamFrame[] = [];
    for (const run of this.runs) {
      const atMs = run.atMs;
      if ('data' in run) {
        frames.push(run.comment ? { atMs, data: run.data, comment: true } : { atMs, data: run.data });
        continue;
      }
      for (let k = run.from; k < run.to; k++) {
        frames.push({ atMs, data: this.contentFrame(k, came[k] as string, contents[k] as string) });
      }
    }
    this.built = frames;
    this.builtOpen = open;
    return frames;
  }

  /** The frame of chunk `k`, whose content came as `came`, with that content masked as `content`. */
  private contentFrame(k: number, came: string, content: string): string {
    const source = this.sources.get(k);
    if (content === came) return source ?? `{"content":"${content}"}`;
    return JSON.stringify({ ...(source === undefined ? {} : (JSON.parse(source) as object)), content });
  }

  /** A frame other than a chunk's: an event that is not one, or a comment. */
  private addFrame(atMs: number, data: string, comment = false): void {
    this.runs.push({ atMs, data, comment });
    this.frameCount++;
  }

  /** Chunk `k`'s frame, in the run of its read's when there is one. */
  private addChunkFrame(atMs: number, k: number): void {
    const last = this.runs[this.runs.length - 1];
    if (last && !('data' in last) && last.atMs === atMs && last.to === k) last.to = k + 1;
    else this.runs.push({ atMs, from: k, to: k + 1 });
    this.frameCount++;
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

  /**
   * The chunks one network read brought, one array per read: a consumer handles a read's events in
   * one step instead of one await per chunk. A read with no content (a comment, a split
   * line) yields nothing.
   */
  async *batches(): AsyncGenerator<StreamChunk[]> {
    if (this.iterated) throw new Error('A chat stream can be read only once.');
    this.iterated = true;
    let pending: StreamChunk[] = [];
    let failure: ApiError | undefined;
    let lastAt = 0;
    const fail = (code: string, message: string, type?: string): void => {
      failure = new ApiError({
        status: 200,
        code,
        message,
        ...(type === undefined ? {} : { type }),
        requestId: this.requestId,
        partial: this.text,
      });
    };
    // A key the server echoes is masked over the joined reply, whatever the chunking,
    // before any chunk, frame or error leaves the stream.
    const redactor = new StreamRedactor();
    const addContent = (content: string, atMs: number): void => {
      this.timing.firstChunkMs ??= atMs;
      this.chunkStart.push(this.textLength);
      this.textLength += content.length;
      this.unread.push(content);
      pending.push({ index: this.chunkCount++, content, atMs, gapMs: atMs - lastAt });
      lastAt = atMs;
    };
    // One timestamp per network read: the events one read brought arrived together.
    let readAtMs = 0;
    const onEvent = (event: EventSourceMessage): void => {
      const atMs = readAtMs;
      const data = event.data;
      if (this.sawDone || failure || data === STREAM_DONE) this.addFrame(atMs, redactSecrets(data));
      if (this.sawDone || failure) return;
      if (data === STREAM_DONE) {
        this.sawDone = true;
        const rest = redactor.flush();
        if (rest !== '') addContent(rest, atMs);
        return;
      }
      // The plain event (nearly every one) is known plain here, so its frame is its chunk's index.
      const plain = PLAIN_CONTENT.test(data);
      const content = plain ? data.slice(12, -2) : contentOf(data);
      if (typeof content !== 'string') {
        this.addFrame(atMs, redactSecrets(data));
        if (content === IGNORED) return;
        if (content !== undefined) fail('STREAM_ERROR', content.error.message, content.error.code);
        else
          fail(
            'INVALID_RESPONSE',
            `The stream sent an event that is not {"content": …} or {"error": …}: ${redactSecrets(data).slice(0, 120)}`,
          );
        return;
      }
      const masked = redactor.push(content);
      const chunk = this.chunkCount;
      if (masked !== content) this.cameAs.set(chunk, content);
      if (!plain) this.sources.set(chunk, redactSecrets(data));
      this.addChunkFrame(atMs, chunk);
      this.framedChunks = chunk + 1;
      addContent(masked, atMs);
    };
    const parser = createParser({
      onEvent,
      onComment: (comment) => this.addFrame(readAtMs, redactSecrets(comment), true),
    });
    const decoder = new TextDecoder('utf-8');
    this.status = 'streaming';
    try {
      try {
        const maxBytes = this.source.maxBytes ?? Infinity;
        for await (const bytes of this.source.body) {
          this.bytesRead += bytes.byteLength;
          if (this.bytesRead > maxBytes) {
            this.source.abort();
            fail(
              'REPLY_TOO_LARGE',
              `The stream is larger than ${megabytes(maxBytes)}, more than this console reads; it stopped reading. The reply is incomplete.`,
            );
            throw failure;
          }
          readAtMs = this.source.elapsed();
          parser.feed(decoder.decode(bytes, { stream: true }));
          this.sealRead();
          if (pending.length > 0) {
            const batch = pending;
            pending = [];
            yield batch;
          }
          if (failure) throw failure;
          if (this.sawDone) break;
        }
        // A line ending in a bare CR at the very end is complete only once the parser sees that
        // nothing (no LF) follows it: the final newline says so.
        if (!this.sawDone) {
          readAtMs = this.source.elapsed();
          parser.feed(decoder.decode() + '\n');
        }
      } catch (error) {
        if (error instanceof ApiError) throw error;
        throw this.source.classify(error, this.text);
      }
      if (pending.length > 0) yield pending;
      if (failure) throw failure;
      if (!this.sawDone) {
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

  async *[Symbol.asyncIterator](): AsyncGenerator<StreamChunk> {
    for await (const batch of this.batches()) yield* batch;
  }

  /** Reads the whole stream; resolves with the full reply or rejects with an ApiError carrying the partial. */
  async collect(): Promise<string> {
    for await (const _batch of this.batches()) {
      // Chunks accumulate in `text`.
    }
    return this.text;
  }
}
