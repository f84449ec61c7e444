// The desktop side of the monitors: the tray icon's colour follows the worst
// monitor, and each confirmed change a monitor asks to tell on the desktop becomes a native
// notification. What to tell — the two-check confirmation, mute, the words — is the core's
// (electron/core/monitors/), so the app and the web host's browser notifications tell the same story.
import { Notification } from 'electron';
import { trayColourOf } from '../../shared/health';
import { watchTrayStatus } from '../../shared/monitor';
import type { MonitorRegistry } from '../core/monitors/monitor-registry';
import { setTrayHealth } from './tray';

/** Follows the monitors until the returned function is called (or the core closes). */
export function followMonitors(monitors: MonitorRegistry, onError: (message: string) => void): () => void {
  const paint = (): void => setTrayHealth(trayColourOf(watchTrayStatus(monitors.worst())));
  paint();
  return monitors.subscribe((event) => {
    if (event.type !== 'notification') return paint();
    const n = event.notification;
    if (!n.desktop || !Notification.isSupported()) return;
    try {
      new Notification({ title: n.title, body: n.body }).show();
    } catch (error) {
      onError(`No desktop notification: ${(error as Error).message}`);
    }
  });
}
