// The app's one window: locked down (docs/security.md), opened where it was last, on our renderer.
import { BrowserWindow, nativeTheme } from 'electron';
import { MIN_SIZE } from './window-bounds';
import type { WindowState } from './window-state';

export interface MainWindowOptions {
  /** out/electron/preload.cjs */
  preload: string;
  /** out/renderer/index.html */
  indexFile: string;
  state: WindowState;
  /** DevTools only in development builds. */
  dev: boolean;
  onLoadFailed: (message: string) => void;
}

export function createMainWindow({
  preload,
  indexFile,
  state,
  dev,
  onLoadFailed,
}: MainWindowOptions): BrowserWindow {
  const { bounds, maximized } = state.initial();
  const window = new BrowserWindow({
    ...bounds,
    minWidth: MIN_SIZE.width,
    minHeight: MIN_SIZE.height,
    title: 'Agent Console',
    show: false,
    // The page's own background, so opening does not flash white in a dark theme.
    backgroundColor: nativeTheme.shouldUseDarkColors ? '#1b1b1f' : '#ffffff',
    webPreferences: {
      // electronegativity: PRELOAD_JS_CHECK — reviewed: preload.ts gives the page only the typed
      // bridge's named calls (no ipcRenderer, no generic invoke, no Node), and ipc.ts checks every
      // sender is this window's renderer document.
      preload,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      navigateOnDragDrop: false,
      safeDialogs: true,
      devTools: dev,
      // No middle-click (auxclick) opening links: window.open is denied anyway (hardening.ts).
      disableBlinkFeatures: 'Auxclick',
    },
  });
  state.track(window);
  // Maximized only once there is something to show: maximizing a hidden window shows it at once on
  // some platforms (an empty frame, then the page).
  window.once('ready-to-show', () => {
    if (maximized) window.maximize();
    window.show();
  });
  window.loadFile(indexFile).catch((error: unknown) => {
    onLoadFailed(`Could not load the console's page ${indexFile}: ${(error as Error).message}`);
  });
  return window;
}
