// What this client knows of a conversation's or thread's messages. The API returns no history,
// so the view says plainly whether it is whole, partial, or unknown. A long record is read a page at
// a time (docs/architecture.md, "The history database"): it opens at its latest messages, and
// scrolling to either end of what is shown reads the page beyond it.
import { memo, useCallback, useEffect, useLayoutEffect, useRef, type ReactNode } from 'react';
import type { MessageRange, TranscriptMessage } from '../../shared/transcript';
import { ErrorMessage } from './error-message';
import { ExactTime } from './relative-time';

/** The pages beyond what is shown, as the query that reads them tells. */
export interface MessagePaging {
  hasPreviousPage: boolean;
  isFetchingPreviousPage: boolean;
  fetchPreviousPage(): unknown;
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  fetchNextPage(): unknown;
}

export interface TranscriptViewProps {
  /** The part of the record read so far; null when there is no record. */
  history: MessageRange | null | undefined;
  paging?: MessagePaging | undefined;
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

/** Reads the next page when `target` comes into view (the user scrolled to that end). */
function useLoadWhenSeen(
  target: React.RefObject<HTMLElement | null>,
  load: (() => unknown) | undefined,
  busy: boolean,
): void {
  useEffect(() => {
    const el = target.current;
    if (!el || !load || busy) return;
    const seen = new IntersectionObserver((entries) => {
      if (entries.some((entry) => entry.isIntersecting)) load();
    });
    seen.observe(el);
    return () => seen.disconnect();
  }, [target, load, busy]);
}

export function TranscriptView({
  history,
  paging,
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
  const olderEdge = useRef<HTMLLIElement>(null);
  const newerEdge = useRef<HTMLLIElement>(null);
  const opened = useRef(false);
  const from = history?.from ?? 0;
  const count = history?.messages.length ?? 0;
  useEffect(() => {
    if (foundIndex === undefined) return;
    const item = list.current?.querySelector<HTMLElement>(`[data-index="${foundIndex}"]`);
    if (!item) return;
    // Only the pane that holds the history scrolls: scrollIntoView would move the page too.
    const pane = scrollingAncestor(item);
    if (pane) {
      const offset = item.getBoundingClientRect().top - pane.getBoundingClientRect().top;
      pane.scrollTop += offset - (pane.clientHeight - item.offsetHeight) / 2;
    }
    item.focus({ preventScroll: true });
  }, [foundIndex, count]);
  // A record longer than a page opens at its latest message, as a chat does; what is older is read
  // when the user scrolls up to it.
  useLayoutEffect(() => {
    if (opened.current || count === 0) return;
    opened.current = true;
    if (foundIndex !== undefined || from === 0) return;
    const last = list.current?.lastElementChild as HTMLElement | null | undefined;
    const pane = last && scrollingAncestor(last);
    if (pane) pane.scrollTop = pane.scrollHeight;
  }, [count, from, foundIndex]);
  // Older messages land above what the user reads: the pane is moved by as much, so the message
  // that was first stays where it was (and the edge that asked for them goes out of view).
  const kept = useRef<{ index: number; top: number } | undefined>(undefined);
  const fetchPrevious = paging?.fetchPreviousPage;
  const readOlder = useCallback(() => {
    const first = list.current?.querySelector<HTMLElement>('li[data-index]');
    if (first) kept.current = { index: Number(first.dataset.index), top: first.getBoundingClientRect().top };
    void fetchPrevious?.();
  }, [fetchPrevious]);
  useLayoutEffect(() => {
    const was = kept.current;
    const item = was && list.current?.querySelector<HTMLElement>(`[data-index="${was.index}"]`);
    if (!was || !item || from >= was.index) return;
    kept.current = undefined;
    const pane = scrollingAncestor(item);
    if (pane) pane.scrollTop += item.getBoundingClientRect().top - was.top;
  }, [from]);
  const hasOlder = paging?.hasPreviousPage ?? false;
  const hasNewer = paging?.hasNextPage ?? false;
  useLoadWhenSeen(olderEdge, hasOlder ? readOlder : undefined, paging?.isFetchingPreviousPage ?? false);
  useLoadWhenSeen(
    newerEdge,
    hasNewer ? paging?.fetchNextPage : undefined,
    paging?.isFetchingNextPage ?? false,
  );
  if (error) return <ErrorMessage error={error} title="The local history could not be read." />;
  if (loading && !history) return <p className="muted">Reading the local history…</p>;
  const messages = history?.messages ?? [];
  const total = history?.total ?? 0;
  return (
    <div className="transcript" aria-label="History">
      {!history ? (
        <p className="note transcript-note" data-testid="history-note">
          No history known here. The service does not return a {noun}’s messages, and this console did not
          take part in this one
          {serverCount !== undefined ? ` (the service counts ${serverCount} messages)` : ''}.
        </p>
      ) : history.knownFrom === 'partial' ? (
        <p className="note transcript-note" data-testid="history-note">
          Partly known: this {noun} began elsewhere, so earlier messages exist that this console never saw.
          Shown: the {total} recorded here
          {serverCount !== undefined ? `; the service counts ${serverCount}` : ''}.
        </p>
      ) : (
        <p className="note transcript-note" data-testid="history-note">
          Known from the start: {total} messages
          {serverCount !== undefined && serverCount !== total
            ? ` (the service counts ${serverCount}; messages sent elsewhere are not shown)`
            : ''}
          .
        </p>
      )}
      {messages.length > 0 || pending ? (
        <ol className="messages" ref={list}>
          {hasOlder ? (
            <PageEdge
              edge={olderEdge}
              busy={paging?.isFetchingPreviousPage ?? false}
              onRead={readOlder}
              label={`Show older messages (${from.toLocaleString()} before these)`}
              busyLabel="Reading older messages…"
            />
          ) : null}
          {messages.map((m, i) => (
            <Message
              key={from + i}
              message={m}
              index={from + i}
              found={from + i === foundIndex}
              who={m.role === 'user' ? 'You' : (agent ?? history?.agent ?? 'Agent')}
              extra={messageExtra?.(from + i, m)}
            />
          ))}
          {hasNewer ? (
            <PageEdge
              edge={newerEdge}
              busy={paging?.isFetchingNextPage ?? false}
              onRead={() => void paging?.fetchNextPage()}
              label="Show newer messages"
              busyLabel="Reading newer messages…"
            />
          ) : null}
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

interface MessageProps {
  message: TranscriptMessage;
  /** Its place in the record, 0 for the first. */
  index: number;
  found: boolean;
  who: string;
  /** What the screen shows under it (its review). */
  extra?: ReactNode;
}

/** One message; kept as it was when a page is added before or after it. */
const Message = memo(function Message({ message: m, index, found, who, extra }: MessageProps) {
  return (
    <li
      data-index={index}
      className={`message message-${m.role} message-${m.status}${found ? ' message-found' : ''}`}
      {...(found ? { tabIndex: -1, 'aria-label': 'The message the search found' } : {})}
    >
      <div className="message-head">
        <strong>{who}</strong>
        <ExactTime iso={m.at} />
        {m.status !== 'complete' ? <span className={`badge badge-${m.status}`}>{m.status}</span> : null}
      </div>
      {m.content ? <div className="message-text">{m.content}</div> : null}
      {m.error ? <div className="message-error">{m.error}</div> : null}
      {extra}
    </li>
  );
});

interface PageEdgeProps {
  edge: React.RefObject<HTMLLIElement | null>;
  busy: boolean;
  onRead(): void;
  label: string;
  busyLabel: string;
}

/** The end of what is shown: read when scrolled into view, or clicked (by keyboard, say). */
function PageEdge({ edge, busy, onRead, label, busyLabel }: PageEdgeProps) {
  return (
    <li className="messages-more" ref={edge}>
      <button type="button" className="secondary" disabled={busy} onClick={onRead}>
        {busy ? busyLabel : label}
      </button>
    </li>
  );
}
