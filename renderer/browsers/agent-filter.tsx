// "Agent: [All agents ▾]" — the filter the browsers share. Every agent of the profile is offered;
// a chosen agent the list no longer has stays shown, so the filter never changes by itself.
import { useAllAgents } from '../data/agents';

interface AgentFilterProps {
  value: string | undefined;
  onChange(agent: string | undefined): void;
}

export function AgentFilter({ value, onChange }: AgentFilterProps) {
  const agents = useAllAgents();
  return (
    <label className="inline-field">
      <span>Agent</span>
      <select
        aria-label="Filter by agent"
        value={value ?? ''}
        onChange={(event) => onChange(event.target.value || undefined)}
      >
        <option value="">All agents</option>
        {value && !agents.data?.some((a) => a.slug === value) ? <option value={value}>{value}</option> : null}
        {(agents.data ?? []).map((a) => (
          <option key={a.agent_id} value={a.slug}>
            {a.name} ({a.slug})
          </option>
        ))}
      </select>
    </label>
  );
}
