// PagerDuty's Events API v2: each incident is one PagerDuty alert, its `dedup_key` made from the
// incident's id, so the trigger (the incident opens, or a further bad status), the acknowledge (a
// person acknowledges it in the app) and the resolve (recovery, or a person) all land on the same
// alert. A change that belongs to no incident tells PagerDuty nothing; a test notification triggers
// an alert of its own and resolves it at once (docs/architecture.md, "Channels").
import { INCIDENT_OPENING } from '../../../../shared/incident';
import type { MonitorNotification } from '../../../../shared/monitor';
import { clip, severityOf } from './chat-cards';

export type PagerDutyAction = 'trigger' | 'acknowledge' | 'resolve';

export const dedupKey = (incidentId: string): string => `agent-console-${incidentId}`;

/** What a notification asks of PagerDuty, if anything. */
export function pagerDutyAction(n: MonitorNotification): PagerDutyAction | undefined {
  if (!n.incidentId) return undefined;
  if (INCIDENT_OPENING.has(n.to)) return 'trigger';
  return n.to === 'healthy' ? 'resolve' : undefined;
}

/** A trigger's event (the routing key is added by the sender, after the output guard). */
export function triggerEvent(n: MonitorNotification, dedup: string, source: string): Record<string, unknown> {
  return {
    event_action: 'trigger',
    dedup_key: dedup,
    payload: {
      summary: clip(`${n.title}: ${n.body}`, 1024),
      source,
      severity: n.test ? 'info' : severityOf(n.to),
      timestamp: new Date(n.at).toISOString(),
      component: n.monitorName,
      group: 'agent-console',
      class: n.to,
      custom_details: {
        monitor: n.monitorName,
        status: n.to,
        previous: n.from,
        ...(n.incidentId ? { incident: n.incidentId } : {}),
        ...(n.test ? { test: true } : {}),
      },
    },
    client: 'Agent Console',
  };
}
