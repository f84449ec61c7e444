// The sessions this console has recorded (the API keeps no history), newest first.
// Choosing one reopens it with its messages, after a reload or a restart too.
import { useConfirm } from '../../components/confirm-dialog';
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
  const [confirmDialog, confirm] = useConfirm();
  // Newest activity first, as the history lists them.
  const list = sessions.summaries ?? [];
  return (
    <nav className="pg-sidebar" aria-label="Sessions">
      {confirmDialog}
      <h2>Sessions</h2>
      {sessions.isError ? (
        <ErrorMessage error={sessions.error} title="Sessions could not be listed." />
      ) : null}
      {sessions.first && list.length === 0 ? (
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
              onClick={() =>
                confirm(
                  {
                    title: 'Forget this session?',
                    body: `This deletes this computer's record of its ${s.messageCount} message${s.messageCount === 1 ? '' : 's'} with ${s.agent}. The service keeps its own.`,
                    confirmLabel: 'Forget the session',
                    destructive: true,
                  },
                  () =>
                    forgetSession(s.id).then(() => {
                      if (usePlayground.getState().session.id === s.id) newSession();
                    }),
                )
              }
            >
              ×
            </button>
          </li>
        ))}
      </ul>
      {sessions.hasNextPage ? (
        <button
          type="button"
          className="secondary pg-sidebar-more"
          disabled={sessions.isFetchingNextPage}
          onClick={() => void sessions.fetchNextPage()}
        >
          {sessions.isFetchingNextPage
            ? 'Loading…'
            : `Show older sessions (${list.length} of ${sessions.first?.total ?? list.length})`}
        </button>
      ) : null}
      {sessions.first && sessions.first.unreadable.length > 0 ? (
        <p
          className="warning pg-sidebar-warning"
          title={sessions.first.unreadable.map((u) => u.file).join('\n')}
        >
          {sessions.first.unreadable.length} recorded session file(s) could not be read and are not listed.
        </p>
      ) : null}
    </nav>
  );
}
