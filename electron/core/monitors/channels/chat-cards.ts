// The payloads of the chat channels, in the shapes their services document (README, "Channels"):
// Microsoft Teams takes a message carrying one Adaptive Card (incoming webhooks and Workflows
// alike); Discord takes `content` and `embeds`, within its limits (2,000 characters of content,
// 256 of an embed's title, 4,096 of its description) and with mentions switched off, so a monitor
// named "@everyone" pings nobody.
import { WATCH_WORDS, type MonitorNotification, type WatchStatus } from '../../../../shared/monitor';

/** PagerDuty's severities, which the chat cards colour by too. */
export type Severity = 'critical' | 'error' | 'warning' | 'info';

export function severityOf(status: WatchStatus): Severity {
  switch (status) {
    case 'unhealthy':
    case 'unreachable':
    case 'key-rejected':
      return 'critical';
    case 'degraded':
    case 'synthetic-failing':
      return 'error';
    case 'slow':
      return 'warning';
    default:
      return 'info';
  }
}

/** At most `max` UTF-16 units, an ellipsis where it was cut, never half a surrogate pair. */
export function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = max - 1;
  if (/[\uD800-\uDBFF]/.test(text.charAt(end - 1))) end--;
  return `${text.slice(0, end)}…`;
}

const facts = (n: MonitorNotification): { title: string; value: string }[] => [
  { title: 'Monitor', value: n.monitorName },
  { title: 'Status', value: WATCH_WORDS[n.to] },
  ...(n.from !== n.to ? [{ title: 'Was', value: WATCH_WORDS[n.from] }] : []),
  { title: 'At', value: new Date(n.at).toISOString() },
  ...(n.incidentId ? [{ title: 'Incident', value: n.incidentId }] : []),
];

const TEAMS_COLOUR: Record<Severity, string> = {
  critical: 'Attention',
  error: 'Attention',
  warning: 'Warning',
  info: 'Default',
};

export function teamsPayload(n: MonitorNotification): unknown {
  return {
    type: 'message',
    attachments: [
      {
        contentType: 'application/vnd.microsoft.card.adaptive',
        contentUrl: null,
        content: {
          $schema: 'http://adaptivecards.io/schemas/adaptive-card.json',
          type: 'AdaptiveCard',
          version: '1.4',
          body: [
            {
              type: 'TextBlock',
              text: n.title,
              weight: 'Bolder',
              size: 'Medium',
              wrap: true,
              color: n.to === 'healthy' ? 'Good' : TEAMS_COLOUR[severityOf(n.to)],
            },
            { type: 'TextBlock', text: n.body, wrap: true },
            { type: 'FactSet', facts: facts(n) },
          ],
        },
      },
    ],
  };
}

const DISCORD_COLOUR: Record<Severity, number> = {
  critical: 0xd93025,
  error: 0xe8710a,
  warning: 0xf9ab00,
  info: 0x5f6368,
};

export function discordPayload(n: MonitorNotification): unknown {
  return {
    content: clip(`${n.title}: ${n.monitorName}`, 2000),
    embeds: [
      {
        title: clip(n.title, 256),
        description: clip(n.body, 4096),
        color: n.to === 'healthy' ? 0x1e8e3e : DISCORD_COLOUR[severityOf(n.to)],
        timestamp: new Date(n.at).toISOString(),
        fields: facts(n)
          .filter((f) => f.title !== 'At')
          .map((f) => ({ name: f.title, value: clip(f.value, 1024), inline: true })),
        footer: { text: 'Agent Console' },
      },
    ],
    allowed_mentions: { parse: [] },
  };
}
