// The playground's sessions: a new one, or one reopened — its recorded messages, and a reply still
// streaming in the core for its last message, followed from where it is.
import type { LiveStream } from '../../../shared/bridge';
import type { MessageRange, Transcript, TranscriptMessage } from '../../../shared/transcript';
import { asBridgeError } from '../../components/error-message';
import { readSession } from '../../data/transcripts';
import { newSessionId } from './limits';
import {
  usePlayground,
  type ReplyStatus,
  type ReplyTurn,
  type Turn,
  type UserTurn,
} from './playground-store';
import { finishStream, newId, sender } from './reply-run';
import { bufferFor } from './stream-buffer';
import { streamRouter } from './stream-router';

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

function turnsFromTranscript(transcript: Pick<Transcript, 'messages' | 'agent' | 'id'>): Turn[] {
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
  if (own && streamRouter.isFollowed(stream.streamId)) {
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
  void streamRouter.attach(stream, reply.id).then((end) => finishStream(reply.id, end));
}

/**
 * Opens a session: its recorded messages, if this console has any; otherwise an empty one to
 * continue. `agent` (a hand-off that names it) is chosen over the one the record names.
 */
export async function openSession(id: string, agent?: string): Promise<void> {
  usePlayground.setState({ session: { id, startedHere: false, loading: true }, ids: [] });
  let transcript: MessageRange | null;
  // Live streams first: one that ends meanwhile is then in the transcript, read after.
  const { live, done } = await streamRouter.readLive(id);
  try {
    transcript = await readSession(id);
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
