// A new thread: title (optional: the service derives one), agent (optional: the default agent) and
// the first message (required). The reply shows in the thread, which opens.
import { useAllAgents } from '../../data/agents';
import { ErrorMessage } from '../../components/error-message';
import { useThreadsView, type NewThreadDraft } from '../../stores/threads-view';
import { createThread } from './thread-actions';
import { useActiveProfileId } from '../../data/profiles';

function setDraft(patch: Partial<NewThreadDraft>): void {
  useThreadsView.setState(({ draft }) => ({ draft: { ...draft, ...patch } }));
}

export function ThreadCreateForm() {
  const profile = useActiveProfileId();
  const agents = useAllAgents();
  const draft = useThreadsView((s) => s.draft);
  const pending = useThreadsView((s) => s.createPending);
  const error = useThreadsView((s) => s.createError);
  const agentName = agents.data?.find((a) => a.slug === draft.agent)?.name;
  return (
    <form
      className="card form thread-create"
      aria-label="New thread"
      onSubmit={(event) => {
        event.preventDefault();
        if (draft.message.trim()) void createThread(profile, draft);
      }}
    >
      <h2>New thread</h2>
      <label>
        Title
        <input
          value={draft.title}
          placeholder="Optional: the service derives one from the message"
          onChange={(event) => setDraft({ title: event.target.value })}
          disabled={pending}
        />
      </label>
      <label>
        Agent
        <select
          value={draft.agent}
          onChange={(event) => setDraft({ agent: event.target.value })}
          disabled={pending}
        >
          <option value="">Default agent (the first deployed)</option>
          {(agents.data ?? []).map((a) => (
            <option key={a.agent_id} value={a.slug}>
              {a.name} ({a.slug}){a.status !== 'deployed' ? ` — ${a.status}` : ''}
            </option>
          ))}
        </select>
      </label>
      <label>
        First message
        <textarea
          rows={3}
          value={draft.message}
          onChange={(event) => setDraft({ message: event.target.value })}
          disabled={pending}
        />
      </label>
      {error ? <ErrorMessage error={error} title="The thread was not created." /> : null}
      <div className="actions">
        <button type="submit" disabled={pending || !draft.message.trim()}>
          {pending ? 'Creating…' : 'Create thread'}
        </button>
        <button
          type="button"
          className="secondary"
          disabled={pending}
          onClick={() => useThreadsView.setState({ creating: false, createError: undefined })}
        >
          Cancel
        </button>
        {pending ? (
          <span className="muted" role="status">
            <span className="spinner" aria-hidden="true" /> Waiting for {agentName ?? 'the agent'}’s reply…
          </span>
        ) : null}
      </div>
    </form>
  );
}
