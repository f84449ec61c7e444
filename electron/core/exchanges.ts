// Every exchange with an agent, whoever starts it (the playground, the browsers, the CLI, a suite
// run): the user's message is recorded before the call, so a failed send never loses what was
// typed; the call goes through the profile's client, so through its key's one limiter and the
// request log; the reply is recorded however it ended (complete, partial, stopped, failed). One
// place, so the front ends cannot drift apart.
import type { ChatReply, ThreadCreated, ThreadMessageReply } from '../../shared/api';
import type { MessageStatus } from '../../shared/transcript';
import type { ApiClient, CallOptions } from './api-client';
import { describeError } from './api-error';
import type { ChatStream } from './chat-stream';
import { ChatStreams } from './chat-streams';
import { ExchangeRecorder } from './exchange-recorder';
import type { Profile } from './profiles';
import type { TranscriptStore } from './transcript-store';

/** The parts of ConsoleCore an exchange needs (structural: no import cycle). */
export interface ExchangeHost {
  transcripts: TranscriptStore;
  profile(ref?: string): Profile;
  client(profile: Profile): ApiClient;
}

/** The caller's signal, and (for timing a reply without the wait in the limiter) its round trip. */
export type ExchangeOptions = CallOptions;

/** What every exchange may ask: `record: false` keeps it out of the transcripts (a suite run). */
interface Recording {
  /** Default true. A suite run's exchanges are limited and logged, but kept in its own results. */
  record?: boolean | undefined;
}

export interface ChatRequest extends Recording {
  /** The profile to send with; the active one when left out. */
  profile?: Profile;
  /** …or the profile by id or name (a window names its session's): not whichever is active now. */
  profileId?: string | undefined;
  message: string;
  agent?: string | undefined;
  /** Without one nothing is recorded: there is no conversation to continue. */
  session_id?: string | undefined;
  /** This client began the session (a new one, not a pasted id): its record is known from the start. */
  startedHere?: boolean | undefined;
}

export interface RecordedStream {
  stream: ChatStream;
  /** Resolves once the reply, however the stream ended, is in the transcript. Never rejects. */
  recorded: Promise<void>;
}

export interface NewThreadRequest extends Recording {
  profile?: Profile;
  message: string;
  title?: string | undefined;
  agent?: string | undefined;
}

export interface ThreadMessageRequest extends Recording {
  profile?: Profile;
  threadId: string;
  message: string;
  /** The thread's agent when the caller knows it (the thread list does); otherwise looked up. */
  agent?: string | undefined;
}

/** How a finished stream is recorded. */
function streamOutcome(stream: ChatStream): MessageStatus {
  if (stream.status === 'done') return 'complete';
  if (stream.status === 'cancelled') return 'stopped';
  return 'partial';
}

export class ChatExchanges {
  /** Streams started for a window, followed by the bridge's events (chat-streams.ts). */
  readonly streams = new ChatStreams<ChatRequest>((request, options) => this.stream(request, options));

  constructor(private readonly host: ExchangeHost) {}

  /** A chat answered in one document. Never retried silently: a duplicate message is worse than an error. */
  async send(request: ChatRequest, options: ExchangeOptions = {}): Promise<ChatReply> {
    const profile = request.profile ?? this.host.profile(request.profileId);
    const client = this.host.client(profile);
    const recorder = await this.recorder(profile, request);
    await recorder?.user(request.message);
    try {
      const reply = await client.chat(chatInput(request), options);
      await recorder?.agent({ content: reply.response, status: 'complete', requestId: reply.request_id });
      return reply;
    } catch (error) {
      await recorder?.agent({ content: '', status: 'failed', error: describeError(error) });
      throw error;
    }
  }

