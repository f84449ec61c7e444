// The main side of the Electron transport, with Electron's ipcMain and window replaced by
// stand-ins (the binary cannot run here; test/electron drives the real thing where it can):
// one channel per call, senders checked before anything runs, events to our main frame only.
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { BRIDGE_CALLS, type BridgeEvent, type BridgeEvents } from '../../shared/bridge';
import type { BridgeHost } from '../../electron/bridge/bridge-host';
import { rendererLocation } from '../../electron/shell/policy';

type Handler = (event: unknown, input: unknown) => Promise<unknown>;
const handlers = new Map<string, Handler>();

vi.mock('electron', () => ({
  ipcMain: {
    handle: (channel: string, handler: Handler) => {
      if (handlers.has(channel)) throw new Error(`second handler for ${channel}`);
      handlers.set(channel, handler);
    },
    removeHandler: (channel: string) => handlers.delete(channel),
  },
}));

const { registerBridgeIpc } = await import('../../electron/shell/ipc');

const renderer = rendererLocation('/opt/agent-console/out/renderer/index.html', 'linux');
const INDEX_URL = 'file:///opt/agent-console/out/renderer/index.html';

function fakeWindow() {
  const mainFrame = { frameTreeNodeId: 7, url: `${INDEX_URL}#/keys`, send: vi.fn(), parent: null };
  const webContents = { mainFrame, isDestroyed: () => false };
  return { window: { webContents, isDestroyed: () => false }, mainFrame, webContents };
}

function fakeBridge() {
  let emit: (<E extends BridgeEvent>(event: E, payload: BridgeEvents[E]) => void) | undefined;
  const bridge = {
    invoke: vi.fn(async (call: string, input: unknown) => ({ ok: true, value: { call, input } })),
    onEvent: vi.fn((listener: typeof emit) => {
      emit = listener;
      return () => {
        emit = undefined;
      };
    }),
  };
  return { bridge, emit: <E extends BridgeEvent>(e: E, p: BridgeEvents[E]) => emit?.(e, p) };
}

let win: ReturnType<typeof fakeWindow>;
let host: ReturnType<typeof fakeBridge>;
let refused: string[];
let dispose: () => void;

beforeEach(() => {
  handlers.clear();
  win = fakeWindow();
  host = fakeBridge();
  refused = [];
  dispose = registerBridgeIpc({
    bridge: host.bridge as unknown as BridgeHost,
    window: () => win.window as never,
    renderer,
    onRefused: (call, reason) => refused.push(`${call}: ${reason}`),
  });
});

const fromMainFrame = () => ({ sender: win.webContents, senderFrame: win.mainFrame });

describe('registerBridgeIpc', () => {
  it('registers exactly one channel per bridge call, named as the call', () => {
    expect([...handlers.keys()].sort()).toEqual(Object.keys(BRIDGE_CALLS).sort());
  });

  it("runs a call from our window's main frame on the bridge", async () => {
    const result = await handlers.get('keys:add')?.(fromMainFrame(), { name: 'n', secret: 's' });
    expect(result).toEqual({ ok: true, value: { call: 'keys:add', input: { name: 'n', secret: 's' } } });
    expect(refused).toEqual([]);
  });

  it('refuses other windows, sub-frames, gone frames and other documents, without running the call', async () => {
    const senders = [
      { ...fromMainFrame(), sender: { mainFrame: win.mainFrame } },
      { ...fromMainFrame(), senderFrame: { ...win.mainFrame, parent: win.mainFrame, frameTreeNodeId: 8 } },
      { ...fromMainFrame(), senderFrame: { ...win.mainFrame, frameTreeNodeId: 8 } },
      { ...fromMainFrame(), senderFrame: null },
      { ...fromMainFrame(), senderFrame: { ...win.mainFrame, url: 'https://example.com/' } },
      { ...fromMainFrame(), senderFrame: { ...win.mainFrame, url: 'file:///tmp/index.html' } },
    ];
    for (const event of senders) {
      expect(await handlers.get('app:info')?.(event, {})).toMatchObject({
        ok: false,
        error: { code: 'UNTRUSTED_SENDER' },
      });
    }
    expect(host.bridge.invoke).not.toHaveBeenCalled();
    expect(refused).toHaveLength(senders.length);
  });

  it('refuses everything while no window is open', async () => {
    dispose();
    handlers.clear();
    registerBridgeIpc({
      bridge: host.bridge as unknown as BridgeHost,
      window: () => undefined,
      renderer,
      onRefused: () => undefined,
    });
    expect(await handlers.get('app:info')?.(fromMainFrame(), {})).toMatchObject({ ok: false });
  });

  it('takes calls while the core is still opening: answered once it is open, its events carried from then', async () => {
    dispose();
    handlers.clear();
    let open!: (bridge: BridgeHost) => void;
    registerBridgeIpc({
      bridge: new Promise<BridgeHost>((resolve) => (open = resolve)),
      window: () => win.window as never,
      renderer,
      onRefused: () => undefined,
    });
    let answered: unknown;
    const call = handlers
      .get('app:info')?.(fromMainFrame(), {})
      .then((result) => (answered = result));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(answered).toBeUndefined();
    open(host.bridge as unknown as BridgeHost);
    await call;
    expect(answered).toEqual({ ok: true, value: { call: 'app:info', input: {} } });
    host.emit('log:cleared', {});
    expect(win.mainFrame.send).toHaveBeenCalledWith('log:cleared', {});
  });

  it('answers with the reason when the core could not open', async () => {
    dispose();
    handlers.clear();
    const failed = Promise.reject(new Error('the data folder is not writable'));
    registerBridgeIpc({
      bridge: failed,
      window: () => win.window as never,
      renderer,
      onRefused: () => undefined,
    });
    expect(await handlers.get('keys:list')?.(fromMainFrame(), {})).toEqual({
      ok: false,
      error: { code: 'NOT_STARTED', message: 'The console could not start: the data folder is not writable' },
    });
  });

  it('sends each event on its own channel to our main frame, and only while it shows the renderer', () => {
    host.emit('log:cleared', {});
    expect(win.mainFrame.send).toHaveBeenCalledWith('log:cleared', {});
    win.mainFrame.url = 'https://example.com/';
    host.emit('log:cleared', {});
    expect(win.mainFrame.send).toHaveBeenCalledTimes(1);
  });

  it('undoes itself: handlers removed, events no longer forwarded', () => {
    dispose();
    expect(handlers.size).toBe(0);
    host.emit('log:cleared', {});
    expect(win.mainFrame.send).not.toHaveBeenCalled();
  });
});
