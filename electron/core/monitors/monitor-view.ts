// How a health poll reads on the Overview: its confirmed status, its last check, how late it went
// out, uptime over 24 h and 7 d, and the response times of its newest polls (the sparkline). Shared
// by saved monitors and the active profile's own poll; a saved monitor's webhooks as they may be shown.
import type { MonitorView } from '../../../shared/monitor';
import type { HealthMonitor } from '../health-monitor';
import type { Profile } from '../profiles';
import type { MonitorConfig } from './monitor-config';
import { channelSecrets, PAGERDUTY_EVENTS_URL } from './channels/channel-config';
import { emailTarget } from './channels/email';
import { webhookTarget } from './channels/webhook';

const SPARKLINE_POINTS = 30;

export function healthPart(
  health: HealthMonitor,
  profileId: string,
): Pick<MonitorView, 'health' | 'uptime' | 'responseMs'> {
  const state = health.state();
  const uptime = health.timeline('7d').uptime;
  const percentOf = (range: '24h' | '7d') => uptime.find((u) => u.range === range)?.percent ?? null;
  const last = state.last;
  const recent = health.history.list({
    profileId,
    from: (last?.at ?? 0) - SPARKLINE_POINTS * state.intervalMs * 2,
  });
  return {
    health: {
      confirmed: state.confirmed,
      intervalMs: state.intervalMs,
      checking: state.checking,
      ...(state.nextCheckAt !== undefined ? { nextCheckAt: state.nextCheckAt } : {}),
      ...(state.idleReason !== undefined ? { idleReason: state.idleReason } : {}),
      ...(state.lastError !== undefined ? { lastError: state.lastError } : {}),
      ...(last ? { lastCheckAt: last.at } : {}),
      ...(last?.responseMs !== undefined ? { lastResponseMs: last.responseMs } : {}),
      ...(last?.lateMs !== undefined ? { lastLateMs: last.lateMs } : {}),
      ...(state.checkingSince !== undefined ? { waitingSince: state.checkingSince } : {}),
    },
    uptime: { '24h': percentOf('24h'), '7d': percentOf('7d') },
    responseMs: recent
      .slice(-SPARKLINE_POINTS)
      .flatMap((s) => (s.responseMs !== undefined ? [s.responseMs] : [])),
  };
}

/** The active profile's own poll, listed while no saved monitor watches that profile. */
export function implicitView(id: string, health: HealthMonitor, profile: Profile): MonitorView {
  const part = healthPart(health, profile.id);
  const state = health.state();
  return {
    id,
    name: profile.name,
    profileId: profile.id,
    profileName: profile.name,
    implicit: true,
    status: state.confirmed,
    ...(state.confirmedSince !== undefined ? { since: state.confirmedSince } : {}),
    ...part,
    settings: {
      name: profile.name,
      profileId: profile.id,
      healthEveryMs: state.intervalMs,
      desktop: true,
      muted: false,
      public: false,
      webhooks: [],
    },
  };
}

/** A saved monitor's row with its channels as they may be shown: a host, or where a secret is kept. */
export function withWebhooks(view: MonitorView, config: MonitorConfig): MonitorView {
  return {
    ...view,
    settings: {
      ...view.settings,
      webhooks: config.notify.webhooks.map((c, i) => {
        const kept = channelSecrets(c)[0]?.source;
        const where = kept ? ('env' in kept ? `$${kept.env}` : 'kept in the keychain') : '';
        const target =
          c.kind === 'email'
            ? emailTarget(c)
            : c.kind === 'pagerduty'
              ? `${webhookTarget(c.endpoint ?? PAGERDUTY_EVENTS_URL)} (routing key ${where})`
              : typeof c.url === 'string'
                ? webhookTarget(c.url)
                : where;
        return {
          id: c.id ?? String(i),
          kind: c.kind,
          ...(c.kind === 'webhook' ? { format: c.format } : {}),
          target,
        };
      }),
    },
  };
}
