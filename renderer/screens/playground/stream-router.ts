// Routes the core's stream events to replies. A stream is registered before `chat:stream` is
// called, because its chunks (and even its end) may arrive before the call's own answer does.
// A window that reopens a session while one of its replies is still streaming in the core (after
// a reload) re-attaches to it: it takes the text so far from `chat:live` and follows the events
// from there, by chunk index, so nothing is shown twice or skipped (issue 14.4).
import type { LiveStream, StreamChunkEvent, StreamEndEvent } from '../../../shared/bridge';
import { bridge } from '../../bridge';
import { bufferFor } from './stream-buffer';

interface Expected {
  replyId: string;
  /** Chunks with a lower index are already in the buffer. */
  next: number;
  resolve: (end: StreamEndEvent) => void;
}

const expected = new Map<string, Expected>();
/** While a session's live streams are being read: events of streams not (yet) known here. */
let attaching = 0;
const early = new Map<string, { chunks: StreamChunkEvent['chunks']; end?: StreamEndEvent }>();
let listening = false;

function apply(target: Expected, chunks: StreamChunkEvent['chunks']): void {
  const fresh = chunks.filter((c) => c.index >= target.next);
  if (fresh.length === 0) return;
  target.next = (fresh.at(-1) as StreamChunkEvent['chunks'][number]).index + 1;
  bufferFor(target.replyId).append(fresh);
}

function listen(): void {
  if (listening) return;
  listening = true;
  bridge.on('chat:chunk', (event) => {
    const target = expected.get(event.streamId);
    if (target) apply(target, event.chunks);
    else if (attaching > 0) {
      const seen = early.get(event.streamId) ?? { chunks: [] };
      seen.chunks.push(...event.chunks);
      early.set(event.streamId, seen);
    }
  });
  bridge.on('chat:end', (event) => {
    const target = expected.get(event.streamId);
    if (!target) {
      if (attaching > 0) early.set(event.streamId, { chunks: [], ...early.get(event.streamId), end: event });
      return;
    }
    expected.delete(event.streamId);
    target.resolve(event);
  });
}

/** Resolves with the stream's end; its chunks go to the reply's buffer meanwhile. */
export function expectStream(streamId: string, replyId: string): Promise<StreamEndEvent> {
  listen();
  return new Promise((resolve) => expected.set(streamId, { replyId, next: 0, resolve }));
}

/** The call failed before the stream started: no end will come. */
export function forgetStream(streamId: string): void {
  expected.delete(streamId);
}

/** True when this page already follows the stream (its reply is shown from its own send). */
export function isFollowed(streamId: string): boolean {
  return expected.has(streamId);
}

/**
 * Reads a session's live streams; events that arrive meanwhile are kept until `attach` (or the
 * returned `done`) so none falls between the snapshot and the re-attachment.
 */
export async function readLive(sessionId: string): Promise<{ live: LiveStream[]; done: () => void }> {
  listen();
  attaching++;
  const done = (): void => {
    attaching--;
    if (attaching === 0) early.clear();
  };
  try {
    return { live: await bridge.chat.live({ session_id: sessionId }), done };
  } catch {
    // An older core without the call, or a failure: the session opens without live replies.
    done();
    return { live: [], done: () => undefined };
  }
}

/** Shows a live stream's chunks so far in the reply's buffer and follows it to its end. */
export function attach(live: LiveStream, replyId: string): Promise<StreamEndEvent> {
  bufferFor(replyId).clear();
  return new Promise((resolve) => {
    const target: Expected = { replyId, next: 0, resolve };
    apply(target, live.chunks);
    const seen = early.get(live.streamId);
    early.delete(live.streamId);
    if (seen) apply(target, seen.chunks);
    if (seen?.end) resolve(seen.end);
    else expected.set(live.streamId, target);
  });
}
