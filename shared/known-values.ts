// The values the spec lists, as plain data (no zod: the renderer loads this), and how the screens
// tell a value they know from one a newer service sent (docs/security.md, tolerant reader).

/** Spec §3. */
export const AGENT_STATUSES = ['deployed', 'stopped', 'error'] as const;
export type KnownAgentStatus = (typeof AGENT_STATUSES)[number];

/** Spec §3. */
export const HEALTH_STATUSES = ['healthy', 'degraded', 'unhealthy'] as const;
export type KnownHealthStatus = (typeof HEALTH_STATUSES)[number];

/**
 * Spec §3 names `completed`; the mock also uses `active` (docs/decisions.md). Any other value is a
 * status of a newer or different service, shown as it came.
 */
const CONVERSATION_STATUSES = ['active', 'completed'] as const;
export const UNKNOWN_CONVERSATION_STATUS =
  'Not a conversation status this console knows (it knows active and completed); shown as the service sent it.';

export function knownConversationStatus(status: string): boolean {
  return (CONVERSATION_STATUSES as readonly string[]).includes(status);
}

/** Spec §2: the health report's components. */
export const HEALTH_COMPONENTS = ['api', 'vps', 'agents', 'gateway'] as const;

/** The status if the console knows it, else undefined (the screens label it "unknown"). */
export function knownAgentStatus(status: string): KnownAgentStatus | undefined {
  return (AGENT_STATUSES as readonly string[]).includes(status) ? (status as KnownAgentStatus) : undefined;
}

export function knownHealthStatus(status: string): KnownHealthStatus | undefined {
  return (HEALTH_STATUSES as readonly string[]).includes(status) ? (status as KnownHealthStatus) : undefined;
}

/**
 * An ISO 8601 date-time with no zone (`2026-11-23T10:00:00`) names no instant: the screens show it
 * as it came, saying so, instead of guessing the service's zone.
 */
export function lacksTimeZone(text: string): boolean {
  return /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/.test(text);
}
