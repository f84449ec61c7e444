// An agent's status as a coloured badge, with what it means for chat (spec §3).
import type { AgentStatus } from '../../../shared/api';

const MEANING: Record<AgentStatus, string> = {
  deployed: 'Running and accepting messages',
  stopped: 'Configured but not running: chat answers 404',
  error: 'Encountered an error: chat answers 502',
};

export function AgentStatusBadge({ status }: { status: string }) {
  const known = status in MEANING ? (status as AgentStatus) : undefined;
  return (
    <span className={`status-badge status-badge-${known ?? 'other'}`} title={known ? MEANING[known] : status}>
      {status}
    </span>
  );
}
