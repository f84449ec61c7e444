// A recording stand-in for the `electron` module, for the packaged-layout launch test. It records
// what the main process asks of Electron (windows and their webPreferences, IPC handlers, menus,
// the session's hooks) and answers the test over the fork IPC channel. It shows no window and
// renders nothing: whatever needs a real Chromium (windows, tray, menus, notifications) is the
// `_electron` tests' job, where Electron exists. Only what the lifecycle needs is answered:
// `whenReady` resolves, one display, no notifications, no dark theme.
import { EventEmitter } from 'node:events';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setImmediate } from 'node:timers';
import { pathToFileURL } from 'node:url';

const appDir = process.env.STAND_IN_APP_DIR;
// Electron sets it: the package's resources folder (app.asar, app-update.yml).
process.resourcesPath = process.env.STAND_IN_RESOURCES ?? appDir;
const calls = [];
const handlers = new Map();
const windows = [];
const paths = new Map();

/** Functions become '[function]' so a record is plain data the test can read. */
function plain(value, depth = 0) {
  if (typeof value === 'function') return '[function]';
  if (value === null || typeof value !== 'object' || depth > 4) return value;
  if (Array.isArray(value)) return value.map((v) => plain(v, depth + 1));
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, plain(v, depth + 1)]));
}

/** Each call with when it was made (this process's clock, as the app's log file uses). */
function record(api, ...args) {
  calls.push({ api, args: plain(args), at: Date.now() });
}

class App extends EventEmitter {
  isPackaged = true;
  commandLine = { appendSwitch: (...args) => record('app.commandLine.appendSwitch', ...args) };
  whenReady() {
    record('app.whenReady');
    return new Promise((resolve) => setImmediate(() => (this.emit('ready'), resolve())));
  }
  getVersion() {
    return JSON.parse(readFileSync(join(appDir, 'package.json'), 'utf8')).version;
  }
  getName() {
    return JSON.parse(readFileSync(join(appDir, 'package.json'), 'utf8')).productName;
  }
  getAppPath() {
    return appDir;
  }
  setPath(name, path) {
    record('app.setPath', name, path);
    if (!existsSync(path)) throw new Error(`Failed to set path ${name}: ${path} does not exist`);
    paths.set(name, path);
  }
  getPath(name) {
    if (!paths.has(name)) throw new Error(`The stand-in has no path for ${name}`);
    return paths.get(name);
  }
  enableSandbox() {
    record('app.enableSandbox');
  }
  setAppUserModelId(id) {
    record('app.setAppUserModelId', id);
  }
  setAboutPanelOptions(options) {
    record('app.setAboutPanelOptions', options);
  }
  requestSingleInstanceLock() {
    record('app.requestSingleInstanceLock');
    return true;
  }
  relaunch() {
    record('app.relaunch');
  }
  quit() {
    record('app.quit');
    const event = { defaultPrevented: false, preventDefault: () => (event.defaultPrevented = true) };
    this.emit('will-quit', event);
    if (!event.defaultPrevented) process.exit(0);
  }
  exit(code = 0) {
    record('app.exit', code);
    process.exit(code);
  }
}

export const app = new App();

class WebContents extends EventEmitter {
  mainFrame = {
    url: '',
    parent: null,
    frameTreeNodeId: 1,
    send: (name, payload) => record('frame.send', name, payload),
  };
  setWindowOpenHandler(handler) {
    record('webContents.setWindowOpenHandler', handler);
  }
  isDestroyed() {
    return false;
  }
  getURL() {
    return this.mainFrame.url;
  }
}

export class BrowserWindow extends EventEmitter {
  constructor(options) {
    super();
    this.options = options;
    this.webContents = new WebContents();
    this.loaded = undefined;
    this.actions = [];
    windows.push(this);
    record('new BrowserWindow', options);
    app.emit('web-contents-created', {}, this.webContents);
  }
  /** Electron fails the load of a missing file; an existing one becomes the frame's URL. */
  async loadFile(path) {
    record('window.loadFile', path);
    this.loaded = path;
    if (!existsSync(path)) throw new Error(`ERR_FILE_NOT_FOUND (-6) loading '${pathToFileURL(path).href}'`);
    this.webContents.mainFrame.url = pathToFileURL(path).href;
  }
  isDestroyed() {
    return false;
  }
  isMinimized() {
    return false;
  }
  isMaximized() {
    return this.actions.includes('maximize');
  }
  isFullScreen() {
    return false;
  }
  getNormalBounds() {
    return {
      x: this.options.x ?? 0,
      y: this.options.y ?? 0,
      width: this.options.width,
      height: this.options.height,
    };
  }
  getBounds() {
    return this.getNormalBounds();
  }
}
for (const action of ['show', 'focus', 'restore', 'maximize', 'close', 'hide']) {
  BrowserWindow.prototype[action] = function () {
    this.actions.push(action);
    record(`window.${action}`);
  };
}

