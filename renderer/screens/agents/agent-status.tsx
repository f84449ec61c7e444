// An agent's status as a coloured badge, with what it means for chat (spec §3). A status the spec
// does not list (a newer service's `deploying`) is shown as it came, marked as unknown to us.
import { knownAgentStatus, type KnownAgentStatus } from '../../../shared/known-values';

const MEANING: Record<KnownAgentStatus, string> = {
  deployed: 'Running and accepting messages',
  stopped: 'Configured but not running: chat answers 404',
  error: 'Encountered an error: chat answers 502',
};

export function AgentStatusBadge({ status }: { status: string }) {
  const known = knownAgentStatus(status);
  return (
    <span
      className={`status-badge status-badge-${known ?? 'other'}`}
      title={
        known ? MEANING[known] : `“${status}” is not a status this console knows; the service may be newer.`
      }
    >
      {status}
      {known ? null : <span className="status-badge-unknown"> (unknown status)</span>}
    </span>
  );
}

/** A model name, "None" when the service says there is none (null), "Not given" when it left it out. */
export function ModelName({ name }: { name: string | null | undefined }) {
  if (name === null) return <span className="muted">None</span>;
  if (name === undefined) return <span className="muted">Not given</span>;
  return <code title={name}>{name}</code>;
}
