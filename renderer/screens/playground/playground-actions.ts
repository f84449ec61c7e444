// What the playground does: send (through a per-session outbox, so a session's messages reach the
// service in the order typed), stream, stop, retry, "send when allowed", compare, and open or start
// sessions. What the user typed is never lost: a message whose send fails goes back in the box
// (when the box is empty) and stays in the transcript with Retry.
import type { LiveStream, StreamEndEvent } from '../../../shared/bridge';
import { BridgeFailure } from '../../../shared/bridge-api';
import { STREAM_DONE } from '../../../shared/api-limits';
import type { Transcript, TranscriptMessage } from '../../../shared/transcript';
import { bridge } from '../../bridge';
import { asBridgeError } from '../../components/error-message';
import { MAX_MESSAGE_BYTES, newSessionId, utf8ByteLength } from './limits';
import {
  replyOf,
  updateReply,
  usePlayground,
  type ChatRequest,
  type ReplyStatus,
  type ReplyTurn,
  type Turn,
  type UserTurn,
} from './playground-store';
import { bufferFor } from './stream-buffer';
import { attach, expectStream, forgetStream, isFollowed, readLive } from './stream-router';
import { queryClient } from '../../data/query-client';
import { queryKeys } from '../../data/query-keys';
import { useRate } from '../../stores/live';

const newId = (): string => crypto.randomUUID();

function refreshSessions(): void {
  // Every profile's session list: a reply may land after a profile switch.
  void queryClient.invalidateQueries({ queryKey: queryKeys.transcripts.root() });
}

// ---- Sending -------------------------------------------------------------------------------

/**
 * Chat replies waiting their turn, in one lane per profile and session: a session's messages reach
 * the service in the order typed, one at a time, while other sessions and profiles go on. The core
 * applies each key's rate limit, so a message held by one key never holds another key's.
 */
const lanes = new Map<string, string[]>();
const pumping = new Set<string>();

function laneOf(reply: ReplyTurn): string {
  return `${reply.request.profileId ?? ''} ${reply.request.session_id ?? reply.id}`;
}

async function pump(lane: string): Promise<void> {
  if (pumping.has(lane)) return;
  pumping.add(lane);
  try {
    const queue = lanes.get(lane) ?? [];
    while (queue.length > 0) {
      const id = queue.shift() as string;
      if (replyOf(id)?.status === 'queued') await run(id);
    }
  } finally {
    pumping.delete(lane);
    lanes.delete(lane);
  }
}

function enqueue(id: string): void {
  const reply = replyOf(id);
  if (!reply) return;
  updateReply(id, { status: 'queued' });
  const lane = laneOf(reply);
  const queue = lanes.get(lane) ?? [];
  lanes.set(lane, queue);
  queue.push(id);
  void pump(lane);
}

/** Why the draft cannot be sent now, in words; undefined when it can. */
export function sendProblem(state = usePlayground.getState()): string | undefined {
  const text = state.draft;
  if (text.trim() === '') return 'Type a message first.';
  const bytes = utf8ByteLength(text);
  if (bytes > MAX_MESSAGE_BYTES) {
    return `This message is ${bytes.toLocaleString('en-US')} bytes; the service accepts at most ${MAX_MESSAGE_BYTES.toLocaleString('en-US')} (100 KB). Shorten it to send.`;
  }
  if (state.mode === 'compare' && state.compareAgents.length < 2)
    return 'Choose at least two agents to compare.';
  if (state.mode === 'chat' && state.session.loading) return 'The session is still opening.';
  return undefined;
}

/** The composer's Send: the draft leaves the box now and comes back if its send fails. */
export function sendDraft(): void {
  const state = usePlayground.getState();
  if (sendProblem(state) !== undefined) return;
  const message = state.draft;
  usePlayground.setState({ draft: '', draftNote: undefined });
  if (state.mode === 'compare') startCompare(message);
  else startChat(message);
}

