// chat:… — a chat sent whole or streamed (its chunks and its end as events), the streams still
// coming in the core, a stream's raw frames, cancel, and "copy as curl".
import { z } from 'zod';
import type { ReceivedChatReply as ChatReply } from '../received';
import type { BridgeError } from './result';
import { id, returns, text, type DomainCalls } from './schemas';

const chatInput = z.strictObject({
  // The service's 100 KB limit is checked by the core and the service; this bound only stops abuse.
  message: z.string().max(1_000_000),
  agent: text(200).optional(),
  session_id: text(200).optional(),
  /** This client began the session (a new one, not a pasted id): its transcript is known from the start. */
  startedHere: z.boolean().optional(),
  /** The profile to send with (the one the session belongs to); the active one when left out. */
  profileId: id.optional(),
});

export const CHAT_CALLS = {
  'chat:send': { input: chatInput, output: returns<ChatReply>() },
  /**
   * Starts a streamed chat named by the renderer (so it listens before the first chunk); its chunks
   * and its end arrive as `chat:chunk` and `chat:end` events.
   */
  'chat:stream': { input: chatInput.extend({ streamId: z.uuid() }), output: returns<StreamStarted>() },
  /**
   * The streams of a session still coming in the core, with their text so far: a reloaded (or
   * reopened) window shows them and follows their `chat:chunk` / `chat:end` events from there.
   */
  'chat:live': { input: z.strictObject({ session_id: text(200) }), output: returns<LiveStream[]>() },
  'chat:cancel': { input: z.strictObject({ streamId: id }), output: returns<{ cancelled: boolean }>() },
  /** The raw frames of a stream that ended in this run of the console (the last few are kept). */
  'chat:frames': { input: z.strictObject({ streamId: id }), output: returns<StreamFrames>() },
  /** A chat request as a runnable `curl` command for the active profile (key as $AGENT_API_KEY). */
  'chat:curl': {
    input: chatInput.omit({ startedHere: true }).extend({ stream: z.boolean() }),
    output: returns<{ command: string }>(),
  },
} as const satisfies DomainCalls<'chat'>;

export interface ChatEvents {
  'chat:chunk': StreamChunkEvent;
  'chat:end': StreamEndEvent;
}

export interface StreamStarted {
  streamId: string;
  requestId?: string;
  headersMs?: number;
}

/** A streamed reply still coming in the core. */
export interface LiveStream {
  streamId: string;
  message: string;
  agent?: string;
  /** The chunks so far (indexes from 0); later `chat:chunk` events carry the rest. */
  chunks: StreamChunkEvent['chunks'];
  timing: StreamEndEvent['timing'];
  requestId?: string;
}

export interface StreamChunkEvent {
  streamId: string;
  /** Chunks that arrived since the last event (the core batches them). */
  chunks: { index: number; content: string; atMs: number; gapMs: number }[];
}

/**
 * Up to this many raw frames travel with `chat:end`; a longer stream's are read with `chat:frames`
 * when the inspector or "Save as fixture" needs them: 20,000 frames in the end event made one
 * main-thread task of about 100 ms in the page that received it.
 */
export const INLINE_FRAMES = 2_000;
/** Up to this many characters of the reply travel with `chat:end`; the page has them all as chunks. */
export const INLINE_TEXT = 64 * 1024;

export type StreamFrames = { atMs: number; data: string; comment?: boolean }[];

export interface StreamEndEvent {
  streamId: string;
  status: 'done' | 'failed' | 'cancelled';
  /** The whole reply when it is at most INLINE_TEXT characters long (its chunks always came before). */
  text?: string;
  textLength: number;
  chunkCount: number;
  timing: { headersMs?: number; firstChunkMs?: number; totalMs?: number };
  /** The raw frames when there are at most INLINE_FRAMES of them; otherwise `chat:frames` has them. */
  frames?: StreamFrames;
  frameCount: number;
  /** The stream's closing `[DONE]` arrived. */
  sawDone: boolean;
  requestId?: string;
  error?: BridgeError;
}
