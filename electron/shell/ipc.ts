// The main side of the Electron transport, and the only file that touches `ipcMain` (lint-enforced,
// as GitHub Desktop does). Channel design:
//
//   - one `ipcMain.handle` channel per bridge call, named exactly as the call (`keys:add`,
//     `chat:stream`), so a channel is a contract entry and nothing else; there is no generic
//     "invoke anything" channel;
//   - one `webContents.send` channel per bridge event, named exactly as the event (`rate:update`,
//     `chat:chunk`), sent only to our window's main frame while it shows our renderer.
//
// Every call checks its sender first, as VS Code's validatedIpcMain does: it must come from the
// main frame (not a sub-frame) of our one window, whose document is our file:// renderer index.
// Anything else is refused without running. Then `BridgeHost.invoke` validates the input with the
// contract's zod schema and never throws, so the renderer always gets a BridgeResult.
import { ipcMain, type BrowserWindow, type IpcMainInvokeEvent } from 'electron';
import {
  BRIDGE_CALLS,
  type BridgeCall,
  type BridgeEvent,
  type BridgeEvents,
  type BridgeResult,
} from '../../shared/bridge';
import type { BridgeHost } from '../bridge/bridge-host';
import { redactSecrets } from '../core/redact';
import { isRendererDocument, type RendererLocation } from './policy';

export interface BridgeIpcOptions {
  /**
   * The bridge's main side. It may still be opening (the window is shown while the core opens):
   * calls wait for it, and events are carried from when it is open.
   */
  bridge: BridgeHost | Promise<BridgeHost>;
  /** The app's one window, if open; the only sender trusted. */
  window: () => BrowserWindow | undefined;
  renderer: RendererLocation;
  /** Told (without the input) when a sender is refused. */
  onRefused: (call: BridgeCall, reason: string) => void;
}

/** Why the event's sender is not our renderer, or undefined when it is. */
function refusalReason(
  event: IpcMainInvokeEvent,
  window: BrowserWindow | undefined,
  renderer: RendererLocation,
): string | undefined {
  if (!window || window.isDestroyed() || event.sender !== window.webContents) return 'not our window';
  const frame = event.senderFrame;
  // Null when the frame navigated away or was destroyed after sending.
  if (!frame) return 'the sending frame is gone';
  if (frame.parent !== null || frame.frameTreeNodeId !== window.webContents.mainFrame.frameTreeNodeId) {
    return 'a sub-frame';
  }
  if (!isRendererDocument(frame.url, renderer)) return 'a document other than the renderer';
  return undefined;
}

/** Registers every bridge call and forwards every bridge event; returns the function that undoes it. */
export function registerBridgeIpc(options: BridgeIpcOptions): () => void {
  const { window, renderer, onRefused } = options;
  const bridge = Promise.resolve(options.bridge);
  const calls = Object.keys(BRIDGE_CALLS) as BridgeCall[];
  for (const call of calls) {
    ipcMain.handle(call, async (event, input: unknown): Promise<BridgeResult<unknown>> => {
      const reason = refusalReason(event, window(), renderer);
      if (reason !== undefined) {
        onRefused(call, reason);
        return {
          ok: false,
          error: { code: 'UNTRUSTED_SENDER', message: 'This page may not use the console bridge.' },
        };
      }
      let ready: BridgeHost;
      try {
        ready = await bridge;
      } catch (error) {
        // Whoever opened the core reports why it failed; the page gets a result, not a rejection.
        return {
          ok: false,
          error: {
            code: 'NOT_STARTED',
            message: `The console could not start: ${redactSecrets((error as Error).message)}`,
          },
        };
      }
      return ready.invoke(call, input);
    });
  }
  let unsubscribe: (() => void) | undefined;
  let disposed = false;
  bridge.then(
    (ready) => {
      if (disposed) return;
      unsubscribe = ready.onEvent(<E extends BridgeEvent>(name: E, payload: BridgeEvents[E]) => {
        const target = window();
        if (!target || target.isDestroyed() || target.webContents.isDestroyed()) return;
        const frame = target.webContents.mainFrame;
        if (!isRendererDocument(frame.url, renderer)) return;
        frame.send(name, payload);
      });
    },
    () => undefined,
  );
  return () => {
    disposed = true;
    unsubscribe?.();
    for (const call of calls) ipcMain.removeHandler(call);
  };
}
