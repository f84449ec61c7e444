// How a review shows: its verdict as a badge and its labels as chips in the team's colours. Names
// are text, never markup. A label's colour is the border and a dot, the name in the page's own
// colour, so any colour reads in the light and the dark theme.
import { VERDICT_WORDS, type Review, type ReviewLabel, type Verdict } from '../../shared/review';
import './review-chips.css';

export function LabelChip({ name, colour }: { name: string; colour: string | undefined }) {
  return (
    <span className="label-chip" style={colour ? { borderColor: colour } : undefined}>
      <span className="label-dot" aria-hidden="true" style={colour ? { background: colour } : undefined} />
      {name}
    </span>
  );
}

function VerdictBadge({ verdict }: { verdict: Verdict }) {
  return <span className={`verdict verdict-${verdict}`}>{VERDICT_WORDS[verdict]}</span>;
}

/** The verdict and labels of a review, in one line; nothing when there is no review. */
export function ReviewSummary({
  review,
  labels,
}: {
  review: Review | undefined;
  labels: readonly ReviewLabel[];
}) {
  if (!review) return null;
  const colours = new Map(labels.map((l) => [l.name, l.colour]));
  return (
    <span className="review-summary">
      {review.verdict ? <VerdictBadge verdict={review.verdict} /> : null}
      {review.labels.map((name) => (
        <LabelChip key={name} name={name} colour={colours.get(name)} />
      ))}
    </span>
  );
}
