// One thread: its fields, what this console knows of its history, the append box, exports of the
// known history, and the replay.
import { DetailPanel, Facts, HistoryActions, HistorySection } from '../../components/browse-detail';
import { ExactTime } from '../../components/relative-time';
import { readTranscript, useMessagePages } from '../../data/transcripts';
import { useRecordReviews } from '../../data/reviews';
import { RecordReview, useReplyReviews } from '../../browsers/record-review';
import { useFoundIndex } from '../../stores/found-message';
import { openReplay } from '../../stores/replay';
import { useThreadsView, type ThreadRow } from '../../stores/threads-view';
import { ThreadAppend } from './thread-append';
import { threadSubject } from './thread-export';
import { takeSaveCaseIntent } from '../../stores/save-case-intent';
import { SaveConversationAsCase } from '../suites/save-as-case';

export function ThreadDetail({ thread, listed }: { thread: ThreadRow; listed: boolean }) {
  const reviews = useRecordReviews('thread', thread.id).data;
  const replyReviews = useReplyReviews('thread', thread.id);
  const pending = useThreadsView((s) => s.sending[thread.id]);
  const foundIndex = useFoundIndex('thread', thread.id);
  const history = useMessagePages('thread', thread.id, foundIndex);
  return (
    <DetailPanel
      label="Thread detail"
      title={thread.title || 'Untitled thread'}
      onClose={() => useThreadsView.setState({ selectedId: undefined, selectedRow: undefined })}
    >
      <Facts
        items={[
          ['Id', <code key="id">{thread.id}</code>],
          ['Agent', <code key="agent">{thread.agent}</code>],
          ['Messages', thread.message_count],
          ['Created', <ExactTime key="created" iso={thread.created_at} />],
          [
            'Updated',
            thread.updated_at ? (
              <ExactTime key="updated" iso={thread.updated_at} />
            ) : (
              <span key="updated" className="muted">
                Not listed yet
              </span>
            ),
          ],
        ]}
      />
      {!listed ? (
        <p className="note">
          The service’s thread list does not include this thread (deleted, or not refreshed yet).
        </p>
      ) : null}
      <HistoryActions
        subject={threadSubject(thread)}
        history={history.history}
        readWhole={() => readTranscript('thread', thread.id)}
        reviews={reviews}
        onReplay={() => openReplay({ kind: 'thread', id: thread.id, agent: thread.agent })}
      >
        {history.history?.total ? (
          <SaveConversationAsCase
            kind="thread"
            id={thread.id}
            agent={thread.agent}
            autoOpen={takeSaveCaseIntent('thread', thread.id)}
          />
        ) : null}
      </HistoryActions>
      <RecordReview kind="thread" id={thread.id} recorded={!!history.history} />
      <HistorySection
        messageExtra={replyReviews}
        history={history}
        serverCount={thread.message_count}
        noun="thread"
        pending={pending}
        agent={thread.agent}
        foundIndex={foundIndex}
      />
      <ThreadAppend thread={thread} />
    </DetailPanel>
  );
}
