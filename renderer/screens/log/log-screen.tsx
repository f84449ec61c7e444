// The request log: every call the core made, newest first, live, filtered by method, path, status
// and text. A row opens its detail (headers, bodies, rate headers) beside the table, in view
// however far down the row is; "Copy as curl" gives a runnable command with the key as a
// variable, never the key; the whole log exports as JSON or HAR 1.2, and a HAR file (this log's
// export, a browser's) imports as rows marked with its name.
import { useMemo, useState } from 'react';
import { useConfirm } from '../../components/confirm-dialog';
import { downloadText } from '../../components/download';
import { ErrorMessage } from '../../components/error-message';
import { FileButton } from '../../components/file-button';
import { exportLog, importHarToLog, useClearLog, useLogBodyMatches } from '../../data/log';
import { useLog } from '../../stores/live';
import { LogDetail } from './log-detail';
import { LogFilterBar } from './log-filter-bar';
import { isFiltered, matchesFilter, NO_FILTER, pathOf, type LogFilter } from './log-filter';
import './log.css';
import { ScreenHeading } from '../../shell/screen-heading';

export function LogScreen() {
  const entries = useLog((s) => s.entries);
  const [selected, setSelected] = useState<string>();
  const [error, setError] = useState<unknown>();
  const [importNote, setImportNote] = useState<string>();
  const [filter, setFilter] = useState<LogFilter>(NO_FILTER);
  const clear = useClearLog();
  const [confirmDialog, confirm] = useConfirm();
  const bodyMatches = useLogBodyMatches(filter.text, entries.at(-1)?.id);
  const shown = useMemo(
    () => entries.filter((e) => matchesFilter(e, filter, bodyMatches)).reverse(),
    [entries, filter, bodyMatches],
  );
  const entry = entries.find((e) => e.id === selected);

  async function exportAs(format: 'json' | 'har') {
    setError(undefined);
    try {
      const { fileName, text } = await exportLog(format);
      downloadText(fileName, text, 'application/json');
    } catch (e) {
      setError(e);
    }
  }

  async function importHar(file: File) {
    setError(undefined);
    setImportNote(undefined);
    try {
      const { imported, skipped, firstProblem } = await importHarToLog(file);
      const left =
        skipped > 0
          ? ` ${skipped} ${skipped === 1 ? 'entry was' : 'entries were'} left out: ${firstProblem ?? ''}`
          : '';
      setImportNote(
        `Imported ${imported} request${imported === 1 ? '' : 's'} from ${file.name}, marked HAR; credentials in the file were dropped.${left}`,
      );
    } catch (e) {
      setError(e);
    }
  }

  return (
    <section className="screen">
      <div className="screen-head">
        <ScreenHeading>Log</ScreenHeading>
        <div className="actions">
          <button
            type="button"
            className="secondary"
            onClick={() => void exportAs('json')}
            disabled={entries.length === 0}
          >
            Export JSON
          </button>
          <button
            type="button"
            className="secondary"
            onClick={() => void exportAs('har')}
            disabled={entries.length === 0}
          >
            Export HAR
          </button>
          <FileButton label="Import HAR…" accept=".har,application/json" onFile={(f) => void importHar(f)} />
          <button
            type="button"
            className="secondary"
            onClick={() =>
              confirm(
                {
                  title: 'Clear the log?',
                  body: `This deletes the ${entries.length} request${entries.length === 1 ? '' : 's'} in the log, here and in every window. Export it first to keep a copy.`,
                  confirmLabel: 'Clear the log',
                  destructive: true,
                },
                () => clear.mutate(undefined, { onError: setError }),
              )
            }
            disabled={entries.length === 0}
          >
            Clear
          </button>
        </div>
      </div>
      {error ? <ErrorMessage error={error} /> : null}
      {importNote ? (
        <p className="note log-import-note" role="status">
          {importNote}
        </p>
      ) : null}
      {confirmDialog}
      <LogFilterBar entries={entries} filter={filter} onChange={setFilter} shown={shown.length} />
      <div className="log-split">
        <div className="log-table-wrap">
          <table className="table log-table" aria-label="Requests">
            <colgroup>
              <col className="log-col-time" />
              <col className="log-col-method" />
              <col />
              <col className="log-col-status" />
              <col className="log-col-duration" />
              <col className="log-col-id" />
            </colgroup>
            <thead>
              <tr>
                <th scope="col">Time</th>
                <th scope="col">Method</th>
                <th scope="col">Path</th>
                <th scope="col">Status</th>
                <th scope="col">Duration</th>
                <th scope="col">Request id</th>
              </tr>
            </thead>
            <tbody>
              {shown.length === 0 ? (
                <tr>
                  <td colSpan={6} className="empty">
                    {entries.length === 0
                      ? 'No requests yet. Every call the console makes appears here.'
                      : isFiltered(filter)
                        ? 'No request matches the filter.'
                        : ''}
                  </td>
                </tr>
              ) : null}
              {shown.map((e) => (
                <tr
                  key={e.id}
                  className={e.id === selected ? 'selected' : undefined}
                  aria-selected={e.id === selected}
                  tabIndex={0}
                  onClick={() => setSelected(e.id)}
                  onKeyDown={(event) => {
                    if (event.key === 'Enter' || event.key === ' ') {
                      event.preventDefault();
                      setSelected(e.id);
                    }
                  }}
                >
                  <td>{new Date(e.startedAt).toLocaleTimeString()}</td>
                  <td>{e.method}</td>
                  <td title={e.imported ? `${pathOf(e.url)} — imported from ${e.imported}` : pathOf(e.url)}>
                    {e.imported ? (
                      <span className="badge badge-muted log-imported" title={`Imported from ${e.imported}`}>
                        HAR
                      </span>
                    ) : null}
                    <code>{pathOf(e.url)}</code>
                  </td>
                  <td title={String(e.status || e.errorCode || '')}>
                    <span className={`status status-${Math.floor(e.status / 100)}xx`}>
                      {e.status || e.errorCode || '—'}
                    </span>
                  </td>
                  <td>{e.durationMs} ms</td>
                  <td title={e.requestId}>
                    <code>{e.requestId ?? ''}</code>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        {entry ? (
          <LogDetail entry={entry} onClose={() => setSelected(undefined)} />
        ) : (
          <p className="muted detail-empty log-detail">Choose a request to see its headers and bodies.</p>
        )}
      </div>
    </section>
  );
}
