// Which agent(s) a message goes to. Only deployed agents can be chosen; stopped and error ones are
// listed, disabled, with what the service would answer (spec §3: 404 and 502), so nobody sends a
// message that can only fail.
import { useEffect, useRef } from 'react';
import type { Agent } from '../../../shared/api';
import { ErrorMessage } from '../../components/error-message';
import { usePlayground } from './playground-store';
import { usePlaygroundAgents } from './playground-queries';

/** Why an agent cannot take a message, or undefined when it can. */
export function unavailableReason(agent: Agent): string | undefined {
  if (agent.status === 'stopped') return 'stopped: chat would answer 404 AGENT_NOT_FOUND';
  if (agent.status === 'error') return 'in error: chat would answer 502 AGENT_ERROR';
  return undefined;
}

/** Keeps the choice on a deployed agent: the first one when none (or a gone one) is chosen. */
function useDeployedChoice(agents: Agent[] | undefined): void {
  const agent = usePlayground((s) => s.agent);
  const compareAgents = usePlayground((s) => s.compareAgents);
  useEffect(() => {
    if (!agents) return;
    const deployed = agents.filter((a) => a.status === 'deployed').map((a) => a.slug);
    if (agent === undefined || !deployed.includes(agent)) {
      if (deployed[0] !== undefined && deployed[0] !== agent) usePlayground.setState({ agent: deployed[0] });
    }
    const kept = compareAgents.filter((slug) => deployed.includes(slug));
    if (kept.length !== compareAgents.length) usePlayground.setState({ compareAgents: kept });
  }, [agents, agent, compareAgents]);
}

export function AgentPicker() {
  const agents = usePlaygroundAgents();
  const agent = usePlayground((s) => s.agent);
  useDeployedChoice(agents.data?.agents);
  const chosen = agents.data?.agents.find((a) => a.slug === agent);
  return (
    <div className="pg-agent">
      <label className="pg-field">
        <span>Agent</span>
        <select
          aria-label="Agent"
          title={
            chosen
              ? `${chosen.description} Model: ${chosen.model.primary}${chosen.model.fallback ? `, falling back to ${chosen.model.fallback}` : ''}.`
              : undefined
          }
          value={agent ?? ''}
          disabled={!agents.data}
          onChange={(e) => usePlayground.setState({ agent: e.target.value })}
        >
          {!agents.data ? (
            <option value="">{agents.isError ? 'Agents unavailable' : 'Loading…'}</option>
          ) : null}
          {agents.data?.agents.map((a) => {
            const reason = unavailableReason(a);
            return (
              <option key={a.agent_id} value={a.slug} disabled={reason !== undefined}>
                {a.name} ({a.slug}){reason ? ` — ${reason}` : ''}
              </option>
            );
          })}
        </select>
      </label>
      {agents.isError ? <ErrorMessage error={agents.error} title="The agents could not be listed." /> : null}
    </div>
  );
}

/** Compare: two or more agents, ticked. */
export function CompareAgentPicker() {
  const agents = usePlaygroundAgents();
  const chosen = usePlayground((s) => s.compareAgents);
  useDeployedChoice(agents.data?.agents);
  // The first time compare opens with nothing ticked, the first two deployed agents are: a ready start.
  const prefilled = useRef(false);
  useEffect(() => {
    if (prefilled.current || !agents.data) return;
    prefilled.current = true;
    if (usePlayground.getState().compareAgents.length > 0) return;
    const deployed = agents.data.agents.filter((a) => a.status === 'deployed').map((a) => a.slug);
    usePlayground.setState({ compareAgents: deployed.slice(0, 2) });
  }, [agents.data]);
  function toggle(slug: string, on: boolean) {
    usePlayground.setState((s) => ({
      compareAgents: on
        ? [...s.compareAgents.filter((x) => x !== slug), slug]
        : s.compareAgents.filter((x) => x !== slug),
    }));
  }
  return (
    <fieldset className="pg-compare-agents">
      <legend>Agents to compare</legend>
      {agents.data?.agents.map((a) => {
        const reason = unavailableReason(a);
        return (
          <label
            key={a.agent_id}
            className={reason ? 'pg-check disabled' : 'pg-check'}
            title={reason ?? a.description}
          >
            <input
              type="checkbox"
              checked={chosen.includes(a.slug)}
              disabled={reason !== undefined}
              onChange={(e) => toggle(a.slug, e.target.checked)}
            />
            {a.slug}
            {reason ? <span className="pg-reason">({a.status})</span> : null}
          </label>
        );
      })}
      {agents.isError ? <ErrorMessage error={agents.error} title="The agents could not be listed." /> : null}
    </fieldset>
  );
}
