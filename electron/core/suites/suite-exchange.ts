// The narrow seam between the suite runner and the exchange path: four calls, each through the
// core's exchanges (core.chat.send/stream, core.threads.create/send), so through the key's one
// limiter: a suite run is one more front end of the same path as the playground and the CLI.
//
// What a suite run records (docs/architecture.md): every request is in the request log (the Log screen), as
// every request the console makes is; nothing goes into the transcripts, so suite sessions never
// crowd the playground's session list. The run's own results keep the exchanges (masked).
import type { CallOptions, ChatInput } from '../api-client';
import type { ApiError } from '../api-error';
import type { StreamChunk, StreamFrame, StreamStatus, StreamTiming } from '../chat-stream';
import type { ChatExchanges, ThreadExchanges } from '../exchanges';
import type { Profile } from '../profiles';

/** The part of a ChatStream the runner reads: its chunks, then how it ended. */
interface SuiteStream extends AsyncIterable<Pick<StreamChunk, 'atMs'>> {
  readonly text: string;
  readonly frames: readonly StreamFrame[];
  readonly timing: StreamTiming;
  readonly status: StreamStatus;
  readonly error: ApiError | undefined;
  readonly requestId: string | undefined;
}

export interface ExchangeReply {
  response: string;
  /** The HTTP status of the reply (2xx). */
  status: number;
  requestId?: string | undefined;
  /** From the request to the whole reply, time waiting for the limiter excluded. */
  totalMs?: number | undefined;
}

interface ExchangeOptions {
  signal?: AbortSignal;
}

export interface SuiteExchange {
  chat(profile: Profile, input: ChatInput, options: ExchangeOptions): Promise<ExchangeReply>;
  stream(profile: Profile, input: ChatInput, options: ExchangeOptions): Promise<SuiteStream>;
  createThread(
    profile: Profile,
    input: { message: string; agent?: string; title?: string },
    options: ExchangeOptions,
  ): Promise<ExchangeReply & { threadId: string }>;
  sendThread(
    profile: Profile,
    threadId: string,
    message: string,
    options: ExchangeOptions,
  ): Promise<ExchangeReply>;
}

/**
 * The seam over the core's exchanges (`core.chat`, `core.threads`): the same path as the playground
 * and the CLI — the key's limiter, the request log — with `record: false`, so nothing goes into the
 * transcripts. The round trip (time waiting for the limiter excluded) gives `totalMs`.
 */
export function coreSuiteExchange(exchanges: {
  chat: ChatExchanges;
  threads: ThreadExchanges;
}): SuiteExchange {
  const timed = async <T>(
    call: (onRoundTrip: NonNullable<CallOptions['onRoundTrip']>) => Promise<T>,
  ): Promise<{ value: T; totalMs: number | undefined; requestId: string | undefined; status: number }> => {
    let totalMs: number | undefined;
    let requestId: string | undefined;
    let status = 200;
    const value = await call((ms, reply) => {
      totalMs = Math.round(ms);
      requestId = reply.requestId;
      status = reply.status;
    });
    return { value, totalMs, requestId, status };
  };
  return {
    async chat(profile, input, { signal }) {
      const { value, totalMs, status } = await timed((onRoundTrip) =>
        exchanges.chat.send({ profile, ...input, record: false }, { signal, onRoundTrip }),
      );
      return { response: value.response, status, requestId: value.request_id, totalMs };
    },
    async stream(profile, input, { signal }) {
      const { stream } = await exchanges.chat.stream({ profile, ...input, record: false }, { signal });
      return stream;
    },
    async createThread(profile, input, { signal }) {
      const { value, ...reply } = await timed((onRoundTrip) =>
        exchanges.threads.create({ profile, ...input, record: false }, { signal, onRoundTrip }),
      );
      return { response: value.response, threadId: value.thread.id, ...reply };
    },
    async sendThread(profile, threadId, message, { signal }) {
      const { value, ...reply } = await timed((onRoundTrip) =>
        exchanges.threads.send({ profile, threadId, message, record: false }, { signal, onRoundTrip }),
      );
      return { response: value.response, ...reply };
    },
  };
}
