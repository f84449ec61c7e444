// Reviewing a conversation, a thread or one reply: a verdict (good, needs work, wrong), the team's
// labels and a note — for a wrong reply, the answer it should have given (after "Should say:").
// Saved to the history database; "Saved" shows only once the core has it on disk. Every control is a native one, so Tab,
// the arrows (between verdicts) and Space reach all of it.
import { useId, useState } from 'react';
import {
  NOTE_MAX,
  VERDICT_WORDS,
  VERDICTS,
  type Review,
  type ReviewLabel,
  type ReviewTarget,
  type Verdict,
} from '../../shared/review';
import { ErrorMessage } from '../components/error-message';
import { LabelChip, ReviewSummary } from '../components/review-chips';
import { useLabels } from '../data/reviews';
import { useSaveReview } from '../data/reviews-actions';

interface ReviewFormProps {
  target: ReviewTarget;
  review: Review | undefined;
  labels: readonly ReviewLabel[];
  /** What the form is about, for its accessible name ("reply 3", "this conversation"). */
  subject: string;
  onDone?: (() => void) | undefined;
}

export function ReviewForm({ target, review, labels, subject, onDone }: ReviewFormProps) {
  const [verdict, setVerdict] = useState<Verdict | undefined>(review?.verdict);
  const [chosen, setChosen] = useState<ReadonlySet<string>>(new Set(review?.labels ?? []));
  const [note, setNote] = useState(review?.note ?? '');
  const [saved, setSaved] = useState(false);
  const save = useSaveReview();
  const name = useId();
  const toggle = (label: string) => {
    const next = new Set(chosen);
    if (!next.delete(label)) next.add(label);
    setChosen(next);
    setSaved(false);
  };
  const submit = (clear: boolean) =>
    save.mutate(
      {
        ...target,
        ...(clear || !verdict ? {} : { verdict }),
        labels: clear ? [] : labels.filter((l) => chosen.has(l.name)).map((l) => l.name),
        note: clear ? '' : note,
      },
      {
        onSuccess: () => {
          setSaved(true);
          if (clear) {
            setVerdict(undefined);
            setChosen(new Set());
            setNote('');
          }
          onDone?.();
        },
      },
    );
  return (
    <form
      className="review-form"
      aria-label={`Review of ${subject}`}
      onSubmit={(event) => {
        event.preventDefault();
        submit(false);
      }}
    >
      <fieldset>
        <legend>Verdict</legend>
        {VERDICTS.map((v) => (
          <label key={v}>
            <input
              type="radio"
              name={name}
              checked={verdict === v}
              onChange={() => {
                setVerdict(v);
                setSaved(false);
              }}
            />{' '}
            {VERDICT_WORDS[v]}
          </label>
        ))}
      </fieldset>
      <fieldset>
        <legend>Labels</legend>
        {labels.length === 0 ? (
          <span className="muted">No labels yet: add the team’s on the Reviews screen.</span>
        ) : (
          labels.map((l) => (
            <label key={l.id} className="label-choice">
              <input type="checkbox" checked={chosen.has(l.name)} onChange={() => toggle(l.name)} />
              <LabelChip name={l.name} colour={l.colour} />
            </label>
          ))
        )}
      </fieldset>
      <label>
        Note{' '}
        <span className="muted">
          {verdict === 'wrong'
            ? '(what was wrong; “Should say: …” for the answer it should have given)'
            : '(optional)'}
        </span>
        <textarea
          value={note}
          maxLength={NOTE_MAX}
          onChange={(event) => {
            setNote(event.target.value);
            setSaved(false);
          }}
        />
      </label>
      {save.isError ? <ErrorMessage error={save.error} title="The review was not saved." /> : null}
      <div className="actions">
        <button type="submit" disabled={save.isPending}>
          Save review
        </button>
        {review ? (
          <button type="button" className="secondary" disabled={save.isPending} onClick={() => submit(true)}>
            Clear review
          </button>
        ) : null}
        {onDone ? (
          <button type="button" className="secondary" onClick={onDone}>
            Close
          </button>
        ) : null}
        <span role="status" className="ok">
          {saved && !save.isPending ? 'Saved' : ''}
        </span>
      </div>
    </form>
  );
}

/** A reply's review in its history: what was said of it, and a button that opens the form. */
export function MessageReview({
  target,
  review,
  place,
}: {
  target: ReviewTarget;
  review: Review | undefined;
  place: number;
}) {
  const [open, setOpen] = useState(false);
  const labels = useLabels().data ?? [];
  return (
    <div className="message-review">
      <ReviewSummary review={review} labels={labels} />
      {!open ? (
        <button
          type="button"
          className="secondary"
          aria-label={`${review ? 'Edit the review of' : 'Review'} message ${place}`}
          onClick={() => setOpen(true)}
        >
          {review ? 'Edit review' : 'Review'}
        </button>
      ) : null}
      {review?.note && !open ? (
        <p className="review-note">
          <span className="muted">Note: </span>
          {review.note}
        </p>
      ) : null}
      {open ? (
        <ReviewForm
          target={target}
          review={review}
          labels={labels}
          subject={`message ${place}`}
          onDone={() => setOpen(false)}
        />
      ) : null}
    </div>
  );
}
