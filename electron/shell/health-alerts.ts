// The desktop side of the health monitor (issue 7): the tray icon's colour follows the confirmed
// status, and each confirmed change the core marks `notify` becomes a native notification. The
// debounce is the core's (electron/core/health-monitor.ts), so the app and the web host's browser
// notifications tell the same story; the renderer stays quiet inside the app.
import { Notification } from 'electron';
import { trayColourOf } from '../../shared/health';
import type { HealthMonitor } from '../core/health-monitor';
import { setTrayHealth } from './tray';

/** Follows the monitor until the returned function is called (or the core closes). */
export function followHealth(monitor: HealthMonitor, onError: (message: string) => void): () => void {
  setTrayHealth(trayColourOf(monitor.state().confirmed));
  return monitor.subscribe(({ state, transition }) => {
    setTrayHealth(trayColourOf(state.confirmed));
    if (!transition?.notify || !Notification.isSupported()) return;
    try {
      new Notification({ title: transition.title, body: transition.body }).show();
    } catch (error) {
      onError(`No desktop notification: ${(error as Error).message}`);
    }
  });
}
