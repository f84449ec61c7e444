// The queue's open item: what was asked, what the agent replied (or the record's first question),
// the review form, and the way to the whole conversation or thread at that reply.
import type { QueueItem, ReviewLabel } from '../../../shared/review';
import { ReviewForm } from '../../browsers/review-form';
import { openHistory } from '../../stores/history-link';

interface QueueItemDetailProps {
  item: QueueItem;
  /** The item's place in the list (1 for the first) and how many the filters show. */
  place: number;
  count: number;
  labels: readonly ReviewLabel[];
}

export function QueueItemDetail({ item, place, count, labels }: QueueItemDetailProps) {
  const noun = item.kind === 'session' ? 'conversation' : 'thread';
  const target = {
    kind: item.kind,
    id: item.id,
    ...(item.message === undefined ? {} : { message: item.message }),
  };
  return (
    <section className="card queue-detail" aria-label="The item under review">
      <p className="muted">
        {place} of {count} · {noun} <code>{item.id}</code>
        {item.message === undefined ? '' : ` · message ${item.message + 1}`} · {item.agent}
      </p>
      {item.asked !== undefined ? (
        <div className="message message-user">
          <div className="message-head">
            <strong>Asked</strong>
          </div>
          <div className="message-text">{item.asked}</div>
        </div>
      ) : null}
      <div className={`message ${item.message === undefined ? 'message-user' : 'message-agent'}`}>
        <div className="message-head">
          <strong>{item.message === undefined ? 'First message' : 'Reply'}</strong>
        </div>
        <div className="message-text">{item.text || '(no text)'}</div>
      </div>
      <ReviewForm
        // A new item, or its review saved elsewhere: the form starts from what is kept.
        key={`${item.kind}:${item.id}:${item.message ?? ''}:${item.review?.reviewedAt ?? ''}`}
        target={target}
        review={item.review}
        labels={labels}
        subject={item.message === undefined ? `this ${noun}` : `message ${item.message + 1}`}
      />
      <button type="button" className="secondary" onClick={() => openHistory(target)}>
        Open the {noun}
      </button>
    </section>
  );
}
