// The tray icon: a dot coloured by the service's health (grey until the health monitor reports),
// with Show and Quit. One per app, so it lives in this module.
import { Menu, nativeImage, Tray, type NativeImage } from 'electron';
import { dotPng, HEALTH_COLOURS, type TrayHealth } from './tray-icon';

export type { TrayHealth } from './tray-icon';

const HEALTH_WORDS: Record<TrayHealth, string> = {
  healthy: 'healthy',
  degraded: 'degraded',
  unhealthy: 'unhealthy',
  unknown: 'not known yet',
};

let tray: Tray | undefined;
let current: TrayHealth = 'unknown';
const images = new Map<TrayHealth, NativeImage>();

function imageFor(health: TrayHealth): NativeImage {
  let image = images.get(health);
  if (!image) {
    const rgb = HEALTH_COLOURS[health];
    image = nativeImage.createFromBuffer(dotPng(16, rgb), { scaleFactor: 1 });
    image.addRepresentation({
      scaleFactor: 2,
      dataURL: `data:image/png;base64,${dotPng(32, rgb).toString('base64')}`,
    });
    images.set(health, image);
  }
  return image;
}

export interface TrayActions {
  show(): void;
  quit(): void;
}

/**
 * Puts the icon in the tray. Where the desktop has no tray (some Linux sessions) Electron throws
 * or shows nothing; the app works the same without it, so that is only reported.
 */
export function createTray(actions: TrayActions, onError: (message: string) => void): void {
  if (tray) return;
  try {
    tray = new Tray(imageFor(current));
  } catch (error) {
    onError(`No tray icon: ${(error as Error).message}`);
    return;
  }
  tray.setContextMenu(
    Menu.buildFromTemplate([
      { label: 'Show Agent Console', click: () => actions.show() },
      { type: 'separator' },
      { label: 'Quit', click: () => actions.quit() },
    ]),
  );
  // Windows and macOS: a click on the icon brings the window back (Linux shows the menu).
  tray.on('click', () => actions.show());
  setTrayHealth(current);
}

/** Colours the icon: green, amber, red, or grey when the health is not known. */
export function setTrayHealth(health: TrayHealth): void {
  current = health;
  if (!tray || tray.isDestroyed()) return;
  tray.setImage(imageFor(health));
  tray.setToolTip(`Agent Console — service ${HEALTH_WORDS[health]}`);
}

export function destroyTray(): void {
  if (tray && !tray.isDestroyed()) tray.destroy();
  tray = undefined;
}
