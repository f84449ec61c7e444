// The open session: its id (copyable, to continue it from curl or the CLI), a new one, or one
// pasted from elsewhere (checked as the service checks it: letters and digits, at most 128).
import { useState, type FormEvent } from 'react';
import { ErrorMessage } from '../../components/error-message';
import { sessionIdProblem } from './limits';
import { newSession, openSession } from './session-actions';
import { usePlayground } from './playground-store';

export function SessionBar() {
  const session = usePlayground((s) => s.session);
  const [pasting, setPasting] = useState(false);
  const [pasted, setPasted] = useState('');
  const [copied, setCopied] = useState(false);
  const problem = pasted === '' ? undefined : sessionIdProblem(pasted.trim());

  function open(event: FormEvent) {
    event.preventDefault();
    const id = pasted.trim();
    if (sessionIdProblem(id)) return;
    void openSession(id);
    setPasted('');
    setPasting(false);
  }

  return (
    <div className="pg-session">
      <div className="pg-session-line">
        <span className="muted">Session</span>
        <code className="pg-session-id" data-testid="session-id" title={session.id}>
          {session.id}
        </code>
        <button
          type="button"
          className="link"
          onClick={() =>
            void navigator.clipboard.writeText(session.id).then(
              () => setCopied(true),
              () => setCopied(false),
            )
          }
        >
          {copied ? 'Copied' : 'Copy id'}
        </button>
        <span className="pg-session-actions">
          <button type="button" className="secondary small" onClick={() => newSession()}>
            New session
          </button>
          <button
            type="button"
            className="secondary small"
            aria-expanded={pasting}
            onClick={() => setPasting((p) => !p)}
          >
            Paste a session id
          </button>
        </span>
      </div>
      {pasting ? (
        <form className="pg-paste" onSubmit={open} aria-label="Open a session by id">
          <input
            aria-label="Session id"
            value={pasted}
            onChange={(e) => setPasted(e.target.value)}
            placeholder="Letters and digits, up to 128"
            aria-invalid={problem !== undefined}
            aria-describedby="pg-paste-problem"
            autoFocus
          />
          <button type="submit" disabled={pasted.trim() === '' || problem !== undefined}>
            Open
          </button>
          {problem ? (
            <span className="field-error" id="pg-paste-problem">
              {problem}
            </span>
          ) : null}
        </form>
      ) : null}
      {session.unknownLocally ? (
        <p className="note pg-session-note">
          This console has no record of this session: earlier messages, if any, are not shown. New messages
          continue it at the service.
        </p>
      ) : session.knownFrom === 'partial' ? (
        <p className="note pg-session-note">
          This session began elsewhere: only the messages sent from this console are shown.
        </p>
      ) : null}
      {session.loadError ? (
        <ErrorMessage error={session.loadError} title="The session could not be read." />
      ) : null}
    </div>
  );
}
