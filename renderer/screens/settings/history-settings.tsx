// The recorded history on Settings: what the data folder holds (summed by folder), how long or how
// much history is kept (applied at once, then daily, oldest first), and deleting the active
// profile's history or one agent's of it, after a confirmation that says how much goes.
import { Fragment, useState, type FormEvent } from 'react';
import './history-settings.css';
import type { DataFolderSize } from '../../../shared/transcript';
import { useConfirm } from '../../components/confirm-dialog';
import { ErrorMessage } from '../../components/error-message';
import {
  countHistory,
  useHistoryStorage,
  useRemoveHistory,
  useSetRetention,
} from '../../data/history-storage';
import { useProfiles } from '../../data/profiles';

const FOLDER_NAMES: Record<DataFolderSize['folder'], string> = {
  history: 'History database',
  transcripts: 'Transcript files',
  'test-runs': 'Test runs',
  monitors: 'Monitors',
  logs: 'Logs',
  all: 'Data folder in all',
};

/** Sizes in the units retention is set in (1 GB = 1,000,000,000 bytes). */
function size(bytes: number): string {
  if (bytes < 1000) return `${bytes} B`;
  const [value, unit] =
    bytes < 1e6 ? [bytes / 1e3, 'kB'] : bytes < 1e9 ? [bytes / 1e6, 'MB'] : [bytes / 1e9, 'GB'];
  return `${value.toFixed(value < 10 ? 1 : 0)} ${unit}`;
}

const plural = (n: number, one: string): string => `${n.toLocaleString('en-US')} ${one}${n === 1 ? '' : 's'}`;

/** A whole number of days or a number of GB typed in a field; empty is "no limit". */
function parseLimit(text: string, whole: boolean): number | undefined | 'invalid' {
  if (text.trim() === '') return undefined;
  const value = Number(text);
  if (!Number.isFinite(value) || value <= 0 || (whole && !Number.isInteger(value))) return 'invalid';
  return value;
}

export function HistorySettings() {
  const storage = useHistoryStorage();
  const profileName = useProfiles().data?.find((p) => p.active)?.name ?? 'this profile';
  const setRetention = useSetRetention();
  const remove = useRemoveHistory();
  const [confirmDialog, confirm] = useConfirm();
  const [days, setDays] = useState<string>();
  const [gb, setGb] = useState<string>();
  const [agent, setAgent] = useState('');
  const [said, setSaid] = useState<string>();
  const [problem, setProblem] = useState<string>();
  const data = storage.data;
  const daysText = days ?? data?.retention.keepDays?.toString() ?? '';
  const gbText = gb ?? data?.retention.keepGb?.toString() ?? '';

  function save(event: FormEvent) {
    event.preventDefault();
    setSaid(undefined);
    const keepDays = parseLimit(daysText, true);
    const keepGb = parseLimit(gbText, false);
    if (keepDays === 'invalid') return setProblem('Days to keep: a whole number of days, 1 or more.');
    if (keepGb === 'invalid') return setProblem('Size to keep: a number of GB above 0, such as 0.5.');
    setProblem(undefined);
    setRetention.mutate(
      { ...(keepDays ? { keepDays } : {}), ...(keepGb ? { keepGb } : {}) },
      {
        onSuccess: ({ removed }) =>
          setSaid(
            `Saved. ${removed ? `${plural(removed, 'conversation')} deleted, oldest first.` : 'Nothing had to be deleted.'}`,
          ),
      },
    );
  }

  async function askDelete() {
    setSaid(undefined);
    const chosen = agent === '' ? undefined : agent;
    const lost = await countHistory(chosen);
    const whose = chosen === undefined ? `of ${profileName}` : `with agent ${chosen}`;
    confirm(
      {
        title: `Delete ${plural(lost.conversations, 'conversation')} ${whose}?`,
        body: `This deletes this computer's record of them, ${plural(lost.messages, 'message')}, for good: the Playground, Conversations, Threads and search will no longer show them. The service keeps its own.`,
        confirmLabel: 'Delete the history',
        destructive: true,
      },
      () =>
        remove.mutate(chosen, {
          onSuccess: ({ removed }) => setSaid(`${plural(removed, 'conversation')} ${whose} deleted.`),
        }),
    );
  }

  return (
    <section className="card form" aria-labelledby="settings-history">
      {confirmDialog}
      <h2 id="settings-history">History</h2>
      {storage.isError ? <ErrorMessage error={storage.error} /> : null}
      <dl className="facts" aria-label="Data folder size">
        {data?.sizes.map(({ folder, bytes }) => (
          <Fragment key={folder}>
            <dt>{FOLDER_NAMES[folder]}</dt>
            <dd className="data-size">{size(bytes)}</dd>
          </Fragment>
        ))}
      </dl>
      <p className="note">
        {data ? `${profileName} has ${plural(data.conversations, 'recorded conversation')}.` : ''} Retention
        applies to every profile, at once when saved and then daily: the conversations idle longest go first.
      </p>
      <form className="retention-form" onSubmit={save}>
        <LimitField label="Keep conversations for (days)" empty="all" value={daysText} onChange={setDays} />
        <LimitField label="Keep at most (GB)" empty="no limit" value={gbText} onChange={setGb} />
        <button type="submit" disabled={setRetention.isPending}>
          Save retention
        </button>
      </form>
      {problem ? <p className="field-error">{problem}</p> : null}
      <div className="retention-form">
        <label>
          Delete the history of
          <select value={agent} onChange={(e) => setAgent(e.target.value)}>
            <option value="">every agent of {profileName}</option>
            {data?.agents.map((a) => (
              <option key={a.agent} value={a.agent}>
                {a.agent} ({plural(a.conversations, 'conversation')})
              </option>
            ))}
          </select>
        </label>
        <button
          type="button"
          className="danger"
          disabled={!data?.conversations || remove.isPending}
          onClick={() => void askDelete().catch((e: unknown) => setProblem((e as Error).message))}
        >
          Delete…
        </button>
      </div>
      <p role="status">{said}</p>
      {setRetention.isError ? <ErrorMessage error={setRetention.error} /> : null}
      {remove.isError ? <ErrorMessage error={remove.error} /> : null}
    </section>
  );
}

interface LimitFieldProps {
  label: string;
  /** What an empty field means. */
  empty: string;
  value: string;
  onChange(value: string): void;
}

function LimitField({ label, empty, value, onChange }: LimitFieldProps) {
  return (
    <label>
      {label}
      <input
        type="text"
        inputMode="decimal"
        placeholder={empty}
        value={value}
        onChange={(e) => onChange(e.target.value)}
      />
    </label>
  );
}
