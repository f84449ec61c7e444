// A streamed reply's raw frames: those it ended with (a short stream's), else read from the core,
// which keeps the last few ended streams (a long one's), for the inspector and "Save as fixture".
import type { StreamEndEvent } from '../../../shared/bridge';
import { STREAM_DONE } from '../../../shared/api-limits';
import { streamFrames } from '../../data/chat';
import { updateReply, type ReplyTurn } from './playground-store';

/** True when the stream's raw frames include the closing `[DONE]`. */
export function sawDone(frames: StreamEndEvent['frames'] | undefined): boolean {
  return frames?.some((f) => !f.comment && f.data === STREAM_DONE) ?? false;
}

/** The reply spelled by a stream's raw frames (their `content`s), or undefined when they are gone. */
export async function textFromFrames(streamId: string): Promise<string | undefined> {
  try {
    const frames = await streamFrames(streamId);
    return frames
      .map((f) => {
        if (f.comment || f.data === STREAM_DONE) return '';
        const event = JSON.parse(f.data) as { content?: unknown };
        return typeof event.content === 'string' ? event.content : '';
      })
      .join('');
  } catch {
    return undefined;
  }
}

/** A reply's raw frames, kept on the reply once read. */
export async function framesOf(reply: ReplyTurn): Promise<NonNullable<ReplyTurn['frames']>> {
  if (reply.frames) return reply.frames;
  if (!reply.streamId || reply.frameCount === undefined) return [];
  const frames = await streamFrames(reply.streamId);
  updateReply(reply.id, { frames });
  return frames;
}
