// Webhook notifications: a JSON POST of our own shape, or a Slack-compatible payload (`text`, plus
// a mrkdwn block) that Slack, Mattermost and Rocket.Chat incoming webhooks accept. The URL rules
// every HTTP channel shares live here too: https, or http on this computer only.
import type { MonitorNotification } from '../../../../shared/monitor';
import { isLoopbackHost } from '../../profiles';

export class WebhookError extends Error {
  override readonly name = 'WebhookError';
}

/** https, or http on this computer only (a receiver under test, a local relay). */
export function checkWebhookUrl(text: string): URL {
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    throw new WebhookError(
      'The webhook URL is not a valid URL; write it in full, e.g. https://hooks.example.com/….',
    );
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && isLoopbackHost(url.hostname))) {
    throw new WebhookError('A webhook URL must use https:// (http:// only for this computer).');
  }
  return url;
}

/** What may be shown of a webhook: scheme and host. */
export function webhookTarget(text: string): string {
  try {
    const url = new URL(text);
    return `${url.protocol}//${url.host}/…`;
  } catch {
    return '(not a URL)';
  }
}

export function webhookPayload(format: 'json' | 'slack', n: MonitorNotification): unknown {
  if (format === 'slack') {
    const text = `*${n.title}*\n${n.body}`;
    return {
      text: `${n.title}: ${n.body}`,
      blocks: [{ type: 'section', text: { type: 'mrkdwn', text } }],
    };
  }
  return {
    source: 'agent-console',
    monitor: { id: n.monitorId, name: n.monitorName },
    status: n.to,
    previous: n.from,
    at: new Date(n.at).toISOString(),
    title: n.title,
    body: n.body,
    ...(n.test ? { test: true } : {}),
    ...(n.incidentId
      ? { incident: { id: n.incidentId, ...(n.escalation ? { escalation: n.escalation } : {}) } }
      : {}),
  };
}
