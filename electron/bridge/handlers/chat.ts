// chat:… and the thread calls that send a message: each is one exchange of the core (exchanges.ts),
// which records and limits it; here only the streaming transport lives — chunks gathered for about
// one frame per event, then the end with everything the inspector shows.
import { API_PREFIX } from '../../../shared/api';
import { INLINE_FRAMES, INLINE_TEXT, type LiveStream, type StreamChunkEvent } from '../../../shared/bridge';
import type { ChatStream } from '../../core/chat-stream';
import { CoreError } from '../../core/core-error';
import { toBridgeError } from '../bridge-error';
import { curlFor } from '../curl';
import type { DomainHandlers, Emit, HandlerContext } from './context';

/** How long stream chunks gather before one `chat:chunk` event: about one animation frame. */
const CHUNK_BATCH_MS = 16;
/**
 * …or how many, whichever comes first: a burst (a 1 MB reply arriving in a blink) goes to the page
 * as several events it takes in turn, not one it parses in a single long task.
 */
const CHUNK_BATCH_MAX = 1024;
/** Ended streams whose frames `chat:frames` can still give (the newest; a 1 MB reply's are ~3 MB). */
const KEEP_ENDED = 8;

type ChatHandlers = DomainHandlers<'chat'> &
  Pick<DomainHandlers<'threads'>, 'threads:create' | 'threads:send'>;

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

export function chatHandlers({ core, emit, onClose }: HandlerContext): ChatHandlers {
  // Streams belong to the core's side, not to a page: a reload does not end them (issue 14.4).
  const streams = new Map<string, Running>();
  const ended = new Map<string, ChatStream>();
  const keep = (streamId: string, stream: ChatStream): void => {
    ended.set(streamId, stream);
    for (const oldest of ended.keys()) {
      if (ended.size <= KEEP_ENDED) break;
      ended.delete(oldest);
    }
  };
  onClose(() => {
    for (const running of streams.values()) running.controller.abort();
  });
  return {
    'chat:send': async (input) => core.chat.send(withProfile(core, input)),
    'chat:stream': async ({ streamId, ...input }) => {
      if (streams.has(streamId)) throw new CoreError('BAD_INPUT', 'That stream id is already in use.');
      const controller = new AbortController();
      const running: Running = {
        controller,
        sessionId: input.session_id,
        message: input.message,
        agent: input.agent,
        chunks: [],
      };
      streams.set(streamId, running);
      try {
        return await startStream(core, emit, streamId, withProfile(core, input), running, (stream) => {
          streams.delete(streamId);
          keep(streamId, stream);
        });
      } catch (error) {
        streams.delete(streamId);
        throw error;
      }
    },
    'chat:live': async ({ session_id }) =>
      [...streams]
        .filter(([, running]) => running.sessionId === session_id)
        .map(([streamId, running]) => liveView(streamId, running))
        .filter((live): live is LiveStream => live !== undefined),
    'chat:frames': async ({ streamId }) => {
      const stream = ended.get(streamId);
      if (!stream) {
        throw new CoreError(
          'NOT_FOUND',
          `The raw frames of that reply are no longer kept: the console keeps those of its last ${KEEP_ENDED} streams while it runs. Send the message again to see them.`,
        );
      }
      return stream.frames;
    },
    'chat:cancel': async ({ streamId }) => {
      const running = streams.get(streamId);
      running?.controller.abort();
      return { cancelled: running !== undefined };
    },
    'chat:curl': async ({ stream, profileId, ...input }) => {
      const profile = core.profile(profileId);
      const url = `${profile.baseUrl.replace(/\/+$/, '')}${API_PREFIX}/chat`;
      // The body exactly as the API client sends it (api-client.ts: `{ ...input, stream }`).
      const requestBody = JSON.stringify({ ...input, stream });
      return {
        command: curlFor({ method: 'POST', url, requestBody, streamed: stream }, profile.caCertPath),
      };
    },
    'threads:create': async (input) => core.threads.create(input),
    'threads:send': async (input) => core.threads.send(input),
  };
}

/** A chat request goes out with the profile it names (its session's), not whichever is active now. */
function withProfile<T extends { profileId?: string | undefined }>(
  core: HandlerContext['core'],
  { profileId, ...input }: T,
): Omit<T, 'profileId'> & { profile?: ReturnType<HandlerContext['core']['profile']> } {
  return { ...input, ...(profileId !== undefined ? { profile: core.profile(profileId) } : {}) };
}

/**
 * Starts a stream named by the renderer (so it listens before the first chunk can arrive),
 * forwards its chunks in batches, and ends with `chat:end` once the reply is recorded.
 */
async function startStream(
  core: HandlerContext['core'],
  emit: Emit,
  streamId: string,
  input: Parameters<HandlerContext['core']['chat']['stream']>[0],
  running: Running,
  done: (stream: ChatStream) => void,
) {
  const { stream, recorded } = await core.chat.stream(input, { signal: running.controller.signal });
  running.stream = stream;
  const pending: StreamChunkEvent['chunks'] = [];
  let timer: NodeJS.Timeout | undefined;
  const flush = (): void => {
    timer = undefined;
    if (pending.length > 0) emit('chat:chunk', { streamId, chunks: pending.splice(0) });
  };
  void (async () => {
    let failure: unknown;
    try {
      for await (const batch of stream.batches()) {
        pending.push(...batch);
        running.chunks.push(...batch);
        while (pending.length >= CHUNK_BATCH_MAX) {
          emit('chat:chunk', { streamId, chunks: pending.splice(0, CHUNK_BATCH_MAX) });
        }
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
      // frames kept for chat:frames before the end says they can be asked for.
      await recorded;
      done(stream);
      emit('chat:end', {
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
        ...(failure ? { error: toBridgeError(failure) } : {}),
      });
    }
  })();
  return {
    streamId,
    ...(stream.requestId ? { requestId: stream.requestId } : {}),
    ...(stream.timing.headersMs !== undefined ? { headersMs: stream.timing.headersMs } : {}),
  };
}
