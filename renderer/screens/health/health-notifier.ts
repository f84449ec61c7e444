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

/** Follows `health:update` for the whole session, whichever screen is showing. */
export function startHealthNotifications(): void {
  if (started) return;
  started = true;
  bridge.on('health:update', ({ transition }) => {
    if (!transition?.notify || notificationSupport() !== 'granted') return;
    try {
      // One tag: a newer status replaces an older notification instead of stacking under it.
      new Notification(transition.title, { body: transition.body, tag: 'agent-console-health' });
    } catch {
      // Some browsers (Chrome on Android) allow notifications only from a service worker.
    }
  });
}
