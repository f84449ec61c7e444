// The request log: every call the core made, newest first, live. A row opens its detail (headers,
// bodies, rate headers); "Copy as curl" gives a runnable command with the key as a variable, never
// the key; the whole log exports as JSON or HAR 1.2.
import { useMemo, useState } from 'react';
import type { RequestLogEntry } from '../../../shared/request-log-entry';
import { bridge } from '../../bridge';
import { downloadText } from '../../components/download';
import { ErrorMessage } from '../../components/error-message';
import { useLog } from '../../stores/live';

function pathOf(url: string): string {
  try {
    const u = new URL(url);
    return `${u.pathname}${u.search}`;
  } catch {
    return url;
  }
}

function Headers({ title, headers }: { title: string; headers: Record<string, string> }) {
  const rows = Object.entries(headers);
  return (
    <>
      <h4>{title}</h4>
      {rows.length === 0 ? (
        <p className="muted">None.</p>
      ) : (
        <dl className="facts headers">
          {rows.map(([name, value]) => (
            <div key={name} className="fact">
              <dt>{name}</dt>
              <dd>
                <code>{value}</code>
              </dd>
            </div>
          ))}
        </dl>
      )}
    </>
  );
}

function Detail({ entry }: { entry: RequestLogEntry }) {
  const [curl, setCurl] = useState<string>();
  const [copied, setCopied] = useState(false);
  const [error, setError] = useState<unknown>();
  async function copyCurl() {
    setError(undefined);
    try {
      const { command } = await bridge.log.curl({ id: entry.id });
      setCurl(command);
      await navigator.clipboard.writeText(command).then(
        () => setCopied(true),
        () => setCopied(false), // no clipboard permission: the command is shown to copy by hand
      );
    } catch (e) {
      setError(e);
    }
  }
  return (
    <section className="card detail" aria-label="Request detail">
      <h3>
        {entry.method} {pathOf(entry.url)}{' '}
        <span className={`status status-${Math.floor(entry.status / 100)}xx`}>
          {entry.status || 'no reply'}
        </span>
      </h3>
      <p className="muted">
        {new Date(entry.startedAt).toLocaleString()} · {entry.durationMs} ms · {entry.responseBytes} bytes
        {entry.requestId ? (
          <>
            {' '}
            · request <code>{entry.requestId}</code>
          </>
        ) : null}
        {entry.errorCode ? (
          <>
            {' '}
            · <code>{entry.errorCode}</code>
          </>
        ) : null}
      </p>
      <div className="actions">
        <button type="button" onClick={() => void copyCurl()}>
          Copy as curl
        </button>
        {copied ? <span role="status">Copied. Set AGENT_API_KEY to your key before running it.</span> : null}
      </div>
      {curl ? (
        <pre className="code" aria-label="curl command">
          {curl}
        </pre>
      ) : null}
      {error ? <ErrorMessage error={error} /> : null}
      <h4>Rate limit</h4>
      <p>
        limit {entry.rate.limit ?? '—'} · remaining {entry.rate.remaining ?? '—'} · reset{' '}
        {entry.rate.reset ? new Date(entry.rate.reset * 1000).toLocaleTimeString() : '—'}
        {entry.rate.retryAfterS !== undefined ? ` · retry after ${entry.rate.retryAfterS}s` : ''}
      </p>
      <Headers title="Request headers" headers={entry.requestHeaders} />
      {entry.requestBody ? (
        <>
          <h4>Request body</h4>
          <pre className="code">{entry.requestBody}</pre>
        </>
      ) : null}
      <Headers title="Response headers" headers={entry.responseHeaders} />
      {entry.responseBody ? (
        <>
          <h4>Response body</h4>
          <pre className="code">{entry.responseBody}</pre>
        </>
      ) : null}
    </section>
  );
}

export function LogScreen() {
  const entries = useLog((s) => s.entries);
  const [selected, setSelected] = useState<string>();
  const [error, setError] = useState<unknown>();
  const newestFirst = useMemo(() => [...entries].reverse(), [entries]);
  const entry = entries.find((e) => e.id === selected);

  async function exportAs(format: 'json' | 'har') {
    setError(undefined);
    try {
      const { fileName, text } = await bridge.log.export({ format });
      downloadText(fileName, text, 'application/json');
    } catch (e) {
      setError(e);
    }
  }

  return (
    <section className="screen">
      <div className="screen-head">
        <h2>Log</h2>
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
          <button
            type="button"
            className="secondary"
            onClick={() => void bridge.log.clear({}).catch(setError)}
            disabled={entries.length === 0}
          >
            Clear
          </button>
        </div>
      </div>
      {error ? <ErrorMessage error={error} /> : null}
      <div className="split">
        <table className="table log-table" aria-label="Requests">
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
            {newestFirst.length === 0 ? (
              <tr>
                <td colSpan={6} className="empty">
                  No requests yet. Every call the console makes appears here.
                </td>
              </tr>
            ) : null}
            {newestFirst.map((e) => (
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
                <td>
                  <code>{pathOf(e.url)}</code>
                </td>
                <td>
                  <span className={`status status-${Math.floor(e.status / 100)}xx`}>
                    {e.status || e.errorCode || '—'}
                  </span>
                </td>
                <td>{e.durationMs} ms</td>
                <td>
                  <code>{e.requestId ?? ''}</code>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        {entry ? (
          <Detail entry={entry} />
        ) : (
          <p className="muted detail-empty">Choose a request to see its headers and bodies.</p>
        )}
      </div>
    </section>
  );
}
