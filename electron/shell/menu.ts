// The application menu: the platform's usual roles, so the usual shortcuts work (Cmd/Ctrl+Z, C,
// V, A, 0, +, -, M, W, Q, F11/Ctrl+Cmd+F). Reload and DevTools exist only in development builds.
import { app, clipboard, Menu, shell, type MenuItemConstructorOptions } from 'electron';

export interface MenuOptions {
  /** Unpackaged (`npm start`): adds Reload and Toggle Developer Tools. */
  dev: boolean;
  dataDir: string;
  /** The text "Copy Diagnostics" puts on the clipboard (ConsoleCore.diagnostics: no secrets). */
  diagnostics: () => string;
  onError: (message: string) => void;
}

export function buildAppMenu({ dev, dataDir, diagnostics, onError }: MenuOptions): Menu {
  const mac = process.platform === 'darwin';
  const openDataFolder = (): void => {
    void shell.openPath(dataDir).then((error) => {
      if (error) onError(`Could not open the data folder ${dataDir}: ${error}`);
    });
  };
  const copyDiagnostics = (): void => {
    try {
      clipboard.writeText(diagnostics());
    } catch (error) {
      onError(`Could not copy the diagnostics: ${(error as Error).message}`);
    }
  };
  const template: MenuItemConstructorOptions[] = [
    ...(mac ? [{ role: 'appMenu' } satisfies MenuItemConstructorOptions] : []),
    {
      label: '&File',
      submenu: [mac ? { role: 'close' } : { role: 'quit' }],
    },
    {
      label: '&Edit',
      submenu: [
        { role: 'undo' },
        { role: 'redo' },
        { type: 'separator' },
        { role: 'cut' },
        { role: 'copy' },
        { role: 'paste' },
        ...(mac ? [{ role: 'pasteAndMatchStyle' } satisfies MenuItemConstructorOptions] : []),
        { role: 'selectAll' },
      ],
    },
    {
      label: '&View',
      submenu: [
        ...(dev
          ? ([
              { role: 'reload' },
              { role: 'forceReload' },
              { role: 'toggleDevTools' },
              { type: 'separator' },
            ] satisfies MenuItemConstructorOptions[])
          : []),
        { role: 'resetZoom' },
        { role: 'zoomIn' },
        // Cmd/Ctrl+= as well as Cmd/Ctrl+Plus, which needs Shift on most keyboards.
        { role: 'zoomIn', accelerator: 'CommandOrControl+=', visible: false },
        { role: 'zoomOut' },
        { type: 'separator' },
        { role: 'togglefullscreen' },
      ],
    },
    {
      label: '&Window',
      submenu: mac
        ? [{ role: 'minimize' }, { role: 'zoom' }, { type: 'separator' }, { role: 'front' }]
        : [{ role: 'minimize' }, { role: 'close' }],
    },
    {
      label: '&Help',
      role: 'help',
      submenu: [
        { label: 'Open Data Folder', click: openDataFolder },
        { label: 'Copy Diagnostics', click: copyDiagnostics },
        ...(mac ? [] : ([{ type: 'separator' }, { role: 'about' }] satisfies MenuItemConstructorOptions[])),
      ],
    },
  ];
  return Menu.buildFromTemplate(template);
}

/** The About panel's text (macOS and Linux show it; Windows shows a message box). */
export function setAboutPanel(): void {
  app.setAboutPanelOptions({
    applicationName: 'Agent Console',
    applicationVersion: app.getVersion(),
    copyright: 'Testing and monitoring for the Agent Messaging Service',
  });
}
