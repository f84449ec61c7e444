// "Save as test case" on a finished playground reply, and on a recorded conversation or thread: a
// dialog to pick a suite file of the Tests screen's folder (or name a new one); the core writes the
// case into it, keeping the rest of the file as written.
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { ErrorMessage } from '../../components/error-message';
import { useAppInfo } from '../../data/app';
import { listSuites, saveCase, saveConversationCase } from '../../data/suites';
import { useNavigation } from '../../stores/navigation';
import { FOLDER_HINT } from './folder-bar';
import { openFolder, setPath, showSaved, useTests } from './tests-store';
import './tests.css';

export interface SavedReply {
  message: string;
  agent: string | undefined;
  stream: boolean;
  ttftMs: number | undefined;
  text: () => string;
}

const NEW = '__new__';

export function SaveAsCase({ reply }: { reply: SavedReply }) {
  return (
    <SaveCaseDialog
      agent={reply.agent}
      what={
        <>
          The message, {reply.agent ?? 'the default agent'}, and assertions suggested from the reply: a phrase
          it contains{reply.stream ? ', that the stream completes, first chunk within twice this one’s' : ''}.
        </>
      }
      save={(file) =>
        saveCase({
          file,
          message: reply.message,
          ...(reply.agent ? { agent: reply.agent } : {}),
          reply: reply.text(),
          stream: reply.stream,
          ...(reply.ttftMs !== undefined ? { ttftMs: reply.ttftMs } : {}),
        })
      }
    />
  );
}

/**
 * On a recorded conversation or thread: its user messages as one case's steps, then the Tests
 * screen with the new case marked, to run and edit it. `autoOpen` opens the dialog at once (a
 * history search hit's "Save as test case").
 */
export function SaveConversationAsCase({
  kind,
  id,
  agent,
  autoOpen,
}: {
  kind: 'session' | 'thread';
  id: string;
  agent: string | undefined;
  autoOpen?: boolean;
}) {
  return (
    <SaveCaseDialog
      agent={agent}
      className="secondary"
      autoOpen={autoOpen}
      what={
        <>
          This {kind === 'session' ? 'conversation' : 'thread'}’s messages as the turns of one case for{' '}
          {agent ?? 'the default agent'}, with assertions suggested from the recorded replies: a phrase each
          contains, and the facts a later reply remembered.
        </>
      }
      save={(file) => saveConversationCase({ file, kind, id })}
      onSaved={(saved) => {
        showSaved(saved);
        useNavigation.getState().go('Tests');
      }}
    />
  );
}

interface SaveCaseDialogProps {
  agent: string | undefined;
  what: ReactNode;
  save(file: string): Promise<{ file: string; caseName: string }>;
  onSaved?(saved: { file: string; caseName: string }): void;
  className?: string;
  autoOpen?: boolean | undefined;
}

function SaveCaseDialog({ agent, what, save, onSaved, className = 'link', autoOpen }: SaveCaseDialogProps) {
  const dialog = useRef<HTMLDialogElement>(null);
  const desktop = useAppInfo().data?.transport === 'electron';
  const listing = useTests((s) => s.listing);
  const path = useTests((s) => s.path);
  const [file, setFile] = useState('');
  const [newName, setNewName] = useState('saved-cases.yaml');
  const [error, setError] = useState<unknown>();
  const [done, setDone] = useState<string>();
  const fitting = listing?.suites.filter(
    (s) => !s.problems && (agent ? s.agents.includes(agent) : s.agents.length === 0),
  );
  const chosen = file || fitting?.[0]?.file || NEW;
  function show() {
    setError(undefined);
    setDone(undefined);
    void listSuites().then((l) => l && useTests.setState({ listing: l }));
    dialog.current?.showModal();
  }
  // Asked to open with the screen (a search hit's "Save as test case"): once, as it mounts.
  const opened = useRef(false);
  useEffect(() => {
    if (autoOpen && !opened.current) {
      opened.current = true;
      show();
    }
  });
  async function submit() {
    setError(undefined);
    try {
      const saved = await save(chosen === NEW ? newName.trim() : chosen);
      setDone(`Saved “${saved.caseName}” to ${saved.file}.`);
      dialog.current?.close();
      onSaved?.(saved);
    } catch (e) {
      setError(e);
    }
  }
  return (
    <>
      <button type="button" className={className} onClick={show}>
        Save as test case
      </button>
      {done ? (
        <span className="muted pg-copied" role="status">
          {done}
        </span>
      ) : null}
      <dialog ref={dialog} className="tests-save-dialog" aria-label="Save as test case">
        <h2>Save as test case</h2>
        <p className="muted">{what}</p>
        {listing ? (
          <>
            <label className="tests-save-field">
              Suite file in <code>{listing.folder}</code>
              <select value={chosen} onChange={(e) => setFile(e.target.value)}>
                {fitting?.map((s) => (
                  <option key={s.file} value={s.file}>
                    {s.file} — {s.name}
                  </option>
                ))}
                <option value={NEW}>New file…</option>
              </select>
            </label>
            {chosen === NEW ? (
              <label className="tests-save-field">
                New file name
                <input value={newName} onChange={(e) => setNewName(e.target.value)} spellCheck={false} />
              </label>
            ) : null}
          </>
        ) : desktop ? (
          <p className="tests-save-field">
            <span>No folder of suite files is open.</span>
            <button type="button" className="secondary" onClick={() => void openFolder().catch(setError)}>
              Choose folder…
            </button>
          </p>
        ) : (
          <form
            className="tests-save-field"
            onSubmit={(event) => {
              event.preventDefault();
              openFolder(path).catch(setError);
            }}
          >
            <label htmlFor="save-case-folder">Folder of suite files</label>
            <input
              id="save-case-folder"
              value={path}
              placeholder="projects/agent-tests"
              aria-describedby="save-case-folder-hint"
              spellCheck={false}
              onChange={(e) => setPath(e.target.value)}
            />
            <span id="save-case-folder-hint" className="muted">
              {FOLDER_HINT}
            </span>
            <button type="submit" className="secondary">
              Open folder
            </button>
          </form>
        )}
        {error ? <ErrorMessage error={error} /> : null}
        <div className="tests-save-actions">
          <button type="button" className="secondary" onClick={() => dialog.current?.close()}>
            Cancel
          </button>
          <button type="button" disabled={!listing} onClick={() => void submit()}>
            Save case
          </button>
        </div>
      </dialog>
    </>
  );
}
