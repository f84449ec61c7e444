// One reply's exchange: its message handed to the core — whole, or as a stream named here whose
// chunks go to the reply's buffer — and its end, its failure, or its stop written to the turn.
// What the user typed is never lost: a message whose send fails goes back in the box (when the
// box is empty) and stays in the transcript with Retry.
import type { StreamEndEvent } from '../../../shared/bridge';
import { BridgeFailure } from '../../../shared/bridge-api';
import { asBridgeError } from '../../components/error-message';
import { cancelStream, sendChat, startStream } from '../../data/chat';
import { refreshSessions } from '../../data/transcripts';
import { useRate } from '../../stores/live';
import { replyOf, updateReply, usePlayground, type ChatRequest, type ReplyStatus } from './playground-store';
import { textFromFrames } from './reply-frames';
import { bufferFor } from './stream-buffer';
import { streamRouter } from './stream-router';

export const newId = (): string => crypto.randomUUID();

/** The profile new messages go out with, and its key (the gauge's), at send time. */
export function sender(): Pick<ChatRequest, 'profileId' | 'keyId'> {
  const { profileId } = usePlayground.getState();
  const keyId = useRate.getState().state?.keyId;
  return { ...(profileId ? { profileId } : {}), ...(keyId ? { keyId } : {}) };
}

/** Sends a reply's message now (the outbox decides when) and follows it to its end. */
export async function run(id: string): Promise<void> {
  const reply = replyOf(id);
  if (!reply) return;
  const buffer = bufferFor(id);
  buffer.clear();
  updateReply(id, {
    status: 'sending',
    sentAt: Date.now(),
    attempts: reply.attempts + 1,
    error: undefined,
    failedAt: undefined,
    requestId: undefined,
    timing: undefined,
    frames: undefined,
    chunkCount: undefined,
    stopRequested: false,
    neverSent: false,
    sendAt: undefined,
  });
  const { message, agent, session_id, startedHere, stream, profileId } = reply.request;
  const input = {
    message,
    ...(profileId ? { profileId } : {}),
    ...(agent ? { agent } : {}),
    ...(session_id ? { session_id, startedHere: startedHere === true } : {}),
  };
  try {
    if (!stream) {
      const answer = await sendChat(input);
      buffer.setText(answer.response);
      updateReply(id, {
        status: 'done',
        requestId: answer.request_id,
        timing: { totalMs: Date.now() - (replyOf(id)?.sentAt ?? Date.now()) },
      });
      return;
    }
    const streamId = newId();
    const ended = streamRouter.expect(streamId, id);
    updateReply(id, { streamId });
    try {
      const started = await startStream({ streamId, ...input });
      const now = replyOf(id);
      if (now?.status === 'sending') {
        updateReply(id, {
          status: 'streaming',
          ...(started.requestId ? { requestId: started.requestId } : {}),
          timing: started.headersMs !== undefined ? { headersMs: started.headersMs } : {},
        });
      }
      // Stop was pressed while the call was on its way: the core knows the stream only now.
      if (now?.stopRequested) cancelStream(streamId);
    } catch (error) {
      streamRouter.forget(streamId);
      throw error;
    }
    finishStream(id, await ended);
  } catch (error) {
    fail(id, error);
  } finally {
    if (reply.request.session_id) refreshSessions();
  }
}

export function finishStream(id: string, end: StreamEndEvent): void {
  const buffer = bufferFor(id);
  // Every chunk event precedes the end on the same channel; this only guards a lost event (a long
  // reply's text then comes from its frames, which the core keeps).
  if (buffer.length !== end.textLength) {
    if (end.text !== undefined) buffer.setText(end.text);
    else void textFromFrames(end.streamId).then((text) => text !== undefined && buffer.setText(text));
  }
  const status: ReplyStatus =
    end.status === 'done' ? 'done' : end.status === 'cancelled' ? 'stopped' : 'failed';
  updateReply(id, {
    status,
    frames: end.frames,
    frameCount: end.frameCount,
    sawDone: end.sawDone,
    timing: end.timing,
    chunkCount: end.chunkCount,
    ...(end.requestId ? { requestId: end.requestId } : {}),
    error: status === 'failed' ? end.error : undefined,
    failedAt: status === 'failed' ? Date.now() : undefined,
  });
  if (status === 'failed' && end.textLength === 0) restoreDraft(id);
}

function fail(id: string, error: unknown): void {
  const reply = replyOf(id);
  if (!reply) return;
  if (reply.stopRequested) {
    updateReply(id, { status: 'stopped', neverSent: bufferFor(id).length === 0 });
    return;
  }
  const e = error instanceof BridgeFailure ? error.error : asBridgeError(error);
  updateReply(id, { status: 'failed', error: e, failedAt: Date.now(), requestId: e.requestId });
  if (!e.partial) restoreDraft(id);
}

/**
 * Puts a failed message back in the box, unless the user has already typed something new there.
 * In a comparison only once no agent of the round got it through: while one still answers, or
 * once one has, the message did go through.
 */
function restoreDraft(id: string): void {
  const reply = replyOf(id);
  const state = usePlayground.getState();
  if (!reply || state.draft !== '') return;
  const round = state.rounds.find((r) => r.replyIds.includes(id));
  const wentNowhere = (other: string): boolean => {
    const sibling = replyOf(other);
    return sibling?.status === 'failed' && bufferFor(other).length === 0;
  };
  if (round && !round.replyIds.every(wentNowhere)) return;
  usePlayground.setState({
    draft: reply.request.message,
    draftNote: round
      ? 'No agent got your message, so it is back in the box.'
      : 'Your message did not go through, so it is back in the box.',
  });
}
