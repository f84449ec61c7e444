// The review of a conversation or thread in its detail, and its replies' reviews in its history
// (docs/architecture.md, "Reviews"). Only what this console recorded can be reviewed.
import type { ReactNode } from 'react';
import type { TranscriptKind, TranscriptMessage } from '../../shared/transcript';
import { ErrorMessage } from '../components/error-message';
import { useLabels, useRecordReviews } from '../data/reviews';
import { MessageReview, ReviewForm } from './review-form';

interface RecordReviewProps {
  kind: TranscriptKind;
  id: string;
  /** Whether this console holds a record of it. */
  recorded: boolean;
}

export function RecordReview({ kind, id, recorded }: RecordReviewProps) {
  const reviews = useRecordReviews(kind, id);
  const labels = useLabels().data ?? [];
  const noun = kind === 'session' ? 'conversation' : 'thread';
  const review = reviews.data?.record;
  return (
    <section aria-label={`Review of this ${noun}`}>
      <h3>Review</h3>
      {!recorded ? (
        <p className="muted">Only what this console recorded can be reviewed.</p>
      ) : reviews.isError ? (
        <ErrorMessage error={reviews.error} title="The reviews could not be read." />
      ) : reviews.data ? (
        <ReviewForm
          key={`${kind}:${id}`}
          target={{ kind, id }}
          review={review}
          labels={labels}
          subject={`this ${noun}`}
        />
      ) : (
        <p className="muted">Reading the review…</p>
      )}
    </section>
  );
}

/** What each agent reply of the record shows under it: its review, and the way to make one. */
export function useReplyReviews(
  kind: TranscriptKind,
  id: string,
): (index: number, message: TranscriptMessage) => ReactNode {
  const reviews = useRecordReviews(kind, id).data;
  return (index, message) =>
    message.role === 'agent' && reviews ? (
      <MessageReview
        key={reviews.messages[index]?.reviewedAt ?? 'none'}
        target={{ kind, id, message: index }}
        review={reviews.messages[index]}
        place={index + 1}
      />
    ) : null;
}
