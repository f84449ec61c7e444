// A person's verdict on a judged attempt: pass or fail, and an optional note, kept with the run
// (suites:label) so the judges can be calibrated against it on this screen and after a restart.
import { useState, type FormEvent } from 'react';
import type { HumanLabel, Label } from '../../../shared/calibration';
import { ErrorMessage } from '../../components/error-message';
import { useLabelAttempt } from '../../data/suites';

export function LabelForm({
  runId,
  cellId,
  repeat,
  current,
}: {
  runId: string;
  cellId: string;
  repeat: number;
  current: HumanLabel | undefined;
}) {
  const [label, setLabel] = useState<Label | undefined>(current?.label);
  const [note, setNote] = useState(current?.note ?? '');
  const save = useLabelAttempt();
  function submit(event: FormEvent) {
    event.preventDefault();
    if (!label) return;
    save.mutate({ runId, cellId, repeat, label, ...(note.trim() ? { note: note.trim() } : {}) });
  }
  const saved = current !== undefined && current.label === label && (current.note ?? '') === note.trim();
  return (
    <form className="tests-label" aria-label={`Your verdict on attempt ${repeat}`} onSubmit={submit}>
      <fieldset>
        <legend>Your verdict</legend>
        {(['pass', 'fail'] as const).map((value) => (
          <label key={value} className="tests-label-choice">
            <input
              type="radio"
              name={`label-${cellId}-${repeat}`}
              value={value}
              checked={label === value}
              onChange={() => setLabel(value)}
            />
            {value === 'pass' ? 'Pass' : 'Fail'}
          </label>
        ))}
      </fieldset>
      <label className="tests-label-note">
        Note
        <input type="text" value={note} maxLength={2000} onChange={(e) => setNote(e.target.value)} />
      </label>
      <button type="submit" className="secondary small" disabled={!label || save.isPending || saved}>
        {saved ? 'Saved' : 'Save label'}
      </button>
      {save.error ? <ErrorMessage error={save.error} title="The label was not saved." /> : null}
    </form>
  );
}
