// The desktop app's entry: the app's lifecycle and nothing else. It locks the session down, opens
// one window on the renderer and, meanwhile, the core (with the embedded mock) on the data dir,
// carries the bridge over IPC, and adds the menu and the tray once the core is open. Quitting
// closes the bridge and the core.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { app, dialog, Menu, session, type BrowserWindow } from 'electron';
import { BridgeHost } from '../bridge/bridge-host';
import type { AppLog } from '../core/app-log';
import { ConsoleCore } from '../core/console-core';
import { preparePrivateFolders } from '../core/data-folder';
import { lockFolder, type FolderLock } from '../core/folder-lock';
import { defaultDataDir, keychainServiceFromEnvironment } from '../core/paths';
import { keepRunningOnUnhandledRejection } from '../core/process-guard';
import { redactSecrets } from '../core/redact';
import { guardWebContents, hardenSession } from './hardening';
import { registerBridgeIpc } from './ipc';
import { buildAppMenu, setAboutPanel } from './menu';
import { APP_USER_MODEL_ID, rendererLocation } from './policy';
import { followMonitors } from './health-alerts';
import { createTray, destroyTray } from './tray';
import { startUpdates } from './updates';
import { createMainWindow } from './window';
import { openWindowState, type WindowState } from './window-state';

const INDEX_FILE = join(import.meta.dirname, '..', 'renderer', 'index.html');
const PRELOAD_FILE = join(import.meta.dirname, 'preload.cjs');
/** Quitting never hangs on a slow close: after this the process goes anyway. */
const SHUTDOWN_LIMIT_MS = 5_000;

interface Running {
  core: ConsoleCore;
  bridge: BridgeHost;
  disposeIpc: () => void;
  owner: FolderLock;
}

/** The app's updater, once the core is open (its settings are the core's). */
let updates: ReturnType<typeof startUpdates> | undefined;
/** The core's rotating log file, once the core is open (blocked requests, refused calls...). */
let appLog: AppLog | undefined;
/** What was logged while the core was opening (the window opens meanwhile): for its log file. */
const beforeLog: string[] = [];

function log(message: string): void {
  process.stderr.write(`agent-console: ${redactSecrets(message)}\n`);
  if (appLog) appLog.warn(message);
  else beforeLog.push(message);
}

// One data dir for the app, the CLI and the web host (electron/core/paths.ts: the OS's usual
// place, or AGENT_CONSOLE_DATA_DIR). Chromium's own files go there too, and the single-instance
// lock is per data dir, so a test run with its own dir never meets the user's app. Before `ready`.
const dataDir = defaultDataDir();
/**
 * A data folder another user owns or may write in, or a link in place of one of our folders, is
 * refused before anything (Chromium included) writes in it; start() shows why, once a dialog can
 * be shown. Chromium gets a throwaway folder meanwhile, removed as the app exits.
 */
let refusedFolder: Error | undefined;
try {
  preparePrivateFolders(dataDir); // makes it if missing: setPath refuses a folder that does not exist
} catch (error) {
  refusedFolder = error as Error;
}
if (refusedFolder) {
  const scratch = mkdtempSync(join(tmpdir(), 'agent-console-refused-'));
  process.once('exit', () => rmSync(scratch, { recursive: true, force: true }));
  app.setPath('userData', scratch);
} else app.setPath('userData', dataDir);
app.enableSandbox();
const dev = !app.isPackaged;
// Windows shows notifications only for an app whose AppUserModelID matches its Start-menu shortcut:
// the installer's shortcut carries electron-builder.yml's appId; in development, electron.exe's path.
if (process.platform === 'win32') app.setAppUserModelId(dev ? process.execPath : APP_USER_MODEL_ID);

let mainWindow: BrowserWindow | undefined;
/** Where the window was last; known once the app may show its window (the core may still be opening). */
let windowState: WindowState | undefined;
let running: Running | undefined;
let quitting: 'no' | 'closing' | 'done' = 'no';

guardWebContents(app, (what) => log(`blocked ${what}`));
keepRunningOnUnhandledRejection(log);

function showWindow(): void {
  if (!windowState || quitting !== 'no') return;
  if (mainWindow && !mainWindow.isDestroyed()) {
    if (mainWindow.isMinimized()) mainWindow.restore();
    mainWindow.show();
    mainWindow.focus();
    return;
  }
  const opened = createMainWindow({
    preload: PRELOAD_FILE,
    indexFile: INDEX_FILE,
    state: windowState,
    dev,
    onLoadFailed: (message) => {
      log(message);
      dialog.showErrorBox('Agent Console', message);
    },
  });
  opened.on('closed', () => {
    if (mainWindow === opened) mainWindow = undefined;
  });
  mainWindow = opened;
}

