// One conversation: every field the service lists, the history this console recorded (or a plain
// note that it has none), and what support can do with it: continue it in the playground (after a
// confirmation: it adds to a real conversation), export its known history, or replay it against
// another agent.
import { useState } from 'react';
import { knownConversationStatus, UNKNOWN_CONVERSATION_STATUS } from '../../../shared/known-values';
import { DetailPanel, Facts, HistoryActions, HistorySection } from '../../components/browse-detail';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { ExactTime } from '../../components/relative-time';
import { readTranscript, useMessagePages } from '../../data/transcripts';
import { useRecordReviews } from '../../data/reviews';
import { RecordReview, useReplyReviews } from '../../browsers/record-review';
import { useConversationsView, type ConversationSelection } from '../../stores/conversations-view';
import { useFoundIndex } from '../../stores/found-message';
import { openInPlayground } from '../../stores/playground-intent';
import { openReplay } from '../../stores/replay';
import { takeSaveCaseIntent } from '../../stores/save-case-intent';
import { SaveConversationAsCase } from '../suites/save-as-case';
import { conversationSubject } from './conversation-export';

export function ConversationDetail({ selection }: { selection: ConversationSelection }) {
  const [confirming, setConfirming] = useState(false);
  const reviews = useRecordReviews('session', selection.sessionId).data;
  const replyReviews = useReplyReviews('session', selection.sessionId);
  const row = selection.row;
  const foundIndex = useFoundIndex('session', selection.sessionId);
  const history = useMessagePages('session', selection.sessionId, foundIndex);
  const agent = row?.agent ?? history.history?.agent;
  const subject = conversationSubject(selection.sessionId, row);
  return (
    <DetailPanel
      label="Conversation detail"
      title={
        <>
          Conversation <code>{selection.sessionId}</code>
        </>
      }
      onClose={() => useConversationsView.setState({ selected: undefined })}
    >
      {row ? (
        <Facts
          items={[
            ['Id', <code key="id">{row.id}</code>],
            ['Session id', <code key="session">{row.session_id}</code>],
            ['Agent', <code key="agent">{row.agent}</code>],
            ['Messages', row.message_count],
            ['Started', <ExactTime key="started" iso={row.started_at} />],
            ['Last message', <ExactTime key="last" iso={row.last_message_at} />],
            [
              'Status',
              <span key="status">
                {row.status}
                {knownConversationStatus(row.status) ? null : (
                  <span className="status-badge-unknown" title={UNKNOWN_CONVERSATION_STATUS}>
                    {' '}
                    (unknown status)
                  </span>
                )}
              </span>,
            ],
          ]}
        />
      ) : (
        <p className="warning">
          The service’s list does not include this session; what follows is only what this console recorded.
        </p>
      )}
      <HistoryActions
        subject={subject}
        history={history.history}
        readWhole={() => readTranscript('session', selection.sessionId)}
        reviews={reviews}
        onReplay={() => openReplay({ kind: 'session', id: subject.id, agent: agent ?? '' })}
      >
        <button type="button" onClick={() => setConfirming(true)}>
          Continue in playground
        </button>
        {history.history?.total ? (
          <SaveConversationAsCase
            kind="session"
            id={selection.sessionId}
            agent={agent}
            autoOpen={takeSaveCaseIntent('session', selection.sessionId)}
          />
        ) : null}
      </HistoryActions>
      <RecordReview kind="session" id={selection.sessionId} recorded={!!history.history} />
      <HistorySection
        messageExtra={replyReviews}
        history={history}
        serverCount={row?.message_count}
        noun="conversation"
        foundIndex={foundIndex}
      />
      <ConfirmDialog
        open={confirming}
        title="Continue this conversation?"
        confirmLabel="Continue in playground"
        onCancel={() => setConfirming(false)}
        onConfirm={() => {
          setConfirming(false);
          openInPlayground({ sessionId: selection.sessionId, ...(agent ? { agent } : {}) });
        }}
      >
        <p>
          Messages you send in the playground go to the real conversation <code>{selection.sessionId}</code>
          {agent ? (
            <>
              {' '}
              with <code>{agent}</code>
            </>
          ) : null}{' '}
          and are added to its history on the service. The agent sees what was said before. This cannot be
          undone.
        </p>
      </ConfirmDialog>
    </DetailPanel>
  );
}
