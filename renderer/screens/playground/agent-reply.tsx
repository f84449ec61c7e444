// One agent reply: its state, its text (formatted or raw), copy and copy-as-curl, the error in
// place, and the stream inspector beside it. Memoised on the turn object, which changes only when
// the reply changes state; its streaming text re-renders from the buffer, once per frame.
import { memo, useState, useSyncExternalStore } from 'react';
import { ErrorMessage } from '../../components/error-message';
import { useNow } from '../../components/use-now';
import { chatCurl } from '../../data/chat';
import { saveFixture } from '../../data/mock';
import { useRate } from '../../stores/live';
import { retry, stop } from './composer-actions';
import { framesOf } from './reply-frames';
import { isActive, type ReplyTurn } from './playground-store';
import { SaveAsCase } from '../suites/save-as-case';
import { ReplyBody } from './reply-body';
import { ReplyError } from './reply-error';
import { bufferFor, type StreamBuffer } from './stream-buffer';
import { StreamInspector } from './stream-inspector';

const STATUS_LABEL: Record<ReplyTurn['status'], string> = {
  queued: 'Queued',
  scheduled: 'Will send when allowed',
  sending: 'Sending…',
  streaming: 'Streaming…',
  done: 'Done',
  stopped: 'Stopped',
  failed: 'Failed',
};

/** A reply not yet started: behind earlier messages, counting down, or held by the rate limiter. */
function Waiting({ reply }: { reply: ReplyTurn }) {
  const rate = useRate((s) => s.state);
  const now = useNow(true, 250);
  if (reply.status === 'scheduled' && reply.sendAt !== undefined) {
    const left = Math.max(0, Math.ceil((reply.sendAt - now) / 1000));
    return (
      <p className="pg-waiting" data-testid="rate-countdown">
        Sends again in <strong>{left} s</strong>, when the rate limit allows.
      </p>
    );
  }
  if (reply.status === 'queued') return <p className="pg-waiting">Queued behind the messages before it.</p>;
  // Sending, nothing back yet: the console's limiter may be holding it for a free slot.
  // The gauge follows the active key: only a reply sent with that key is said to wait for it.
  const sameKey = reply.request.keyId === undefined || reply.request.keyId === rate?.keyId;
  const heldUntil =
    rate && sameKey && rate.queued > 0
      ? (rate.pausedUntil ?? (rate.remaining === 0 ? rate.resetAt : undefined))
      : undefined;
  if (heldUntil !== undefined && heldUntil > now && now - (reply.sentAt ?? now) > 200) {
    return (
      <p className="pg-waiting pg-held" data-testid="rate-countdown">
        Waiting for the rate limit ({rate?.limit}/min): this key has no request left this minute. Sends in{' '}
        <strong>{Math.ceil((heldUntil - now) / 1000)} s</strong>; nothing is lost.
      </p>
    );
  }
  return <p className="pg-waiting">Waiting for the first chunk…</p>;
}

/**
 * The waiting line, until the reply's first text is in. The reply around it re-renders only when
 * its state changes, not per chunk, so this follows the buffer itself — told only when it goes
 * from empty to not.
 */
function BeforeFirstChunk({ reply, buffer }: { reply: ReplyTurn; buffer: StreamBuffer }) {
  const empty = useSyncExternalStore(buffer.subscribe, () => buffer.length === 0);
  return empty ? <Waiting reply={reply} /> : null;
}

