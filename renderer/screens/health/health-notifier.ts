// Desktop notifications in the web host: the browser's Notification API, when the person allowed
// it (the Health screen asks, on a click: browsers ignore a request nobody clicked for). In the
// desktop app the shell raises Electron notifications from the core, so the renderer stays quiet
// there to avoid saying everything twice. What to notify — and the debounce — is decided in the
// core (HealthTransition.notify), so both paths tell the same story.
import { bridge } from '../../bridge';

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

let started = false;

/** Follows `monitors:notify` for the whole session, whichever screen is showing. */
export function startHealthNotifications(): void {
  if (started) return;
  started = true;
  bridge.on('monitors:notify', (n) => {
    if (!n.desktop || notificationSupport() !== 'granted') return;
    try {
      // One tag per monitor: a newer status replaces an older notification instead of stacking under it.
      new Notification(n.title, { body: n.body, tag: `agent-console-monitor-${n.monitorId}` });
    } catch {
      // Some browsers (Chrome on Android) allow notifications only from a service worker.
    }
  });
}