  /**
   * A streamed chat: resolves once the stream has started (or rejects with the error reply, which
   * is recorded). The caller reads the stream; the reply is recorded when it ends, and `recorded`
   * says when that is done.
   */
  async stream(request: ChatRequest, options: ExchangeOptions = {}): Promise<RecordedStream> {
    const profile = request.profile ?? this.host.profile(request.profileId);
    const client = this.host.client(profile);
    const recorder = await this.recorder(profile, request);
    await recorder?.user(request.message);
    let stream: ChatStream;
    try {
      stream = await client.chatStream(chatInput(request), options);
    } catch (error) {
      await recorder?.agent({ content: '', status: 'failed', error: describeError(error) });
      throw error;
    }
    const recorded = stream
      .ended()
      .then(() =>
        recorder?.agent({
          content: stream.text,
          status: streamOutcome(stream),
          requestId: stream.requestId,
          error: stream.error && stream.status !== 'cancelled' ? describeError(stream.error) : undefined,
        }),
      )
      // A write failure reaches the user through the store's own warning; the reply is still shown.
      .catch(() => undefined);
    return { stream, recorded };
  }

  private recorder(profile: Profile, request: ChatRequest): Promise<ExchangeRecorder> | undefined {
    if (!request.session_id || request.record === false) return undefined;
    return ExchangeRecorder.open(
      this.host.transcripts,
      { profileId: profile.id, kind: 'session', id: request.session_id },
      { agent: request.agent ?? 'default', startedHere: request.startedHere === true },
    );
  }
}

export class ThreadExchanges {
  constructor(private readonly host: ExchangeHost) {}

  /** Creates a thread with its first message; the record starts once the service has named it. */
  async create(request: NewThreadRequest, options: ExchangeOptions = {}): Promise<ThreadCreated> {
    const profile = request.profile ?? this.host.profile();
    const created = await this.host.client(profile).createThread(
      {
        message: request.message,
        ...(request.title !== undefined ? { title: request.title } : {}),
        ...(request.agent !== undefined ? { agent: request.agent } : {}),
      },
      options,
    );
    if (request.record === false) return created;
    const recorder = await ExchangeRecorder.open(
      this.host.transcripts,
      { profileId: profile.id, kind: 'thread', id: created.thread.id },
      { agent: created.thread.agent, startedHere: true, title: created.thread.title },
    );
    await recorder.user(request.message);
    await recorder.agent({ content: created.response, status: 'complete' });
    return created;
  }

  /** Appends a message to a thread, recording it under the thread's real agent, not a placeholder. */
  async send(request: ThreadMessageRequest, options: ExchangeOptions = {}): Promise<ThreadMessageReply> {
    const profile = request.profile ?? this.host.profile();
    const client = this.host.client(profile);
    if (request.record === false)
      return client.appendThreadMessage(request.threadId, request.message, options);
    const ref = { profileId: profile.id, kind: 'thread' as const, id: request.threadId };
    const known = await this.host.transcripts.head(ref).catch(() => undefined);
    const agent =
      request.agent ?? known?.agent ?? (await this.lookUpAgent(client, request.threadId, options));
    const recorder = await ExchangeRecorder.open(this.host.transcripts, ref, {
      agent: agent ?? 'unknown',
      startedHere: false,
    });
    await recorder.user(request.message);
    try {
      const reply = await client.appendThreadMessage(request.threadId, request.message, options);
      await recorder.agent({ content: reply.response, status: 'complete' });
      return reply;
    } catch (error) {
      await recorder.agent({ content: '', status: 'failed', error: describeError(error) });
      throw error;
    }
  }

  /** The service's thread list names each thread's agent; one read, only when nothing here knows it. */
  private async lookUpAgent(
    client: ApiClient,
    threadId: string,
    options: ExchangeOptions,
  ): Promise<string | undefined> {
    try {
      const { threads } = await client.listThreads(options);
      return threads.find((t) => t.id === threadId)?.agent;
    } catch {
      return undefined;
    }
  }
}

function chatInput(request: ChatRequest) {
  return {
    message: request.message,
    ...(request.agent !== undefined ? { agent: request.agent } : {}),
    ...(request.session_id !== undefined ? { session_id: request.session_id } : {}),
  };
}
