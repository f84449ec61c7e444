// Whether this page can show a desktop notification: in the web host the browser's Notification
// API once the person allowed it; in the desktop app the shell raises Electron's own from the core.
export type NotificationSupport = NotificationPermission | 'unsupported' | 'desktop-app';

export function notificationSupport(): NotificationSupport {
  if (window.agentConsole) return 'desktop-app';
  if (typeof Notification === 'undefined') return 'unsupported';
  return Notification.permission;
}
