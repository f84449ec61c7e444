// The detail pane the browsers share (a conversation, a thread): a head with its close button, its
// facts, what can be done with its known history (export it, replay it), and the history itself.
import type { ReactNode } from 'react';
import type { RecordReviews } from '../../shared/review';
import type { MessageRange, Transcript } from '../../shared/transcript';
import { downloadText } from './download';
import { historyFileName, historyJson, historyMarkdown, type HistorySubject } from './history-export';
import { TranscriptView, type MessagePaging, type TranscriptViewProps } from './transcript-view';
import { useEscapeToClose } from './use-escape';

interface DetailPanelProps {
  label: string;
  title: ReactNode;
  onClose(): void;
  children: ReactNode;
}

export function DetailPanel({ label, title, onClose, children }: DetailPanelProps) {
  useEscapeToClose(onClose);
  return (
    <section className="card detail browse-detail" aria-label={label}>
      <div className="detail-head">
        <h2>{title}</h2>
        <button type="button" className="secondary" aria-label="Close detail" onClick={onClose}>
          ×
        </button>
      </div>
      {children}
    </section>
  );
}

/** A definition list of what the service lists about the item. */
export function Facts({ items }: { items: [term: string, value: ReactNode][] }) {
  return (
    <dl className="facts">
      {items.map(([term, value]) => (
        <FactRow key={term} term={term} value={value} />
      ))}
    </dl>
  );
}

function FactRow({ term, value }: { term: string; value: ReactNode }) {
  return (
    <>
      <dt>{term}</dt>
      <dd>{value}</dd>
    </>
  );
}

interface HistoryActionsProps {
  subject: HistorySubject;
  /** The part of the record read so far; null when there is none. */
  history: MessageRange | null | undefined;
  /** The whole record, read when an export asks for it. */
  readWhole(): Promise<Transcript | null>;
  /** The record's reviews, kept in its exports. */
  reviews?: RecordReviews | undefined;
  /** Opens the replay of this history (its user messages sent again to another agent). */
  onReplay(): void;
  /** Actions of this kind of item, first in the row (Continue in playground). */
  children?: ReactNode;
}

/**
 * Export the known history (Markdown to paste into a ticket, JSON to keep) and replay it. Only these
 * read the record whole, when asked.
 */
export function HistoryActions({
  subject,
  history,
  readWhole,
  reviews,
  onReplay,
  children,
}: HistoryActionsProps) {
  // A question of the user's is in what is shown, or may be in what is not read yet.
  const canReplay = history ? history.from > 0 || history.messages.some((m) => m.role === 'user') : false;
  const hasMessages = (history?.total ?? 0) > 0;
  async function exportAs(format: 'md' | 'json') {
    const known = await readWhole();
    downloadText(
      historyFileName(subject.kind, subject.id, format),
      format === 'md'
        ? historyMarkdown(subject, known, reviews)
        : historyJson(subject, known, new Date().toISOString(), reviews),
      format === 'md' ? 'text/markdown;charset=utf-8' : 'application/json',
    );
  }
  return (
    <div className="actions detail-actions">
      {children}
      <button type="button" className="secondary" disabled={!hasMessages} onClick={() => void exportAs('md')}>
        Export Markdown
      </button>
      <button
        type="button"
        className="secondary"
        disabled={!hasMessages}
        onClick={() => void exportAs('json')}
      >
        Export JSON
      </button>
      <button
        type="button"
        className="secondary"
        disabled={!canReplay}
        title={canReplay ? undefined : 'Replay needs the user messages, and none are known here.'}
        onClick={onReplay}
      >
        Replay…
      </button>
    </div>
  );
}

interface HistorySectionProps {
  history: { history: MessageRange | null | undefined; isPending: boolean; error: unknown } & MessagePaging;
  serverCount: number | undefined;
  noun: 'conversation' | 'thread';
  pending?: string | undefined;
  agent?: string | undefined;
  /** The message a history search opened, scrolled to and marked. */
  foundIndex?: number | undefined;
  /** What shows under each message (its review). */
  messageExtra?: TranscriptViewProps['messageExtra'];
}

export function HistorySection({
  history,
  serverCount,
  noun,
  pending,
  agent,
  foundIndex,
  messageExtra,
}: HistorySectionProps) {
  return (
    <>
      <h3>History</h3>
      <TranscriptView
        history={history.history}
        paging={history}
        loading={history.isPending}
        error={history.error}
        serverCount={serverCount}
        noun={noun}
        pending={pending}
        agent={agent}
        foundIndex={foundIndex}
        messageExtra={messageExtra}
      />
    </>
  );
}
