// Desktop notifications in the web host, as the Health screen and the Overview speak of them: the
// permission asked on a click (browsers ignore a request nobody clicked for), and what a test
// notification reached. The notifications themselves are shown by shell/health-notifications.ts.
import type { TestNotificationResult } from '../../../shared/monitor';
import { notificationSupport, type NotificationSupport } from '../../components/notification-support';

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
    parts.push(`Sent to ${result.webhooks} channel${result.webhooks === 1 ? '' : 's'}.`);
  if (result.desktop && notShown) parts.push(`Not shown on this desktop: ${notShown}.`);
  parts.push(...result.failures);
  return parts.length > 0
    ? parts.join(' ')
    : 'No channel: this monitor notifies neither the desktop nor a webhook, chat, PagerDuty or email channel.';
}
