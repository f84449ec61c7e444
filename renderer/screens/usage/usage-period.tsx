// The period: presets for the usual views, and any whole number of days the service allows
// (1–90). A typed value applies once it is valid and typing has paused, so "90" does not first
// fetch 9 days.
import { useEffect, useState } from 'react';
import { MAX_DAYS, MIN_DAYS, parseDays } from './usage-data';

const PRESETS = [7, 30, 90];
const TYPING_PAUSE_MS = 400;

export function PeriodPicker({ days, onChange }: { days: number; onChange(days: number): void }) {
  const [text, setText] = useState(String(days));
  const parsed = parseDays(text);
  useEffect(() => setText(String(days)), [days]);
  useEffect(() => {
    if (parsed === undefined || parsed === days) return;
    const timer = setTimeout(() => onChange(parsed), TYPING_PAUSE_MS);
    return () => clearTimeout(timer);
  }, [parsed, days, onChange]);
  return (
    <div className="usage-period" role="group" aria-label="Period">
      {PRESETS.map((n) => (
        <button
          key={n}
          type="button"
          className={days === n ? '' : 'secondary'}
          aria-pressed={days === n}
          onClick={() => onChange(n)}
        >
          {n} days
        </button>
      ))}
      <label className="usage-days">
        Last
        <input
          type="number"
          inputMode="numeric"
          min={MIN_DAYS}
          max={MAX_DAYS}
          value={text}
          aria-invalid={parsed === undefined}
          aria-describedby="usage-days-hint"
          onChange={(event) => setText(event.target.value)}
          onKeyDown={(event) => {
            if (event.key === 'Enter' && parsed !== undefined) onChange(parsed);
          }}
        />
        days
      </label>
      <span id="usage-days-hint" className={parsed === undefined ? 'field-error' : 'visually-hidden'}>
        A whole number from {MIN_DAYS} to {MAX_DAYS}.
      </span>
    </div>
  );
}
