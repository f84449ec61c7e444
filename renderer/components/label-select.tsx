// A choice of one of the team's labels, or any: the search box's filter and the review queue's.
// Apart from the chips so the search box, on the first screen, carries none of their styles.
import type { ReviewLabel } from '../../shared/review';

/** A choice of one of the team's labels, or any (""). */
export function LabelSelect({
  labels,
  value,
  onChange,
}: {
  labels: readonly ReviewLabel[];
  value: string;
  onChange: (label: string) => void;
}) {
  return (
    <label>
      Label{' '}
      <select value={value} onChange={(e) => onChange(e.target.value)}>
        <option value="">any</option>
        {labels.map((l) => (
          <option key={l.id} value={l.name}>
            {l.name}
          </option>
        ))}
      </select>
    </label>
  );
}
