// What the composer and each reply's buttons do: send the draft (to the session, or to several
// agents at once), retry, "send when allowed" after a 429, stop, and edit a sent message.
import { cancelStream } from '../../data/chat';
import { ChatOutbox } from './chat-outbox';
import { MAX_MESSAGE_BYTES, utf8ByteLength } from './limits';
import {
  replyOf,
  updateReply,
  usePlayground,
  type ChatRequest,
  type ReplyTurn,
  type UserTurn,
} from './playground-store';
import { newId, run, sender } from './reply-run';

/** The one outbox of the page: replies queued per session, and those counting down. */
const outbox = new ChatOutbox(run);

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
  outbox.enqueue(reply.id);
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

/** Re-sends a failed, stopped or never-sent reply's message, in place. */
export function retry(id: string): void {
  const reply = replyOf(id);
  if (!reply) return;
  outbox.unschedule(id);
  // The same message is going out again: the copy put back in the box would send it twice.
  if (usePlayground.getState().draft === reply.request.message) {
    usePlayground.setState({ draft: '', draftNote: undefined });
  }
  if (isCompare(id)) void run(id);
  else outbox.enqueue(id);
}

/** After a 429: count down Retry-After (or the key's pause, if longer) and then send again. */
export function sendWhenAllowed(id: string, allowedAt: number): void {
  const reply = replyOf(id);
  if (!reply) return;
  outbox.unschedule(id);
  updateReply(id, { status: 'scheduled', sendAt: allowedAt });
  if (usePlayground.getState().draft === reply.request.message) {
    usePlayground.setState({ draft: '', draftNote: undefined });
  }
  outbox.schedule(id, allowedAt, () => {
    if (replyOf(id)?.status === 'scheduled') retry(id);
  });
}

/** Stops a reply: a stream is cancelled (its partial text kept); a waiting one is not sent. */
export function stop(id: string): void {
  const reply = replyOf(id);
  if (!reply) return;
  if (reply.status === 'queued' || reply.status === 'scheduled') {
    outbox.unschedule(id);
    updateReply(id, { status: 'stopped', neverSent: true, error: undefined });
    return;
  }
  if (reply.status !== 'sending' && reply.status !== 'streaming') return;
  if (!reply.request.stream || !reply.streamId) return; // one JSON reply cannot be cut short
  updateReply(id, { stopRequested: true });
  cancelStream(reply.streamId);
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

export function clearCompare(): void {
  usePlayground.setState({ rounds: [] });
}
