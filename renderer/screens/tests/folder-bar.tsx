// Where the suites come from: in the desktop app the native folder chooser; in the web host (no
// native dialog) a typed full path. Either way the core checks the folder and watches it.
import { useState } from 'react';
import { ErrorMessage } from '../../components/error-message';
import { useAppInfo } from '../../data/queries';
import { openFolder, setPath, useTests } from './tests-store';

export function FolderBar() {
  const info = useAppInfo();
  const path = useTests((s) => s.path);
  const listing = useTests((s) => s.listing);
  const [error, setError] = useState<unknown>();
  const [busy, setBusy] = useState(false);
  async function open(typed?: string) {
    setError(undefined);
    setBusy(true);
    try {
      await openFolder(typed);
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
  }
  return (
    <div className="card tests-folder">
      <form
        className="tests-folder-form"
        onSubmit={(event) => {
          event.preventDefault();
          void open(path);
        }}
      >
        <label htmlFor="tests-folder-path">Folder of suite files</label>
        <input
          id="tests-folder-path"
          value={path}
          placeholder="/full/path/to/agent-tests"
          spellCheck={false}
          onChange={(e) => setPath(e.target.value)}
        />
        <button type="submit" disabled={busy || path.trim() === ''}>
          Open
        </button>
        {info.data?.transport === 'electron' ? (
          <button type="button" className="secondary" disabled={busy} onClick={() => void open()}>
            Choose folder…
          </button>
        ) : null}
      </form>
      {listing ? (
        <p className="muted tests-watching">
          Watching <code>{listing.folder}</code>: edits made in an editor show here.
        </p>
      ) : null}
      {error ? <ErrorMessage error={error} /> : null}
    </div>
  );
}
