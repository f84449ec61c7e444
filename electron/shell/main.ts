// The desktop shell: the only code that imports Electron. It starts the embedded mock in-process
// and opens one locked-down window on the renderer. The bridge, menu, tray and settings arrive
// with the shell issue.
import { join } from 'node:path';
import { app, BrowserWindow } from 'electron';
import { startMockServer, type MockServer } from '../../mock/server';
import { defaultDataDir } from '../core/paths';

let mock: MockServer | undefined;

function createWindow(): void {
  const window = new BrowserWindow({
    width: 1280,
    height: 820,
    title: 'Agent Console',
    show: false,
    webPreferences: {
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
    },
  });
  window.once('ready-to-show', () => window.show());
  // No navigation away from the app and no new windows: links open outside, after the renderer asks.
  window.webContents.on('will-navigate', (event) => event.preventDefault());
  window.webContents.setWindowOpenHandler(() => ({ action: 'deny' }));
  void window.loadFile(join(import.meta.dirname, '..', 'renderer', 'index.html'));
}

app.on('web-contents-created', (_event, contents) => {
  contents.on('will-attach-webview', (event) => event.preventDefault());
});

void app.whenReady().then(async () => {
  const dataDir = process.env.AGENT_CONSOLE_DATA_DIR ? defaultDataDir() : app.getPath('userData');
  mock = await startMockServer({ dataDir: join(dataDir, 'mock') });
  createWindow();
  app.on('activate', () => {
    if (BrowserWindow.getAllWindows().length === 0) createWindow();
  });
});

app.on('window-all-closed', () => {
  if (process.platform !== 'darwin') app.quit();
});

app.on('will-quit', () => {
  void mock?.close();
});
