// The preload: gives the page `window.agentConsole`, the bridge's named functions
// (`agentConsole.keys.add({...})`, `agentConsole.on('rate:update', fn)`), and nothing else — no
// generic invoke, no ipcRenderer, no process. It runs sandboxed, so it is bundled to one CommonJS
// file (scripts/build.mjs) whose only import is `electron`. The only file besides ipc.ts that
// touches Electron's IPC (lint-enforced).
import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import {
  BRIDGE_CALLS,
  type BridgeCall,
  type BridgeError,
  type BridgeEvents,
  type BridgeResult,
} from '../../shared/bridge';
import {
  BRIDGE_EVENTS,
  BridgeFailure,
  createBridgeApi,
  type BridgeApi,
  type BridgeTransport,
} from '../../shared/bridge-api';

/** Calls and events over IPC: one channel per call and per event, named as in the contract (ipc.ts). */
const ipcTransport: BridgeTransport = {
  async invoke(call, input) {
    try {
      return (await ipcRenderer.invoke(call, input)) as BridgeResult<unknown>;
    } catch (error) {
      // The main side answers every call with a BridgeResult; this is the app itself failing.
      return {
        ok: false,
        error: { code: 'IPC_FAILED', message: `The app did not answer: ${(error as Error).message}` },
      };
    }
  },
  subscribe(listener) {
    const removers = BRIDGE_EVENTS.map((name) => {
      const forward = (_event: IpcRendererEvent, payload: BridgeEvents[typeof name]) =>
        listener(name, payload);
      ipcRenderer.on(name, forward);
      return () => ipcRenderer.removeListener(name, forward);
    });
    return () => {
      for (const remove of removers) remove();
    };
  },
};

/**
 * What a failed call rejects with on the page: the BridgeError's own fields (`code`, `message`,
 * `status`, `requestId`...) plus BridgeFailure's `name` and `error`, as one plain object.
 */
type CrossedBridgeFailure = BridgeError & { name: 'BridgeFailure'; error: BridgeError };

/**
 * contextBridge copies only the message of an Error (custom fields such as BridgeFailure's
 * `error`, with its code and request id, are dropped) but copies a plain object whole. So each
 * call's BridgeFailure crosses as a plain object that reads both as a BridgeError (`failure.code`)
 * and as a BridgeFailure (`failure.error.code`); only `instanceof BridgeFailure` is false on the page.
 */
function withCrossableFailures(api: BridgeApi): BridgeApi {
  const crossable: Record<string, unknown> = {};
  for (const [domain, member] of Object.entries(api)) {
    if (typeof member === 'function') {
      crossable[domain] = member;
      continue;
    }
    const actions: Record<string, (input: unknown) => Promise<unknown>> = {};
    for (const [action, call] of Object.entries(
      member as Record<string, (input: unknown) => Promise<unknown>>,
    )) {
      actions[action] = (input) =>
        call(input).catch((error: unknown) =>
          Promise.reject(
            error instanceof BridgeFailure
              ? ({ ...error.error, name: 'BridgeFailure', error: error.error } satisfies CrossedBridgeFailure)
              : error,
          ),
        );
    }
    crossable[domain] = actions;
  }
  return crossable as BridgeApi;
}

contextBridge.exposeInMainWorld(
  'agentConsole',
  withCrossableFailures(createBridgeApi(ipcTransport, Object.keys(BRIDGE_CALLS) as BridgeCall[])),
);