function newReply(request: ChatRequest): ReplyTurn {
  return { role: 'agent', id: newId(), request, status: 'queued', attempts: 0 };
}

/** The profile new messages go out with, and its key (the gauge's), at send time. */
function sender(): Pick<ChatRequest, 'profileId' | 'keyId'> {
  const { profileId } = usePlayground.getState();
  const keyId = useRate.getState().state?.keyId;
  return { ...(profileId ? { profileId } : {}), ...(keyId ? { keyId } : {}) };
}

function startChat(message: string): void {
  const { session, agent, stream } = usePlayground.getState();
  const reply = newReply({
    message,
    agent,
    session_id: session.id,
    startedHere: session.startedHere,
    stream,
    ...sender(),
  });
  const user: UserTurn = { role: 'user', id: newId(), text: message, at: Date.now(), replyId: reply.id };
  usePlayground.setState((s) => ({
    ids: [...s.ids, user.id, reply.id],
    turns: { ...s.turns, [user.id]: user, [reply.id]: reply },
  }));
  enqueue(reply.id);
}

/** One message to several agents at once, outside any session (nothing to continue). */
function startCompare(message: string): void {
  const { compareAgents, stream } = usePlayground.getState();
  const from = sender();
  const replies = compareAgents.map((agent) => newReply({ message, agent, stream, ...from }));
  usePlayground.setState((s) => ({
    rounds: [...s.rounds, { id: newId(), message, at: Date.now(), replyIds: replies.map((r) => r.id) }],
    turns: { ...s.turns, ...Object.fromEntries(replies.map((r) => [r.id, r])) },
  }));
  for (const reply of replies) void run(reply.id);
}

function isCompare(id: string): boolean {
  return usePlayground.getState().rounds.some((r) => r.replyIds.includes(id));
}

async function run(id: string): Promise<void> {
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
      const answer = await bridge.chat.send(input);
      buffer.setText(answer.response);
      updateReply(id, {
        status: 'done',
        requestId: answer.request_id,
        timing: { totalMs: Date.now() - (replyOf(id)?.sentAt ?? Date.now()) },
      });
      return;
    }
    const streamId = newId();
    const ended = expectStream(streamId, id);
    updateReply(id, { streamId });
    try {
      const started = await bridge.chat.stream({ streamId, ...input });
      const now = replyOf(id);
      if (now?.status === 'sending') {
        updateReply(id, {
          status: 'streaming',
          ...(started.requestId ? { requestId: started.requestId } : {}),
          timing: started.headersMs !== undefined ? { headersMs: started.headersMs } : {},
        });
      }
      // Stop was pressed while the call was on its way: the core knows the stream only now.
      if (now?.stopRequested) void bridge.chat.cancel({ streamId }).catch(() => undefined);
    } catch (error) {
      forgetStream(streamId);
      throw error;
    }
    finishStream(id, await ended);
  } catch (error) {
    fail(id, error);
  } finally {
    if (reply.request.session_id) refreshSessions();
  }
}

