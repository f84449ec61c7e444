// Where the suites come from: in the desktop app the native folder chooser, and nothing typed; in
// the web host (no native dialog) a typed path to a folder inside the home folder, a relative one
// starting there. Either way the core checks the folder and watches it, and a HAR file's chats
// can be written into it as new suites.
import { useState } from 'react';
import { ErrorMessage } from '../../components/error-message';
import { useAppInfo } from '../../data/app';
import { HarCasesButton } from './har-cases-button';
import { openFolder, setPath, useTests } from './tests-store';

/** What a typed path may name: the core refuses anything else, in the same words. */
export const FOLDER_HINT =
  'A folder inside your home folder; a relative path (projects/agent-tests) starts there.';

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
  const desktop = info.data?.transport === 'electron';
  return (
    <div className="card tests-folder">
      {desktop ? (
        <div className="tests-folder-form">
          <span>Folder of suite files</span>
          <button type="button" disabled={busy} onClick={() => void open()}>
            Choose folder…
          </button>
        </div>
      ) : (
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
            placeholder="projects/agent-tests"
            aria-describedby="tests-folder-hint"
            spellCheck={false}
            onChange={(e) => setPath(e.target.value)}
          />
          <button type="submit" disabled={busy || path.trim() === ''}>
            Open
          </button>
          <p id="tests-folder-hint" className="muted tests-folder-hint">
            {FOLDER_HINT}
          </p>
        </form>
      )}
      {listing ? (
        <>
          <p className="muted tests-watching">
            Watching <code>{listing.folder}</code>: edits made in an editor show here.
          </p>
          <HarCasesButton />
        </>
      ) : null}
      {error ? <ErrorMessage error={error} /> : null}
    </div>
  );
}
