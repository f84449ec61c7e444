// The detail pane the browsers share (a conversation, a thread): a head with its close button, its
// facts, what can be done with its known history (export it, replay it), and the history itself.
import type { ReactNode } from 'react';
import type { RecordReviews } from '../../shared/review';
import type { Transcript } from '../../shared/transcript';
import { downloadText } from './download';
import { historyFileName, historyJson, historyMarkdown, type HistorySubject } from './history-export';
import { replaySteps } from './replay-plan';
import { TranscriptView, type TranscriptViewProps } from './transcript-view';
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
  transcript: Transcript | null | undefined;
  /** The record's reviews, kept in its exports. */
  reviews?: RecordReviews | undefined;
  /** Opens the replay of this history (its user messages sent again to another agent). */
  onReplay(): void;
  /** Actions of this kind of item, first in the row (Continue in playground). */
  children?: ReactNode;
}

/** Export the known history (Markdown to paste into a ticket, JSON to keep) and replay it. */
export function HistoryActions({ subject, transcript, reviews, onReplay, children }: HistoryActionsProps) {
  const known = transcript ?? null;
  const canReplay = known ? replaySteps(known).length > 0 : false;
  const hasMessages = (known?.messages.length ?? 0) > 0;
  function exportAs(format: 'md' | 'json') {
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
      <button type="button" className="secondary" disabled={!hasMessages} onClick={() => exportAs('md')}>
        Export Markdown
      </button>
      <button type="button" className="secondary" disabled={!hasMessages} onClick={() => exportAs('json')}>
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
  transcript: { data: Transcript | null | undefined; isPending: boolean; error: unknown };
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
  transcript,
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
        transcript={transcript.data}
        loading={transcript.isPending}
        error={transcript.error}
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