export const ipcMain = {
  handle(channel, handler) {
    if (handlers.has(channel)) throw new Error(`Attempted to register a second handler for '${channel}'`);
    handlers.set(channel, handler);
  },
  removeHandler(channel) {
    handlers.delete(channel);
  },
  // electron-store answers its renderer helper on these; the console's renderer never asks.
  on: (channel) => record('ipcMain.on', channel),
  once: (channel) => record('ipcMain.once', channel),
};

const defaultSession = {
  webRequest: {
    onBeforeRequest: (handler) => record('session.webRequest.onBeforeRequest', handler),
    onHeadersReceived: (handler) => record('session.webRequest.onHeadersReceived', handler),
  },
  setPermissionRequestHandler: (handler) => record('session.setPermissionRequestHandler', handler),
  setPermissionCheckHandler: (handler) => record('session.setPermissionCheckHandler', handler),
  setDevicePermissionHandler: (handler) => record('session.setDevicePermissionHandler', handler),
  on: (event) => record('session.on', event),
  // No system proxy where the stand-in runs.
  resolveProxy: async (url) => (record('session.resolveProxy', url), 'DIRECT'),
};
export const session = {
  defaultSession,
  fromPartition: (partition, options) => (
    record('session.fromPartition', partition, options),
    defaultSession
  ),
};

/**
 * `net.request` (electron-updater's HTTP) on Node's http/https: the same ClientRequest shape, with
 * 'response', 'error', end() and abort(). Redirects are not followed, as with redirect: 'manual'.
 */
export const net = {
  request(options) {
    record('net.request', {
      method: options.method ?? 'GET',
      host: options.hostname ?? options.host,
      path: options.path,
    });
    const { session: _session, redirect: _redirect, protocol, ...rest } = options;
    const request = (protocol === 'http:' ? httpRequest : httpsRequest)({ protocol, ...rest });
    request.abort = () => request.destroy();
    return request;
  },
};

export const dialog = {
  showErrorBox: (title, content) => {
    record('dialog.showErrorBox', title, content);
    process.stderr.write(`[stand-in] error box: ${title}: ${content}\n`);
  },
  showMessageBox: async (...args) => {
    record('dialog.showMessageBox', ...args.filter((a) => !(a instanceof BrowserWindow)));
    return { response: 0, checkboxChecked: false };
  },
};

export const Menu = {
  buildFromTemplate: (template) => ({ template: plain(template) }),
  setApplicationMenu: (menu) => record('Menu.setApplicationMenu', menu),
};

export class Tray {
  constructor(image) {
    record('new Tray', image);
    this.destroyed = false;
  }
  setToolTip(text) {
    record('tray.setToolTip', text);
  }
  setImage() {
    record('tray.setImage');
  }
  setContextMenu(menu) {
    record('tray.setContextMenu', menu);
  }
  on(event) {
    record('tray.on', event);
  }
  destroy() {
    this.destroyed = true;
  }
  isDestroyed() {
    return this.destroyed;
  }
}

function image(buffer, options) {
  const representations = [{ bytes: buffer.length, ...options }];
  return {
    representations,
    addRepresentation: (more) =>
      representations.push({ bytes: more.buffer?.length, scaleFactor: more.scaleFactor }),
    isEmpty: () => representations.every((r) => !r.bytes),
  };
}
export const nativeImage = { createFromBuffer: image };
export const nativeTheme = { shouldUseDarkColors: false, on: () => undefined };
export const screen = { getAllDisplays: () => [{ workArea: { x: 0, y: 0, width: 1920, height: 1080 } }] };
export const shell = {
  openPath: async (path) => (record('shell.openPath', path), ''),
  openExternal: async (url) => record('shell.openExternal', url),
};
export const clipboard = { writeText: (text) => record('clipboard.writeText', text.length) };
export class Notification {
  static isSupported() {
    return false;
  }
}

// The test's side: a snapshot of what was recorded, a bridge call made as the window's renderer
// would make it (its main frame, on the loaded file), or a window event.
process.on('message', async (message) => {
  const reply = (body) => process.send({ id: message.id, ...body });
  try {
    if (message.op === 'snapshot') {
      reply({
        calls,
        handlers: [...handlers.keys()],
        windows: windows.map((w) => ({ options: plain(w.options), loaded: w.loaded, actions: w.actions })),
      });
    } else if (message.op === 'invoke') {
      const window = windows.at(-1);
      const handler = handlers.get(message.call);
      if (!handler) throw new Error(`No handler for ${message.call}`);
      const event = { sender: window?.webContents, senderFrame: window?.webContents.mainFrame };
      reply({ result: await handler(event, message.input) });
    } else if (message.op === 'window-event') {
      windows.at(-1).emit(message.event);
      reply({});
    } else if (message.op === 'quit') {
      reply({});
      app.quit();
    }
  } catch (error) {
    reply({ error: String(error?.stack ?? error) });
  }
});

// Electron's own module is CommonJS, so `import electron from 'electron'` (electron-store) works.
// eslint-disable-next-line no-restricted-syntax -- the shape of the module this stands in for
export default {
  app,
  net,
  BrowserWindow,
  ipcMain,
  session,
  dialog,
  Menu,
  Tray,
  nativeImage,
  nativeTheme,
  screen,
  shell,
  clipboard,
  Notification,
};
