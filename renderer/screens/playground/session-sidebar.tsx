// The sessions this console has recorded (the API keeps no history), newest first.
// Choosing one reopens it with its messages, after a reload or a restart too.
import { ErrorMessage } from '../../components/error-message';
import { forgetSession, useSessions } from '../../data/transcripts';
import { usePlayground } from './playground-store';
import { newSession, openSession } from './session-actions';

function ago(iso: string): string {
  const seconds = Math.round((Date.now() - Date.parse(iso)) / 1000);
  if (seconds < 60) return 'just now';
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min ago`;
  if (seconds < 86_400) return `${Math.floor(seconds / 3600)} h ago`;
  return new Date(iso).toLocaleDateString();
}

export function SessionSidebar() {
  const sessions = useSessions();
  const current = usePlayground((s) => s.session.id);
  const list = [...(sessions.data?.summaries ?? [])].sort((a, b) =>
    b.lastActivityAt.localeCompare(a.lastActivityAt),
  );
  return (
    <nav className="pg-sidebar" aria-label="Sessions">
      <h2>Sessions</h2>
      {sessions.isError ? (
        <ErrorMessage error={sessions.error} title="Sessions could not be listed." />
      ) : null}
      {sessions.data && list.length === 0 ? (
        <p className="muted pg-sidebar-empty">
          Sessions you chat in appear here, and reopen after a restart.
        </p>
      ) : null}
      <ul>
        {list.map((s) => (
          <li key={s.id} className={s.id === current ? 'current' : undefined}>
            <button
              type="button"
              className="pg-session-item"
              aria-current={s.id === current ? 'true' : undefined}
              onClick={() => void openSession(s.id)}
              title={s.id}
            >
              <span className="pg-session-preview">{s.title || s.lastMessage?.preview || s.id}</span>
              <span className="pg-session-meta">
                {s.agent} · {s.messageCount} msg · {ago(s.lastActivityAt)}
              </span>
            </button>
            <button
              type="button"
              className="pg-session-forget"
              aria-label={`Forget session ${s.id}`}
              title="Forget this session’s record on this computer"
              onClick={() => {
                if (
                  window.confirm('Forget this session’s record on this computer? The service keeps its own.')
                ) {
                  void forgetSession(s.id).then(() => {
                    if (usePlayground.getState().session.id === s.id) newSession();
                  });
                }
              }}
            >
              ×
            </button>
          </li>
        ))}
      </ul>
      {sessions.data && sessions.data.unreadable.length > 0 ? (
        <p className="warning pg-sidebar-warning">
          {sessions.data.unreadable.length} recorded session file(s) could not be read and are not listed.
        </p>
      ) : null}
    </nav>
  );
}
