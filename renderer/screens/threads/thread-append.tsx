// The append box of an open thread. The text is kept in the view store until the service accepts
// it; when the service answers 404 the thread is gone, and the text stays to be reused.
import { useEffect, useRef } from 'react';
import { ErrorMessage } from '../../components/error-message';
import { setThreadMessage, useThreadsView, type ThreadRow } from '../../stores/threads-view';
import { sendToThread } from './thread-actions';
import { useActiveProfileId } from '../../data/profiles';

export function ThreadAppend({ thread }: { thread: ThreadRow }) {
  const profile = useActiveProfileId();
  const text = useThreadsView((s) => s.messages[thread.id] ?? '');
  const sending = useThreadsView((s) => s.sending[thread.id] !== undefined);
  const error = useThreadsView((s) => s.sendErrors[thread.id]);
  const gone = useThreadsView((s) => s.gone[thread.id] === true);
  const formRef = useRef<HTMLFormElement>(null);
  // The news arrives at the bottom of a long detail: bring it, and the kept text, into view.
  useEffect(() => {
    if (gone && !sending) formRef.current?.scrollIntoView({ block: 'end' });
  }, [gone, sending]);

  function send() {
    if (text.trim() && !sending && !gone) void sendToThread(profile, thread, text);
  }

  return (
    <form
      ref={formRef}
      className="thread-append"
      aria-label="Append to thread"
      onSubmit={(event) => {
        event.preventDefault();
        send();
      }}
    >
      {gone ? (
        <div className="warning thread-gone" role="alert">
          <strong>This thread no longer exists.</strong> The service answered 404 for <code>{thread.id}</code>
          : it was deleted there. Your message is kept below; start a new thread with it, or copy it.
          <div className="actions">
            <button
              type="button"
              onClick={() =>
                useThreadsView.setState({
                  creating: true,
                  draft: { title: thread.title, agent: thread.agent, message: text },
                  createError: undefined,
                })
              }
            >
              Start a new thread with this message
            </button>
          </div>
        </div>
      ) : error ? (
        <ErrorMessage error={error} title="The message was not delivered; it is kept below." />
      ) : null}
      <label className="visually-hidden" htmlFor={`append-${thread.id}`}>
        Message
      </label>
      <textarea
        id={`append-${thread.id}`}
        aria-label="Message"
        rows={3}
        placeholder={gone ? '' : `Message to ${thread.agent}… (Ctrl+Enter sends)`}
        value={text}
        disabled={sending}
        onChange={(event) => setThreadMessage(thread.id, event.target.value)}
        onKeyDown={(event) => {
          if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
            event.preventDefault();
            send();
          }
        }}
      />
      <div className="actions">
        <button type="submit" disabled={sending || gone || !text.trim()}>
          {sending ? 'Sending…' : 'Send'}
        </button>
      </div>
    </form>
  );
}
