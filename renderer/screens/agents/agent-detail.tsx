// Everything the service says about one agent, and where to go from it.
import type { ReceivedAgent as Agent } from '../../../shared/received';
import { ExactTime } from '../../components/relative-time';
import { useEscapeToClose } from '../../components/use-escape';
import { useAgentsView } from '../../stores/agents-view';
import { useConversationsView } from '../../stores/conversations-view';
import { useNavigation } from '../../stores/navigation';
import { openInPlayground } from '../../stores/playground-intent';
import { useThreadsView } from '../../stores/threads-view';
import { AgentStatusBadge, ModelName } from './agent-status';

export function AgentDetail({ agent }: { agent: Agent }) {
  const go = useNavigation((s) => s.go);
  useEscapeToClose(() => useAgentsView.setState({ selected: undefined }));
  return (
    <section className="card detail browse-detail" aria-label="Agent detail">
      <div className="detail-head">
        <h2>
          {agent.name} <AgentStatusBadge status={agent.status} />
        </h2>
        <button
          type="button"
          className="secondary"
          aria-label="Close detail"
          onClick={() => useAgentsView.setState({ selected: undefined })}
        >
          ×
        </button>
      </div>
      <p>{agent.description || <span className="muted">No description.</span>}</p>
      <dl className="facts">
        <dt>Slug</dt>
        <dd>
          <code>{agent.slug}</code>
        </dd>
        <dt>Agent id</dt>
        <dd>
          <code>{agent.agent_id}</code>
        </dd>
        <dt>Status</dt>
        <dd>
          <AgentStatusBadge status={agent.status} />
        </dd>
        <dt>Primary model</dt>
        <dd>
          <ModelName name={agent.model?.primary} />
        </dd>
        <dt>Fallback model</dt>
        <dd>
          <ModelName name={agent.model?.fallback} />
        </dd>
        <dt>Deployed</dt>
        <dd>
          <ExactTime iso={agent.deployed_at} />
        </dd>
      </dl>
      <div className="actions detail-actions">
        <button type="button" onClick={() => openInPlayground({ agent: agent.slug })}>
          Open in playground
        </button>
        <button
          type="button"
          className="secondary"
          onClick={() => {
            useConversationsView.setState({ agent: agent.slug, offset: 0, selected: undefined });
            go('Conversations');
          }}
        >
          Its conversations
        </button>
        <button
          type="button"
          className="secondary"
          onClick={() => {
            useThreadsView.setState({ agent: agent.slug });
            go('Threads');
          }}
        >
          Its threads
        </button>
      </div>
    </section>
  );
}
