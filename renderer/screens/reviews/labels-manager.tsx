// The team's labels: added with a colour, renamed or recoloured, deleted after a question that
// names how many reviews carry the label.
import { useState } from 'react';
import { LABEL_NAME_MAX, type ReviewLabel } from '../../../shared/review';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { ErrorMessage } from '../../components/error-message';
import { LabelChip } from '../../components/review-chips';
import { useRemoveLabel, useSaveLabel } from '../../data/reviews-actions';

const FIRST_COLOURS = ['#d03050', '#2080f0', '#18a058', '#f0a020', '#8a4fff', '#0fa3b1'];

function LabelRow({ label }: { label: ReviewLabel }) {
  const [name, setName] = useState(label.name);
  const [colour, setColour] = useState(label.colour);
  const [asking, setAsking] = useState(false);
  const save = useSaveLabel();
  const remove = useRemoveLabel();
  const changed = name !== label.name || colour !== label.colour;
  return (
    <li className="label-row">
      <LabelChip name={label.name} colour={label.colour} />
      <span className="muted">
        {label.uses === 1 ? '1 review' : `${label.uses.toLocaleString()} reviews`}
      </span>
      <input
        aria-label={`Name of ${label.name}`}
        value={name}
        maxLength={LABEL_NAME_MAX}
        onChange={(e) => setName(e.target.value)}
      />
      <input
        type="color"
        aria-label={`Colour of ${label.name}`}
        value={colour}
        onChange={(e) => setColour(e.target.value)}
      />
      <button
        type="button"
        className="secondary"
        disabled={!changed || save.isPending}
        onClick={() => save.mutate({ id: label.id, name, colour })}
      >
        Save
      </button>
      <button
        type="button"
        className="secondary danger"
        aria-label={`Delete the label ${label.name}`}
        onClick={() => setAsking(true)}
      >
        Delete
      </button>
      {save.isError ? <ErrorMessage error={save.error} /> : null}
      {remove.isError ? <ErrorMessage error={remove.error} /> : null}
      <ConfirmDialog
        open={asking}
        title={`Delete the label “${label.name}”?`}
        confirmLabel="Delete label"
        destructive
        onCancel={() => setAsking(false)}
        onConfirm={() => {
          setAsking(false);
          remove.mutate(label.id);
        }}
      >
        <p>
          {label.uses === 0
            ? 'No review carries it.'
            : `It is taken off the ${label.uses === 1 ? 'review that carries' : `${label.uses.toLocaleString()} reviews that carry`} it; their verdicts and notes stay.`}{' '}
          This cannot be undone.
        </p>
      </ConfirmDialog>
    </li>
  );
}

export function LabelsManager({ labels }: { labels: readonly ReviewLabel[] }) {
  const [name, setName] = useState('');
  const [colour, setColour] = useState(FIRST_COLOURS[labels.length % FIRST_COLOURS.length] as string);
  const add = useSaveLabel();
  return (
    <section className="card labels-manager" aria-labelledby="labels-title">
      <h2 id="labels-title">Labels</h2>
      <p className="muted">The team’s own labels, for every profile’s reviews.</p>
      {labels.length > 0 ? (
        <ul className="label-rows">
          {labels.map((l) => (
            <LabelRow key={`${l.id}:${l.name}:${l.colour}`} label={l} />
          ))}
        </ul>
      ) : null}
      <form
        className="label-add"
        onSubmit={(event) => {
          event.preventDefault();
          add.mutate({ name, colour }, { onSuccess: () => setName('') });
        }}
      >
        <label>
          New label{' '}
          <input
            value={name}
            maxLength={LABEL_NAME_MAX}
            onChange={(e) => setName(e.target.value)}
            placeholder="e.g. refund"
          />
        </label>
        <label>
          Colour <input type="color" value={colour} onChange={(e) => setColour(e.target.value)} />
        </label>
        <button type="submit" disabled={!name.trim() || add.isPending}>
          Add label
        </button>
        {add.isError ? <ErrorMessage error={add.error} title="The label was not added." /> : null}
      </form>
    </section>
  );
}
