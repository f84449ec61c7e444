// The Log's filter controls: method and status from what the log holds, path and free text.
import type { RequestLogRow } from '../../../shared/request-log-entry';
import { isFiltered, NO_FILTER, type LogFilter } from './log-filter';

const STATUS_CHOICES: [value: string, label: string][] = [
  ['', 'Any status'],
  ['2xx', '2xx success'],
  ['4xx', '4xx refused'],
  ['5xx', '5xx failed'],
  ['none', 'No reply'],
];

export function LogFilterBar({
  entries,
  filter,
  onChange,
  shown,
}: {
  entries: RequestLogRow[];
  filter: LogFilter;
  onChange: (filter: LogFilter) => void;
  shown: number;
}) {
  const methods = [...new Set(entries.map((e) => e.method))].sort();
  const set = (patch: Partial<LogFilter>) => onChange({ ...filter, ...patch });
  return (
    <form
      className="log-filter"
      role="search"
      aria-label="Filter requests"
      onSubmit={(e) => e.preventDefault()}
    >
      <label>
        Method
        <select value={filter.method} onChange={(e) => set({ method: e.target.value })}>
          <option value="">Any</option>
          {methods.map((m) => (
            <option key={m} value={m}>
              {m}
            </option>
          ))}
        </select>
      </label>
      <label>
        Path
        <input
          type="search"
          value={filter.path}
          placeholder="/api/v1/chat"
          onChange={(e) => set({ path: e.target.value })}
        />
      </label>
      <label>
        Status
        <select value={filter.status} onChange={(e) => set({ status: e.target.value })}>
          {STATUS_CHOICES.map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </select>
      </label>
      <label>
        Text
        <input
          type="search"
          value={filter.text}
          placeholder="order number, request id…"
          onChange={(e) => set({ text: e.target.value })}
        />
      </label>
      {isFiltered(filter) ? (
        <>
          <span className="muted" role="status">
            {shown} of {entries.length} shown
          </span>
          <button type="button" className="secondary" onClick={() => onChange(NO_FILTER)}>
            Clear filter
          </button>
        </>
      ) : null}
    </form>
  );
}
