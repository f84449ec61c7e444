// Desktop notifications in the web host, from the app's first screen whatever screen is showing:
// the browser's Notification API, when the person allowed it (the Health screen asks). In the
// desktop app the shell raises Electron notifications from the core, so the page stays quiet there
// to avoid saying everything twice. What to notify — and the debounce — is decided in the core, so
// both paths tell the same story.
import { notificationSupport } from '../components/notification-support';
import { onMonitorNotification } from '../data/monitors';

let started = false;

/** Follows `monitors:notify` for the whole session. */
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