function finishStream(id: string, end: StreamEndEvent): void {
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

/** Re-sends a failed, stopped or never-sent reply's message, in place. */
export function retry(id: string): void {
  const reply = replyOf(id);
  if (!reply) return;
  clearTimeout(schedules.get(id));
  schedules.delete(id);
  // The same message is going out again: the copy put back in the box would send it twice.
  if (usePlayground.getState().draft === reply.request.message) {
    usePlayground.setState({ draft: '', draftNote: undefined });
  }
  if (isCompare(id)) void run(id);
  else enqueue(id);
}

const schedules = new Map<string, ReturnType<typeof setTimeout>>();

/** After a 429: count down Retry-After (or the key's pause, if longer) and then send again. */
export function sendWhenAllowed(id: string, allowedAt: number): void {
  const reply = replyOf(id);
  if (!reply) return;
  clearTimeout(schedules.get(id));
  updateReply(id, { status: 'scheduled', sendAt: allowedAt });
  if (usePlayground.getState().draft === reply.request.message) {
    usePlayground.setState({ draft: '', draftNote: undefined });
  }
  schedules.set(
    id,
    setTimeout(
      () => {
        schedules.delete(id);
        if (replyOf(id)?.status === 'scheduled') retry(id);
      },
      Math.max(0, allowedAt - Date.now()),
    ),
  );
}

/** Stops a reply: a stream is cancelled (its partial text kept); a waiting one is not sent. */
export function stop(id: string): void {
  const reply = replyOf(id);
  if (!reply) return;
  if (reply.status === 'queued' || reply.status === 'scheduled') {
    clearTimeout(schedules.get(id));
    schedules.delete(id);
    updateReply(id, { status: 'stopped', neverSent: true, error: undefined });
    return;
  }
  if (reply.status !== 'sending' && reply.status !== 'streaming') return;
  if (!reply.request.stream || !reply.streamId) return; // one JSON reply cannot be cut short
  updateReply(id, { stopRequested: true });
  void bridge.chat.cancel({ streamId: reply.streamId }).catch(() => undefined);
}

/** The replies Stop in the composer acts on: the session's, or the latest compare round's. */
export function stoppableReplies(state = usePlayground.getState()): ReplyTurn[] {
  const ids = state.mode === 'compare' ? (state.rounds.at(-1)?.replyIds ?? []) : state.ids;
  return ids
    .map((id) => state.turns[id])
    .filter(
      (t): t is ReplyTurn =>
        t?.role === 'agent' &&
        t.request.stream &&
        (t.status === 'sending' || t.status === 'streaming' || t.status === 'queued'),
    );
}

export function stopAll(): void {
  for (const reply of stoppableReplies()) stop(reply.id);
}

/** Puts a message back in the box to edit (the box's own text is kept, if different). */
export function editMessage(text: string): void {
  const { draft } = usePlayground.getState();
  if (draft === text) return;
  usePlayground.setState({
    draft: draft.trim() === '' ? text : `${draft}\n\n${text}`,
    draftNote: undefined,
  });
}

// ---- Sessions ------------------------------------------------------------------------------

export function newSession(): void {
  usePlayground.setState({
    session: { id: newSessionId(), startedHere: true, loading: false },
    ids: [],
  });
}

const STATUS_FROM_RECORD: Record<TranscriptMessage['status'], ReplyStatus> = {
  complete: 'done',
  partial: 'failed',
  stopped: 'stopped',
  failed: 'failed',
};

function turnsFromTranscript(transcript: Transcript): Turn[] {
  const turns: Turn[] = [];
  let lastUser: UserTurn | undefined;
  for (const message of transcript.messages) {
    const at = Date.parse(message.at);
    if (message.role === 'user') {
      lastUser = { role: 'user', id: newId(), text: message.content, at };
      turns.push(lastUser);
      continue;
    }
    const status = STATUS_FROM_RECORD[message.status];
    const reply: ReplyTurn = {
      role: 'agent',
      id: newId(),
      request: {
        message: lastUser?.text ?? '',
        agent: transcript.agent === 'default' ? undefined : transcript.agent,
        session_id: transcript.id,
        stream: true,
        ...sender(),
      },
      status,
      fromHistory: true,
      attempts: 1,
      ...(message.requestId ? { requestId: message.requestId } : {}),
      ...(status === 'failed'
        ? {
            error: {
              code: message.status === 'partial' ? 'PARTIAL' : 'FAILED',
              message: message.error ?? 'This reply did not complete.',
              ...(message.requestId ? { requestId: message.requestId } : {}),
            },
          }
        : {}),
    };
    if (lastUser) lastUser.replyId = reply.id;
    bufferFor(reply.id).setText(message.content);
    turns.push(reply);
  }
  return turns;
}

/**
 * The reply still streaming in the core for the session's last message (after a reload, or a
 * session reopened from the sidebar): shown with its text so far and followed to its end. A reply
 * this page already follows is shown as it is.
 */
function followLive(turns: Turn[], live: LiveStream[], sessionId: string): void {
  const last = turns.at(-1);
  if (last?.role !== 'user' || live.length === 0) return;
  const stream = live.find((l) => l.message === last.text) ?? (live.at(-1) as LiveStream);
  const own = Object.values(usePlayground.getState().turns).find(
    (t): t is ReplyTurn => t.role === 'agent' && t.streamId === stream.streamId,
  );
  if (own && isFollowed(stream.streamId)) {
    last.replyId = own.id;
    turns.push(own);
    return;
  }
  const reply: ReplyTurn = {
    role: 'agent',
    id: newId(),
    request: {
      message: stream.message,
      agent: stream.agent,
      session_id: sessionId,
      stream: true,
      ...sender(),
    },
    status: 'streaming',
    streamId: stream.streamId,
    timing: stream.timing,
    ...(stream.requestId ? { requestId: stream.requestId } : {}),
    attempts: 1,
  };
  last.replyId = reply.id;
  turns.push(reply);
  void attach(stream, reply.id).then((end) => finishStream(reply.id, end));
}

/**
 * Opens a session: its recorded messages, if this console has any; otherwise an empty one to
 * continue. `agent` (a hand-off that names it) is chosen over the one the record names.
 */
export async function openSession(id: string, agent?: string): Promise<void> {
  usePlayground.setState({ session: { id, startedHere: false, loading: true }, ids: [] });
  let transcript: Transcript | null;
  // Live streams first: one that ends meanwhile is then in the transcript, read after.
  const { live, done } = await readLive(id);
  try {
    transcript = await bridge.transcripts.get({ kind: 'session', id });
  } catch (error) {
    done();
    if (usePlayground.getState().session.id !== id) return;
    usePlayground.setState({
      session: { id, startedHere: false, loading: false, loadError: asBridgeError(error) },
    });
    return;
  }
  if (usePlayground.getState().session.id !== id) {
    done();
    return; // another session was opened meanwhile
  }
  const turns = transcript ? turnsFromTranscript(transcript) : [];
  followLive(turns, live, id);
  done();
  usePlayground.setState((s) => ({
    session: {
      id,
      startedHere: false,
      loading: false,
      knownFrom: transcript?.knownFrom,
      unknownLocally: transcript === null,
    },
    ids: [...turns.map((t) => t.id), ...s.ids],
    turns: { ...s.turns, ...Object.fromEntries(turns.map((t) => [t.id, t])) },
    ...(agent !== undefined
      ? { agent }
      : transcript && transcript.agent !== 'default'
        ? { agent: transcript.agent }
        : {}),
  }));
}

export async function forgetSession(id: string): Promise<void> {
  await bridge.transcripts.remove({ kind: 'session', id });
  refreshSessions();
  if (usePlayground.getState().session.id === id) newSession();
}

export function clearCompare(): void {
  usePlayground.setState({ rounds: [] });
}

/** True when the stream's raw frames include the closing `[DONE]`. */
export function sawDone(frames: StreamEndEvent['frames'] | undefined): boolean {
  return frames?.some((f) => !f.comment && f.data === STREAM_DONE) ?? false;
}

/** The reply spelled by a stream's raw frames (their `content`s), or undefined when they are gone. */
async function textFromFrames(streamId: string): Promise<string | undefined> {
  try {
    const frames = await bridge.chat.frames({ streamId });
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

/** A reply's raw frames: those it ended with, else read from the core (a long stream's), and kept. */
export async function framesOf(reply: ReplyTurn): Promise<NonNullable<ReplyTurn['frames']>> {
  if (reply.frames) return reply.frames;
  if (!reply.streamId || reply.frameCount === undefined) return [];
  const frames = await bridge.chat.frames({ streamId: reply.streamId });
  updateReply(reply.id, { frames });
  return frames;
}
