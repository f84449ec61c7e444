// Desktop notifications in the web host: the browser's Notification API, when the person allowed
// it (the Health screen asks, on a click: browsers ignore a request nobody clicked for). In the
// desktop app the shell raises Electron notifications from the core, so the renderer stays quiet
// there to avoid saying everything twice. What to notify — and the debounce — is decided in the
// core (HealthTransition.notify), so both paths tell the same story.
import type { TestNotificationResult } from '../../../shared/monitor';
import { onMonitorNotification } from '../../data/monitors';

export type NotificationSupport = NotificationPermission | 'unsupported' | 'desktop-app';

export function notificationSupport(): NotificationSupport {
  if (window.agentConsole) return 'desktop-app';
  if (typeof Notification === 'undefined') return 'unsupported';
  return Notification.permission;
}

export async function askNotificationPermission(): Promise<NotificationSupport> {
  if (notificationSupport() !== 'default') return notificationSupport();
  return Notification.requestPermission();
}

/** Why a desktop notification raised for this page is not shown, or undefined when it is. */
const NOT_SHOWN: Record<NotificationSupport, string | undefined> = {
  granted: undefined,
  'desktop-app': undefined,
  default: 'notifications are not allowed for this page yet (turn them on on the Health screen)',
  denied: 'notifications are blocked for this page (allow them in the browser’s site settings)',
  unsupported: 'this browser cannot show notifications',
};

/**
 * What a test notification reached, in words that agree with the Health screen: a notification the
 * core raised for the desktop is said to be shown only where this page can show it.
 */
export function testNotificationWords(result: TestNotificationResult, support: NotificationSupport): string {
  const parts: string[] = [];
  const notShown = NOT_SHOWN[support];
  if (result.desktop && !notShown) parts.push('Shown on this desktop.');
  if (result.webhooks > 0)
    parts.push(`Sent to ${result.webhooks} webhook${result.webhooks === 1 ? '' : 's'}.`);
  if (result.desktop && notShown) parts.push(`Not shown on this desktop: ${notShown}.`);
  parts.push(...result.failures);
  return parts.length > 0
    ? parts.join(' ')
    : 'No channel: this monitor notifies neither the desktop nor a webhook.';
}

let started = false;

/** Follows `monitors:notify` for the whole session, whichever screen is showing. */
export function startHealthNotifications(): void {
  if (started) return;
  started = true;
  onMonitorNotification((n) => {
    if (!n.desktop || notificationSupport() !== 'granted') return;
    try {
      // One tag per monitor: a newer status replaces an older notification instead of stacking under it.
      new Notification(n.title, { body: n.body, tag: `agent-console-monitor-${n.monitorId}` });
    } catch {
      // Some browsers (Chrome on Android) allow notifications only from a service worker.
    }
  });
}
