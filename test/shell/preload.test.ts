// The preload, with Electron's contextBridge and ipcRenderer replaced by stand-ins (the binary
// cannot run here; test/electron drives the real thing where it can): it exposes only the
// bridge's named functions, carries them over one channel per call, and its failures cross the
// context bridge with their code.
import { EventEmitter } from 'node:events';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { BRIDGE_CALLS } from '../../shared/bridge';
import { BRIDGE_EVENTS, type BridgeApi } from '../../shared/bridge-api';

const exposed = new Map<string, unknown>();
const ipc = new EventEmitter();
const invoke = vi.fn(async (channel: string, input: unknown): Promise<unknown> => {
  if (channel === 'keys:add')
    return { ok: false, error: { code: 'KEY_FORMAT', message: 'Not a key.', requestId: 'r1' } };
  if (channel === 'app:info') throw new Error('no handler');
  return { ok: true, value: { channel, input } };
});

vi.mock('electron', () => ({
  contextBridge: { exposeInMainWorld: (key: string, api: unknown) => exposed.set(key, api) },
  ipcRenderer: {
    invoke: (channel: string, input: unknown) => invoke(channel, input),
    on: (channel: string, listener: (...args: unknown[]) => void) => ipc.on(channel, listener),
    removeListener: (channel: string, listener: (...args: unknown[]) => void) =>
      ipc.removeListener(channel, listener),
  },
}));

let api: BridgeApi;
beforeAll(async () => {
  await import('../../electron/shell/preload');
  api = exposed.get('agentConsole') as BridgeApi;
});

/** What contextBridge does to a value crossing into the page: Errors keep only their message. */
function crossContexts(value: unknown): unknown {
  if (value instanceof Error) return new Error(value.message);
  return structuredClone(value);
}

describe('the preload', () => {
  it('exposes only `agentConsole`: named functions by domain and `on`', () => {
    expect([...exposed.keys()]).toEqual(['agentConsole']);
    const domains = new Set(Object.keys(BRIDGE_CALLS).map((call) => call.split(':')[0]));
    expect(Object.keys(api).sort()).toEqual([...domains, 'on'].sort());
    expect(api).not.toHaveProperty('invoke');
    expect(typeof api.keys.add).toBe('function');
  });

  it('calls on the channel named as the call', async () => {
    await expect(api.keys.list({})).resolves.toEqual({ channel: 'keys:list', input: {} });
    expect(invoke).toHaveBeenLastCalledWith('keys:list', {});
  });

  it('rejects with a plain object that keeps the code and request id across the context bridge', async () => {
    const failure = crossContexts(
      await api.keys.add({ name: 'n', secret: 'x', baseUrl: 'https://example.com' }).catch((e: unknown) => e),
    );
    expect(failure).toEqual({
      name: 'BridgeFailure',
      code: 'KEY_FORMAT',
      message: 'Not a key.',
      requestId: 'r1',
      error: { code: 'KEY_FORMAT', message: 'Not a key.', requestId: 'r1' },
    });
  });

  it('turns an IPC failure into a BridgeError too', async () => {
    const failure = await api.app.info({}).catch((e: unknown) => e);
    expect(failure).toMatchObject({ code: 'IPC_FAILED', error: { code: 'IPC_FAILED' } });
  });

  it('delivers events without the IpcRendererEvent and unsubscribes', () => {
    const seen: unknown[] = [];
    const off = api.on('log:cleared', (payload) => seen.push(payload));
    ipc.emit('log:cleared', { sender: 'the IpcRendererEvent' }, {});
    expect(seen).toEqual([{}]);
    off();
    ipc.emit('log:cleared', { sender: 'the IpcRendererEvent' }, {});
    expect(seen).toHaveLength(1);
    // One listener per event channel, and no more.
    for (const event of BRIDGE_EVENTS) expect(ipc.listenerCount(event)).toBe(1);
  });
});