function CopyButtons({
  reply,
  hasText,
  onCurl,
}: {
  reply: ReplyTurn;
  hasText: boolean;
  onCurl: (command: string) => void;
}) {
  const [done, setDone] = useState<string>();
  const [error, setError] = useState<unknown>();
  async function copy(text: string, what: string) {
    try {
      await navigator.clipboard.writeText(text);
      setDone(`${what} copied.`);
    } catch {
      setDone(`The clipboard refused; select the text to copy ${what.toLowerCase()}.`);
    }
  }
  async function copyCurl() {
    setError(undefined);
    try {
      const { message, agent, session_id, stream } = reply.request;
      const command = await chatCurl({
        message,
        stream,
        ...(agent ? { agent } : {}),
        ...(session_id ? { session_id } : {}),
      });
      onCurl(command);
      await copy(command, 'curl command');
    } catch (e) {
      setError(e);
    }
  }
  /** Records this streamed reply (chunks and pacing) for a mock agent to replay. */
  async function saveAsFixture() {
    setError(undefined);
    try {
      const agent = reply.request.agent ?? 'default';
      const saved = await saveFixture({
        name: `${agent} reply`,
        agent,
        frames: await framesOf(reply),
      });
      setDone(`Saved as fixture “${saved.name}” (${saved.chunkCount} chunks): assign it on the Mock screen.`);
    } catch (e) {
      setError(e);
    }
  }
  return (
    <>
      {hasText ? (
        <button type="button" className="link" onClick={() => void copy(bufferFor(reply.id).text(), 'Reply')}>
          Copy reply
        </button>
      ) : null}
      <button type="button" className="link" onClick={() => void copyCurl()}>
        Copy as curl
      </button>
      {(reply.frames || reply.frameCount !== undefined) && reply.request.stream ? (
        <button type="button" className="link" onClick={() => void saveAsFixture()}>
          Save as fixture
        </button>
      ) : null}
      {done ? (
        <span className="muted pg-copied" role="status">
          {done}
        </span>
      ) : null}
      {error ? <ErrorMessage error={error} /> : null}
    </>
  );
}

export const AgentReply = memo(function AgentReply({
  reply,
  compact = false,
}: {
  reply: ReplyTurn;
  compact?: boolean;
}) {
  const [raw, setRaw] = useState(false);
  const [curl, setCurl] = useState<string>();
  const buffer = bufferFor(reply.id);
  const active = isActive(reply.status);
  const finished = !active;
  // Re-evaluated when the status changes, which is when text can first be there to copy or show raw.
  const hasText = reply.status === 'streaming' || (finished && buffer.length > 0);
  const agent = reply.request.agent ?? 'default agent';
  return (
    <article
      className={`pg-reply pg-reply-${reply.status}${compact ? ' compact' : ''}`}
      aria-label={`Reply from ${agent}`}
      data-status={reply.status}
    >
      <div className="pg-reply-main">
        <header className="pg-reply-head">
          <span className="pg-agent-name">{agent}</span>
          <span className={`pg-status pg-status-${reply.status}`} data-testid="reply-status">
            {reply.status === 'stopped' && reply.neverSent ? 'Not sent' : STATUS_LABEL[reply.status]}
          </span>
          {!reply.request.stream ? <span className="badge badge-muted">not streamed</span> : null}
          <span className="pg-reply-actions">
            {hasText ? (
              <button type="button" className="link" aria-pressed={raw} onClick={() => setRaw((r) => !r)}>
                {raw ? 'Formatted' : 'Raw'}
              </button>
            ) : null}
            <CopyButtons reply={reply} hasText={hasText} onCurl={setCurl} />
            {reply.status === 'done' ? (
              <SaveAsCase
                reply={{
                  message: reply.request.message,
                  agent: reply.request.agent,
                  stream: reply.request.stream,
                  ttftMs: reply.timing?.firstChunkMs,
                  text: () => buffer.text(),
                }}
              />
            ) : null}
            {reply.status === 'queued' || reply.status === 'scheduled' ? (
              <button type="button" className="link" onClick={() => stop(reply.id)}>
                Cancel
              </button>
            ) : active && reply.request.stream ? (
              <button type="button" className="link" onClick={() => stop(reply.id)}>
                Stop
              </button>
            ) : null}
            {reply.status === 'stopped' ? (
              <button type="button" className="link" onClick={() => retry(reply.id)}>
                {reply.neverSent ? 'Send' : 'Send again'}
              </button>
            ) : null}
          </span>
        </header>
        {active ? <BeforeFirstChunk reply={reply} buffer={buffer} /> : null}
        <ReplyBody buffer={buffer} finished={finished} raw={raw} />
        {reply.status === 'stopped' && !reply.neverSent ? (
          <p className="pg-stopped-note">
            Stopped by you{buffer.length > 0 ? ': the reply above is partial.' : ' before any text arrived.'}
          </p>
        ) : null}
        {curl ? (
          <pre className="code pg-curl" tabIndex={0} aria-label="curl command">
            {curl}
          </pre>
        ) : null}
        {reply.status === 'failed' ? <ReplyError reply={reply} /> : null}
        {reply.status === 'scheduled' && reply.error ? <ReplyError reply={reply} /> : null}
      </div>
      <StreamInspector reply={reply} buffer={buffer} compact={compact} />
    </article>
  );
});
