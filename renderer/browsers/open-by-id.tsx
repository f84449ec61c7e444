// "Open by id": paste an agent slug or id, a thread id, or a conversation's id or session id from a
// ticket, and land on it in its browser with its detail open; or a reviews export's in-app link,
// which opens its conversation or thread at that message.
import { useRef, useState, type FormEvent } from 'react';
import { ErrorMessage } from '../components/error-message';
import { lookupId } from '../data/id-lookup';
import { useActiveProfileId } from '../data/profiles';
import { useAgentsView } from '../stores/agents-view';
import { useConversationsView } from '../stores/conversations-view';
import { openHistoryLink } from '../stores/history-link';
import { useNavigation } from '../stores/navigation';
import { useThreadsView } from '../stores/threads-view';

export function OpenById() {
  const profile = useActiveProfileId();
  const [text, setText] = useState('');
  const [status, setStatus] = useState<string>();
  const [notFound, setNotFound] = useState<string>();
  const [error, setError] = useState<unknown>();
  const running = useRef<AbortController | undefined>(undefined);

  async function open(event: FormEvent) {
    event.preventDefault();
    const id = text.trim();
    if (!id || openHistoryLink(id)) return;
    running.current?.abort();
    const controller = new AbortController();
    running.current = controller;
    setError(undefined);
    setNotFound(undefined);
    setStatus('Looking…');
    try {
      const found = await lookupId(profile, id, setStatus, controller.signal);
      if (controller.signal.aborted) return;
      const { go } = useNavigation.getState();
      switch (found.kind) {
        case 'agent':
          useAgentsView.setState({ selected: found.agent });
          go('Agents');
          break;
        case 'thread':
          useThreadsView.setState({ selectedId: found.id, selectedRow: found.thread });
          go('Threads');
          break;
        case 'conversation':
          useConversationsView.setState({
            selected: {
              sessionId: found.sessionId,
              ...(found.conversation ? { row: found.conversation } : {}),
            },
          });
          go('Conversations');
          break;
        case 'none':
          setNotFound(id);
      }
    } catch (e) {
      setError(e);
    } finally {
      if (running.current === controller) {
        running.current = undefined;
        setStatus(undefined);
      }
    }
  }

  return (
    <div className="open-by-id">
      <form role="search" aria-label="Open by id" onSubmit={(event) => void open(event)}>
        <input
          type="search"
          aria-label="Agent, thread or conversation id"
          placeholder="Open by id: agent, thread or session"
          value={text}
          onChange={(event) => setText(event.target.value)}
          spellCheck={false}
        />
        <button type="submit" className="secondary" disabled={!text.trim() || status !== undefined}>
          Open
        </button>
      </form>
      {status ? (
        <span className="muted open-by-id-status" role="status">
          {status}
        </span>
      ) : null}
      {notFound ? (
        <span className="open-by-id-status" role="status">
          Nothing has the id <code>{notFound}</code>: no agent (slug or id), thread, or conversation (id or
          session id).
        </span>
      ) : null}
      {error ? <ErrorMessage error={error} title="The lookup failed." /> : null}
    </div>
  );
}
