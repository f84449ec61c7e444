// One request whole: headers, bodies, rate headers and "Copy as curl". The live list carries no
// headers or bodies (stores/live.ts), so the entry is read from the core when it is opened.
import { useEffect, useRef, useState } from 'react';
import type { RequestLogRow } from '../../../shared/request-log-entry';
import { ErrorMessage } from '../../components/error-message';
import { useEscapeToClose } from '../../components/use-escape';
import { logCurl, useLogEntry } from '../../data/log';
import { pathOf } from './log-filter';

function Headers({ title, headers }: { title: string; headers: Record<string, string> }) {
  const rows = Object.entries(headers);
  return (
    <>
      <h3>{title}</h3>
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

function HeadersAndBodies({ id }: { id: string }) {
  const { data: whole, error } = useLogEntry(id);
  if (error) return <ErrorMessage error={error} title="The headers and bodies could not be read." />;
  if (!whole) return <p className="muted">Reading the headers and bodies…</p>;
  return (
    <>
      <Headers title="Request headers" headers={whole.requestHeaders} />
      {whole.requestBody ? (
        <>
          <h3>Request body</h3>
          <pre className="code" tabIndex={0} aria-label="Request body">
            {whole.requestBody}
          </pre>
        </>
      ) : null}
      <Headers title="Response headers" headers={whole.responseHeaders} />
      {whole.responseBody ? (
        <>
          <h3>Response body</h3>
          <pre className="code" tabIndex={0} aria-label="Response body">
            {whole.responseBody}
          </pre>
        </>
      ) : null}
    </>
  );
}

export function LogDetail({ entry, onClose }: { entry: RequestLogRow; onClose: () => void }) {
  const [curl, setCurl] = useState<string>();
  const [copied, setCopied] = useState(false);
  const [error, setError] = useState<unknown>();
  const heading = useRef<HTMLHeadingElement>(null);
  useEscapeToClose(onClose);
  useEffect(() => {
    setCurl(undefined);
    setCopied(false);
    // Beside the table the pane is sticky, so already in view; below it (a narrow window) it is
    // brought into view. Its own scroll starts at its top.
    const pane = heading.current?.closest('section');
    if (!pane) return;
    pane.scrollTo({ top: 0 });
    const { top, bottom } = pane.getBoundingClientRect();
    if (top < 0 || bottom > window.innerHeight) pane.scrollIntoView({ block: 'nearest' });
  }, [entry.id]);
  async function copyCurl() {
    setError(undefined);
    try {
      const command = await logCurl(entry.id);
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
    <section className="card detail log-detail" aria-label="Request detail">
      <div className="detail-head">
        <h2 ref={heading}>
          {entry.method} {pathOf(entry.url)}{' '}
          <span className={`status status-${Math.floor(entry.status / 100)}xx`}>
            {entry.status || 'no reply'}
          </span>
        </h2>
        <button type="button" className="secondary" aria-label="Close request detail" onClick={onClose}>
          ×
        </button>
      </div>
      {entry.imported ? (
        <p className="note">
          Imported from <code>{entry.imported}</code>: a request recorded elsewhere, not made by this console.
        </p>
      ) : null}
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
        {/* A request made elsewhere (imported): which way it went is not known here. */}
        {entry.imported ? null : entry.proxy ? (
          <>
            {' '}
            · via the proxy <code>{entry.proxy}</code>
          </>
        ) : (
          ' · direct, no proxy'
        )}
      </p>
      <div className="actions">
        <button type="button" onClick={() => void copyCurl()}>
          Copy as curl
        </button>
        {copied ? <span role="status">Copied. Set AGENT_API_KEY to your key before running it.</span> : null}
      </div>
      {curl ? (
        <pre className="code" tabIndex={0} aria-label="curl command">
          {curl}
        </pre>
      ) : null}
      {error ? <ErrorMessage error={error} /> : null}
      <h3>Rate limit</h3>
      <p>
        limit {entry.rate.limit ?? '—'} · remaining {entry.rate.remaining ?? '—'} · reset{' '}
        {entry.rate.reset ? new Date(entry.rate.reset * 1000).toLocaleTimeString() : '—'}
        {entry.rate.retryAfterS !== undefined ? ` · retry after ${entry.rate.retryAfterS}s` : ''}
      </p>
      <HeadersAndBodies id={entry.id} />
    </section>
  );
}
