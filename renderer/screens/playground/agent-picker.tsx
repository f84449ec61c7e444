// Which agent(s) a message goes to. Every listed agent can be chosen, stopped and failing ones too,
// with what the service will answer (spec §3: 404 and 502): a testing client must be able to send
// to them and see the service's own error. The choice is the user's: when the chosen agent is
// stopped or removed meanwhile, it stays chosen and the change is said, never swapped for another.
import { useEffect, useRef, useState } from 'react';
import type { ReceivedAgent as Agent } from '../../../shared/received';
import { ErrorMessage } from '../../components/error-message';
import { usePlayground } from './playground-store';
import { usePlaygroundAgents } from '../../data/agents';

/** What the service answers a message to this agent, or undefined when it takes messages. */
function unavailableReason(agent: Agent): string | undefined {
  if (agent.status === 'stopped') return 'stopped: chat will answer 404 AGENT_NOT_FOUND';
  if (agent.status === 'error') return 'in error: chat will answer 502 AGENT_ERROR';
  return undefined;
}

/** Only a first choice is made for the user (nothing chosen yet): the first deployed agent. */
function useFirstChoice(agents: Agent[] | undefined): void {
  const agent = usePlayground((s) => s.agent);
  useEffect(() => {
    if (!agents || agent !== undefined) return;
    const first = agents.find((a) => a.status === 'deployed') ?? agents[0];
    if (first) usePlayground.setState({ agent: first.slug });
  }, [agents, agent]);
}

/** "archivist was stopped" when the chosen agent's status changes (or it goes) while it is chosen. */
function useChangeNote(agents: Agent[] | undefined, agent: string | undefined): string | undefined {
  const seen = useRef<{ slug: string | undefined; status: string | undefined } | undefined>(undefined);
  const [note, setNote] = useState<string>();
  useEffect(() => {
    if (!agents) return;
    const status = agents.find((a) => a.slug === agent)?.status ?? 'gone';
    const before = seen.current;
    seen.current = { slug: agent, status };
    if (!before || before.slug !== agent) {
      setNote(undefined);
      return;
    }
    if (before.status === status) return;
    const what =
      status === 'gone'
        ? 'is no longer listed by the service'
        : status === 'deployed'
          ? 'is deployed again'
          : status === 'stopped'
            ? 'was stopped'
            : 'is now in error';
    setNote(
      `${agent} ${what} while you were here. It is still chosen: your messages go to ${agent} until you choose another agent.`,
    );
  }, [agents, agent]);
  return note;
}

export function AgentPicker() {
  const agents = usePlaygroundAgents();
  const agent = usePlayground((s) => s.agent);
  useFirstChoice(agents.data);
  const note = useChangeNote(agents.data, agent);
  const chosen = agents.data?.find((a) => a.slug === agent);
  const missing = agents.data !== undefined && agent !== undefined && chosen === undefined;
  const reason = missing ? 'not listed by the service' : chosen && unavailableReason(chosen);
  return (
    <div className="pg-agent">
      <label className="pg-field">
        <span>Agent</span>
        <select
          aria-label="Agent"
          title={
            chosen
              ? `${chosen.description ?? ''} Model: ${chosen.model?.primary ?? 'not given'}${chosen.model?.fallback ? `, falling back to ${chosen.model.fallback}` : ''}.`
              : undefined
          }
          value={agent ?? ''}
          disabled={!agents.data && agent === undefined}
          onChange={(e) => usePlayground.setState({ agent: e.target.value })}
        >
          {!agents.data && agent === undefined ? (
            <option value="">{agents.isError ? 'Agents unavailable' : 'Loading…'}</option>
          ) : null}
          {/* The chosen agent stays shown even when the list does not (yet, or any more) have it. */}
          {!chosen && agent !== undefined ? (
            <option value={agent}>
              {agent}
              {missing ? ' — not listed by the service' : ''}
            </option>
          ) : null}
          {agents.data?.map((a) => {
            const why = unavailableReason(a);
            return (
              <option key={a.agent_id} value={a.slug}>
                {a.name} ({a.slug}){why ? ` — ${why}` : ''}
              </option>
            );
          })}
        </select>
      </label>
      <button
        type="button"
        className="secondary small"
        disabled={agents.isFetching}
        onClick={() => void agents.refetch()}
      >
        Refresh agents
      </button>
      {reason && !note ? (
        <span className="pg-agent-warning" role="status" data-testid="agent-warning">
          {agent} is {reason}.
        </span>
      ) : null}
      {note ? (
        <span className="pg-agent-warning" role="status" data-testid="agent-warning">
          {note}
          {reason && !missing ? ` (${reason}.)` : ''}
        </span>
      ) : null}
      {agents.isError ? <ErrorMessage error={agents.error} title="The agents could not be listed." /> : null}
    </div>
  );
}

/** Compare: two or more agents, ticked. */
export function CompareAgentPicker() {
  const agents = usePlaygroundAgents();
  const chosen = usePlayground((s) => s.compareAgents);
  // The first time compare opens with nothing ticked, the first two deployed agents are: a ready start.
  const prefilled = useRef(false);
  useEffect(() => {
    if (prefilled.current || !agents.data) return;
    prefilled.current = true;
    if (usePlayground.getState().compareAgents.length > 0) return;
    const deployed = agents.data.filter((a) => a.status === 'deployed').map((a) => a.slug);
    usePlayground.setState({ compareAgents: deployed.slice(0, 2) });
  }, [agents.data]);
  function toggle(slug: string, on: boolean) {
    usePlayground.setState((s) => ({
      compareAgents: on
        ? [...s.compareAgents.filter((x) => x !== slug), slug]
        : s.compareAgents.filter((x) => x !== slug),
    }));
  }
  const listed = new Set(agents.data?.map((a) => a.slug));
  const gone = agents.data ? chosen.filter((slug) => !listed.has(slug)) : [];
  return (
    <fieldset className="pg-compare-agents">
      <legend>Agents to compare</legend>
      {agents.data?.map((a) => {
        const reason = unavailableReason(a);
        return (
          <label key={a.agent_id} className="pg-check" title={reason ?? a.description}>
            <input
              type="checkbox"
              checked={chosen.includes(a.slug)}
              onChange={(e) => toggle(a.slug, e.target.checked)}
            />
            {a.slug}
            {reason ? <span className="pg-reason">({a.status})</span> : null}
          </label>
        );
      })}
      {gone.map((slug) => (
        <label key={slug} className="pg-check" title="Not listed by the service">
          <input type="checkbox" checked onChange={(e) => toggle(slug, e.target.checked)} />
          {slug}
          <span className="pg-reason">(not listed)</span>
        </label>
      ))}
      {agents.isError ? <ErrorMessage error={agents.error} title="The agents could not be listed." /> : null}
    </fieldset>
  );
}