async function start(): Promise<Running> {
  await app.whenReady();
  if (refusedFolder) throw refusedFolder;
  const renderer = rendererLocation(INDEX_FILE);
  hardenSession(session.defaultSession, renderer, (what) => log(`blocked ${what}`));
  if (!existsSync(INDEX_FILE) || !existsSync(PRELOAD_FILE)) {
    throw new Error(`The console is not built (no ${INDEX_FILE} or ${PRELOAD_FILE}): run \`npm run build\`.`);
  }
  const version = app.getVersion();
  const warn = (message: string): void => {
    // The core has already written it to its log file; the window shows the ones from opening
    // (core.startupWarnings, through app:info).
    process.stderr.write(`agent-console: ${redactSecrets(message)}\n`);
  };
  // One owner per data folder (a web host on it too): the error names the holder, start() shows it.
  const owner = await lockFolder(dataDir, 'owner', 'Agent Console (desktop app)');
  // The window opens while the core opens, as the web host serves its page meanwhile:
  // the renderer's process starts, loads and paints while the core reads the data folder and
  // starts the embedded mock. The page's bridge calls wait for the core.
  const opening = ConsoleCore.open({
    dataDir,
    embeddedMock: 'discover',
    appVersion: version,
    // Polls GET /health while the app runs, window shown or not.
    monitorHealth: true,
    ...keychainServiceFromEnvironment(),
    onWarning: warn,
    // The system's proxy settings, PAC files included, as Chromium resolves them for each service.
    systemProxy: (url) => session.defaultSession.resolveProxy(url),
  });
  const bridgeOpening = opening.then(
    (core) =>
      new BridgeHost(core, {
        transport: 'electron',
        version,
        updates: (updates = startUpdates({
          settings: core.settings,
          dataDir,
          version,
          log: (line) => core.appLog.info(line),
        })),
        // The Tests screen's "Open folder": the native chooser (the web host types a path instead).
        chooseFolder: async (title = 'Open a folder of suite files') => {
          const options = { title, properties: ['openDirectory' as const, 'createDirectory' as const] };
          const chosen =
            mainWindow && !mainWindow.isDestroyed()
              ? await dialog.showOpenDialog(mainWindow, options)
              : await dialog.showOpenDialog(options);
          return chosen.canceled ? undefined : chosen.filePaths[0];
        },
      }),
  );
  // Before the window exists, so its first call finds its handler.
  const disposeIpc = registerBridgeIpc({
    bridge: bridgeOpening,
    window: () => mainWindow,
    renderer,
    onRefused: (call, reason) => log(`refused the bridge call ${call} from ${reason}`),
  });
  windowState = openWindowState(dataDir, log);
  showWindow();
  let core: ConsoleCore;
  let bridge: BridgeHost;
  try {
    [core, bridge] = await Promise.all([opening, bridgeOpening]);
  } catch (error) {
    disposeIpc();
    throw error;
  }
  appLog = core.appLog;
  for (const message of beforeLog.splice(0)) appLog.warn(message);
  running = { core, bridge, disposeIpc, owner };
  // Asked to quit while the core was opening: shutdown() closes what was opened.
  if (quitting !== 'no') return running;
  setAboutPanel();
  Menu.setApplicationMenu(
    buildAppMenu({ dev, dataDir, diagnostics: () => core.diagnostics(), onError: log }),
  );
  createTray({ show: showWindow, quit: () => app.quit() }, log);
  followMonitors(core.monitors, log);
  return running;
}

async function shutdown(started: Promise<Running | undefined>): Promise<void> {
  destroyTray();
  updates?.stop();
  const services = await started;
  if (!services) return;
  services.disposeIpc();
  services.bridge.close();
  await services.core.close();
  await services.owner.release();
}

// Another instance on this data dir shows its window (second-instance, below) and this one leaves.
const haveLock = app.requestSingleInstanceLock();
const started: Promise<Running | undefined> = haveLock
  ? start().catch((error: unknown) => {
      const message = redactSecrets((error as Error).message ?? String(error));
      log(`could not start: ${message}`);
      dialog.showErrorBox('Agent Console could not start', message);
      app.exit(1);
      return undefined;
    })
  : Promise.resolve(undefined);
if (!haveLock) app.quit();

app.on('second-instance', () => showWindow());
// macOS: a click on the Dock icon with no window open.
app.on('activate', () => showWindow());
app.on('window-all-closed', () => {
  if (process.platform !== 'darwin') app.quit();
});

app.on('will-quit', (event) => {
  if (quitting === 'done') return;
  event.preventDefault();
  if (quitting === 'closing') return;
  quitting = 'closing';
  const limit = new Promise<void>((resolve) => setTimeout(resolve, SHUTDOWN_LIMIT_MS).unref());
  void Promise.race([shutdown(started), limit])
    .catch((error: unknown) => log(`while closing: ${(error as Error).message}`))
    .finally(() => {
      quitting = 'done';
      app.quit();
    });
});
