// What this client knows of a conversation's or thread's messages. The API returns no history,
// so the view says plainly whether it is whole, partial, or unknown.
import { useEffect, useRef, type ReactNode } from 'react';
import type { Transcript, TranscriptMessage } from '../../shared/transcript';
import { ErrorMessage } from './error-message';
import { ExactTime } from './relative-time';

export interface TranscriptViewProps {
  transcript: Transcript | null | undefined;
  loading: boolean;
  error?: unknown;
  /** What the service counts, to compare with what is known here. */
  serverCount?: number | undefined;
  noun: 'conversation' | 'thread';
  /** A message on its way: shown at the end until its reply arrives. */
  pending?: string | undefined;
  /** Who answers, when the caller knows better than the record (a thread continued here is 'unknown'). */
  agent?: string | undefined;
  /** A message to scroll into view and mark (one a history search opened), by its index. */
  foundIndex?: number | undefined;
  /** What a screen shows under a message (its review), by the message's index. */
  messageExtra?: ((index: number, message: TranscriptMessage) => ReactNode) | undefined;
}

function scrollingAncestor(el: HTMLElement): HTMLElement | undefined {
  for (let at = el.parentElement; at; at = at.parentElement) {
    const { overflowY } = getComputedStyle(at);
    if ((overflowY === 'auto' || overflowY === 'scroll') && at.scrollHeight > at.clientHeight) return at;
  }
  return undefined;
}

export function TranscriptView({
  transcript,
  loading,
  error,
  serverCount,
  noun,
  pending,
  agent,
  foundIndex,
  messageExtra,
}: TranscriptViewProps) {
  const list = useRef<HTMLOListElement>(null);
  const count = transcript?.messages.length ?? 0;
  useEffect(() => {
    if (foundIndex === undefined) return;
    const item = list.current?.children[foundIndex] as HTMLElement | undefined;
    if (!item) return;
    // Only the pane that holds the history scrolls: scrollIntoView would move the page too.
    const pane = scrollingAncestor(item);
    if (pane) {
      const offset = item.getBoundingClientRect().top - pane.getBoundingClientRect().top;
      pane.scrollTop += offset - (pane.clientHeight - item.offsetHeight) / 2;
    }
    item.focus({ preventScroll: true });
  }, [foundIndex, count]);
  if (error) return <ErrorMessage error={error} title="The local history could not be read." />;
  if (loading && !transcript) return <p className="muted">Reading the local history…</p>;
  const messages = transcript?.messages ?? [];
  return (
    <div className="transcript" aria-label="History">
      {!transcript ? (
        <p className="note transcript-note" data-testid="history-note">
          No history known here. The service does not return a {noun}’s messages, and this console did not
          take part in this one
          {serverCount !== undefined ? ` (the service counts ${serverCount} messages)` : ''}.
        </p>
      ) : transcript.knownFrom === 'partial' ? (
        <p className="note transcript-note" data-testid="history-note">
          Partly known: this {noun} began elsewhere, so earlier messages exist that this console never saw.
          Shown: the {messages.length} recorded here
          {serverCount !== undefined ? `; the service counts ${serverCount}` : ''}.
        </p>
      ) : (
        <p className="note transcript-note" data-testid="history-note">
          Known from the start: {messages.length} messages
          {serverCount !== undefined && serverCount !== messages.length
            ? ` (the service counts ${serverCount}; messages sent elsewhere are not shown)`
            : ''}
          .
        </p>
      )}
      {messages.length > 0 || pending ? (
        <ol className="messages" ref={list}>
          {messages.map((m, i) => (
            <li
              key={i}
              className={`message message-${m.role} message-${m.status}${i === foundIndex ? ' message-found' : ''}`}
              {...(i === foundIndex ? { tabIndex: -1, 'aria-label': 'The message the search found' } : {})}
            >
              <div className="message-head">
                <strong>{m.role === 'user' ? 'You' : (agent ?? transcript?.agent ?? 'Agent')}</strong>
                <ExactTime iso={m.at} />
                {m.status !== 'complete' ? (
                  <span className={`badge badge-${m.status}`}>{m.status}</span>
                ) : null}
              </div>
              {m.content ? <div className="message-text">{m.content}</div> : null}
              {m.error ? <div className="message-error">{m.error}</div> : null}
              {messageExtra?.(i, m)}
            </li>
          ))}
          {pending ? (
            <>
              <li className="message message-user message-sending">
                <div className="message-head">
                  <strong>You</strong> <span className="muted">sending…</span>
                </div>
                <div className="message-text">{pending}</div>
              </li>
              <li className="message message-agent message-waiting" role="status">
                <span className="spinner" aria-hidden="true" /> Waiting for the reply…
              </li>
            </>
          ) : null}
        </ol>
      ) : null}
    </div>
  );
}
