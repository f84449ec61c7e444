// One conversation: every field the service lists, the history this console recorded (or a plain
// note that it has none), and what support can do with it: continue it in the playground (after a
// confirmation: it adds to a real conversation) or replay it against another agent.
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { transcriptQuery, useProfileId } from '../../components/browse-queries';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { ExactTime } from '../../components/relative-time';
import { replaySteps } from '../../components/replay-plan';
import { TranscriptView } from '../../components/transcript-view';
import { useConversationsView, type ConversationSelection } from '../../stores/conversations-view';
import { openInPlayground } from '../../stores/playground-intent';
import { openReplay } from '../../stores/replay';

export function ConversationDetail({ selection }: { selection: ConversationSelection }) {
  const profile = useProfileId();
  const [confirming, setConfirming] = useState(false);
  const transcript = useQuery(transcriptQuery(profile, 'session', selection.sessionId));
  const row = selection.row;
  const agent = row?.agent ?? transcript.data?.agent;
  const canReplay = transcript.data ? replaySteps(transcript.data).length > 0 : false;
  return (
    <section className="card detail browse-detail" aria-label="Conversation detail">
      <div className="detail-head">
        <h3>
          Conversation <code>{selection.sessionId}</code>
        </h3>
        <button
          type="button"
          className="secondary"
          aria-label="Close detail"
          onClick={() => useConversationsView.setState({ selected: undefined })}
        >
          ×
        </button>
      </div>
      {row ? (
        <dl className="facts">
          <dt>Id</dt>
          <dd>
            <code>{row.id}</code>
          </dd>
          <dt>Session id</dt>
          <dd>
            <code>{row.session_id}</code>
          </dd>
          <dt>Agent</dt>
          <dd>
            <code>{row.agent}</code>
          </dd>
          <dt>Messages</dt>
          <dd>{row.message_count}</dd>
          <dt>Started</dt>
          <dd>
            <ExactTime iso={row.started_at} />
          </dd>
          <dt>Last message</dt>
          <dd>
            <ExactTime iso={row.last_message_at} />
          </dd>
          <dt>Status</dt>
          <dd>{row.status}</dd>
        </dl>
      ) : (
        <p className="warning">
          The service’s list does not include this session; what follows is only what this console recorded.
        </p>
      )}
      <div className="actions detail-actions">
        <button type="button" onClick={() => setConfirming(true)}>
          Continue in playground
        </button>
        <button
          type="button"
          className="secondary"
          disabled={!canReplay}
          title={canReplay ? undefined : 'Replay needs the user messages, and none are known here.'}
          onClick={() => openReplay({ kind: 'session', id: selection.sessionId, agent: agent ?? '' })}
        >
          Replay…
        </button>
      </div>
      <h4>History</h4>
      <TranscriptView
        transcript={transcript.data}
        loading={transcript.isPending}
        error={transcript.error}
        serverCount={row?.message_count}
        noun="conversation"
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
    </section>
  );
}
