// One thread: its fields, what this console knows of its history, the append box, exports of the
// known history, and the replay.
import { useQuery } from '@tanstack/react-query';
import { transcriptQuery, useProfileId } from '../../components/browse-queries';
import { downloadText } from '../../components/download';
import { ExactTime } from '../../components/relative-time';
import { replaySteps } from '../../components/replay-plan';
import { TranscriptView } from '../../components/transcript-view';
import { openReplay } from '../../stores/replay';
import { useThreadsView, type ThreadRow } from '../../stores/threads-view';
import { ThreadAppend } from './thread-append';
import { threadFileName, threadJson, threadMarkdown } from './thread-export';

export function ThreadDetail({ thread, listed }: { thread: ThreadRow; listed: boolean }) {
  const profile = useProfileId();
  const transcript = useQuery(transcriptQuery(profile, 'thread', thread.id));
  const pending = useThreadsView((s) => s.sending[thread.id]);
  const known = transcript.data ?? null;
  const canReplay = known ? replaySteps(known).length > 0 : false;

  function exportAs(format: 'md' | 'json') {
    downloadText(
      threadFileName(thread.id, format),
      format === 'md' ? threadMarkdown(thread, known) : threadJson(thread, known, new Date().toISOString()),
      format === 'md' ? 'text/markdown;charset=utf-8' : 'application/json',
    );
  }

  return (
    <section className="card detail browse-detail" aria-label="Thread detail">
      <div className="detail-head">
        <h3>{thread.title || 'Untitled thread'}</h3>
        <button
          type="button"
          className="secondary"
          aria-label="Close detail"
          onClick={() => useThreadsView.setState({ selectedId: undefined, selectedRow: undefined })}
        >
          ×
        </button>
      </div>
      <dl className="facts">
        <dt>Id</dt>
        <dd>
          <code>{thread.id}</code>
        </dd>
        <dt>Agent</dt>
        <dd>
          <code>{thread.agent}</code>
        </dd>
        <dt>Messages</dt>
        <dd>{thread.message_count}</dd>
        <dt>Created</dt>
        <dd>
          <ExactTime iso={thread.created_at} />
        </dd>
        <dt>Updated</dt>
        <dd>
          {thread.updated_at ? (
            <ExactTime iso={thread.updated_at} />
          ) : (
            <span className="muted">Not listed yet</span>
          )}
        </dd>
      </dl>
      {!listed ? (
        <p className="note">
          The service’s thread list does not include this thread (deleted, or not refreshed yet).
        </p>
      ) : null}
      <div className="actions detail-actions">
        <button
          type="button"
          className="secondary"
          disabled={!known?.messages.length}
          onClick={() => exportAs('md')}
        >
          Export Markdown
        </button>
        <button
          type="button"
          className="secondary"
          disabled={!known?.messages.length}
          onClick={() => exportAs('json')}
        >
          Export JSON
        </button>
        <button
          type="button"
          className="secondary"
          disabled={!canReplay}
          title={canReplay ? undefined : 'Replay needs the user messages, and none are known here.'}
          onClick={() => openReplay({ kind: 'thread', id: thread.id, agent: thread.agent })}
        >
          Replay…
        </button>
      </div>
      <h4>History</h4>
      <TranscriptView
        transcript={transcript.data}
        loading={transcript.isPending}
        error={transcript.error}
        serverCount={thread.message_count}
        noun="thread"
        pending={pending}
        agent={thread.agent}
      />
      <ThreadAppend thread={thread} />
    </section>
  );
}
