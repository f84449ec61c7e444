// Where messages are typed: a multi-line box with a live UTF-8 size against the service's 100 KB
// (a message over it is never sent: the box says why and keeps it), Ctrl/Cmd+Enter to send, and
// Stop for the streams on their way. A curl command pasted into it is read as the chat it sends
// (curl-paste.ts), never put in the box.
import { useMemo, type FormEvent, type KeyboardEvent } from 'react';
import { formatBytes, MAX_MESSAGE_BYTES, utf8ByteLength } from './limits';
import { sendDraft, sendProblem, stopAll, stoppableReplies } from './composer-actions';
import { looksLikeCurl } from '../../../shared/curl-import';
import { CurlPasteButton } from './curl-paste-panel';
import { pasteCurl } from './curl-paste';
import { usePlayground } from './playground-store';

const isMac = /Mac|iPhone|iPad/.test(navigator.platform || navigator.userAgent);

export function Composer() {
  const draft = usePlayground((s) => s.draft);
  const draftNote = usePlayground((s) => s.draftNote);
  const mode = usePlayground((s) => s.mode);
  const problem = usePlayground((s) => sendProblem(s));
  const canStop = usePlayground((s) => stoppableReplies(s).length > 0);
  const bytes = useMemo(() => utf8ByteLength(draft), [draft]);
  const over = bytes > MAX_MESSAGE_BYTES;
  const level = over ? 'over' : bytes > MAX_MESSAGE_BYTES * 0.9 ? 'near' : 'ok';

  function submit(event: FormEvent) {
    event.preventDefault();
    sendDraft();
  }

  function onKeyDown(event: KeyboardEvent<HTMLTextAreaElement>) {
    if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      sendDraft();
    } else if (event.key === 'Escape' && canStop) {
      event.preventDefault();
      stopAll();
    }
  }

  return (
    <form className="pg-composer" onSubmit={submit} aria-label="Compose">
      <textarea
        id="composer"
        aria-label="Message"
        value={draft}
        onChange={(e) => usePlayground.setState({ draft: e.target.value, draftNote: undefined })}
        onKeyDown={onKeyDown}
        onPaste={(event) => {
          const text = event.clipboardData.getData('text/plain');
          if (!looksLikeCurl(text)) return;
          event.preventDefault();
          pasteCurl(text);
        }}
        rows={3}
        placeholder={mode === 'compare' ? 'One message to every ticked agent…' : 'Message the agent…'}
        aria-invalid={over}
        aria-describedby="pg-size pg-size-problem"
      />
      <div className="pg-composer-bar">
        <span className={`pg-size pg-size-${level}`} id="pg-size" data-testid="byte-counter">
          {formatBytes(bytes)} of 100 KB
        </span>
        {over ? (
          <span className="field-error pg-size-problem" id="pg-size-problem" role="alert">
            {problem}
          </span>
        ) : draftNote ? (
          <span className="pg-draft-note" role="status">
            {draftNote}
          </span>
        ) : (
          <span className="muted pg-hint">{isMac ? '⌘' : 'Ctrl'}+Enter to send</span>
        )}
        <span className="pg-composer-buttons">
          <CurlPasteButton />
          <button type="button" className="secondary" onClick={() => stopAll()} disabled={!canStop}>
            Stop
          </button>
          <button type="submit" disabled={problem !== undefined} title={problem}>
            {mode === 'compare' ? 'Send to all' : 'Send'}
          </button>
        </span>
      </div>
    </form>
  );
}
