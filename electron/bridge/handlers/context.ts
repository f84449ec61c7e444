// What every handler file shares: the core it runs on, the way to emit events, and the typed shape
// of a group of handlers. bridge-host.ts puts the groups together, and the compiler checks that
// every call of the contract has exactly one handler.
import type {
  BridgeCall,
  BridgeEvent,
  BridgeEvents,
  BridgeOutputs,
  BridgeParsedInput,
} from '../../../shared/bridge';
import type { AppUpdates } from '../../core/app-updates';
import type { ConsoleCore } from '../../core/console-core';
import type { FolderAccess } from '../../core/suites/suites';

export type Emit = <E extends BridgeEvent>(event: E, payload: BridgeEvents[E]) => void;

export interface HandlerContext {
  core: ConsoleCore;
  emit: Emit;
  transport: 'electron' | 'web';
  version: string;
  /** How this window names a folder of suite files: the desktop's chooser, or a typed path. */
  folderAccess: FolderAccess;
  /** The desktop app's updates; the web host has none (app-updates.ts). */
  updates: AppUpdates;
  /** Registers what to undo when the bridge closes: its subscriptions to the core's events. */
  onClose(dispose: () => void): void;
}

type Handler<K extends BridgeCall> = (input: BridgeParsedInput<K>) => Promise<BridgeOutputs[K]>;

/** The handlers of the calls named `<domain>:…`. */
export type DomainHandlers<D extends string> = {
  [K in Extract<BridgeCall, `${D}:${string}`>]: Handler<K>;
};

export type AllHandlers = { [K in BridgeCall]: Handler<K> };
