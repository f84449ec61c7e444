// "Publish status page…": the status page of the monitors on it (index.html and status.json) into a
// folder people serve as it is. The desktop app asks for the folder in its own dialog; the console
// in a browser has none, so the folder is typed, inside the home folder. Where it went is said.
import { useState } from 'react';
import type { PublishedStatusPage } from '../../../shared/monitor';
import { ErrorMessage } from '../../components/error-message';
import { useAppInfo } from '../../data/app';
import { publishStatusPage } from '../../data/monitors-actions';

export function PublishStatusPage({ onDone }: { onDone: () => void }) {
  const info = useAppInfo();
  const desktop = info.data?.transport === 'electron';
  const [path, setPath] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>();
  const [published, setPublished] = useState<PublishedStatusPage>();
  async function publish(typed?: string) {
    setError(undefined);
    setPublished(undefined);
    setBusy(true);
    try {
      setPublished((await publishStatusPage(typed)) ?? undefined);
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
  }
  return (
    <section className="card publish-status-page" aria-label="Publish status page">
      <p>
        A page for the people who use the service: each monitor on the status page with its status, its last
        90 days and its open incidents, and the maintenance ahead. Names and words only: no address, key or
        error. Its index.html and status.json replace those in the folder.
      </p>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          void publish(desktop ? undefined : path);
        }}
      >
        {desktop ? null : (
          <>
            <label htmlFor="status-page-folder">Folder for the status page</label>
            <input
              id="status-page-folder"
              value={path}
              placeholder="status-page"
              aria-describedby="status-page-folder-hint"
              spellCheck={false}
              onChange={(e) => setPath(e.target.value)}
            />
          </>
        )}
        <button type="submit" disabled={busy || (!desktop && path.trim() === '')}>
          {desktop ? 'Choose folder and publish…' : 'Publish'}
        </button>
        <button type="button" className="secondary" onClick={onDone}>
          Close
        </button>
        {desktop ? null : (
          <p id="status-page-folder-hint" className="muted">
            A folder inside your home folder; a relative path (sites/status) starts there.
          </p>
        )}
      </form>
      {published ? (
        <p role="status">
          Published to <code>{published.folder}</code>: index.html and status.json, with{' '}
          {published.monitors === 1 ? '1 monitor' : `${published.monitors} monitors`}. Serve the folder as it
          is, or open its index.html.
        </p>
      ) : null}
      {error ? <ErrorMessage error={error} title="The status page was not published." /> : null}
    </section>
  );
}
