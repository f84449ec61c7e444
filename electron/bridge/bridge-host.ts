// The main side of the bridge: validates every call from the (untrusted) renderer with the
// contract's zod schema, runs its handler, and turns any failure into a BridgeError (words and
// codes, never a stack). Both transports — Electron IPC and the web host — call `invoke` and
// forward `events`; neither has a call of its own. The handlers live one file per domain in
// handlers/; they are thin: the rules live in the core. Plain Node: no `electron` import.
import { homedir } from 'node:os';
import { BRIDGE_CALLS, type BridgeCall, type BridgeResult } from '../../shared/bridge';
import { noUpdates, type AppUpdates } from '../core/app-updates';
import type { ConsoleCore } from '../core/console-core';
import { guardValue } from '../core/output-guard';
import { toBridgeError } from './bridge-error';
import { agentsHandlers } from './handlers/agents';
import { appHandlers } from './handlers/app';
import { chatHandlers } from './handlers/chat';
import type { AllHandlers, Emit, HandlerContext } from './handlers/context';
import { conversationsHandlers } from './handlers/conversations';
import { healthHandlers } from './handlers/health';
import { keysHandlers } from './handlers/keys';
import { logHandlers } from './handlers/log';
import { mockHandlers } from './handlers/mock';
import { monitorsHandlers } from './handlers/monitors';
import { profilesHandlers } from './handlers/profiles';
import { rateHandlers } from './handlers/rate';
import { suitesHandlers } from './handlers/suites';
import { threadsHandlers } from './handlers/threads';
import { reviewsHandlers } from './handlers/reviews';
import { transcriptsHandlers } from './handlers/transcripts';
import { usageHandlers } from './handlers/usage';

export interface BridgeHostOptions {
  transport: 'electron' | 'web';
  version: string;
  /** The folder chooser (the Tests screen's, "Publish status page…"): Electron's dialog, or a test's own. */
  chooseFolder?: (title?: string) => Promise<string | undefined>;
  /** The web host's home folder, which a typed folder must be inside (default: the user's home). */
  homeDir?: string;
  /** The desktop app's updater (electron/shell/updates.ts); elsewhere there is none. */
  updates?: AppUpdates;
}

export class BridgeHost {
  private readonly listeners = new Set<Emit>();
  private readonly disposers: (() => void)[] = [];
  private readonly handlers: AllHandlers;

  constructor(
    private readonly core: ConsoleCore,
    options: BridgeHostOptions,
  ) {
    const context: HandlerContext = {
      core,
      emit: this.emit,
      transport: options.transport,
      version: options.version,
      folderAccess:
        options.transport === 'electron'
          ? { kind: 'chooser', choose: options.chooseFolder }
          : { kind: 'typed', homeDir: options.homeDir ?? homedir() },
      updates: options.updates ?? noUpdates(options.version),
      onClose: (dispose) => this.disposers.push(dispose),
    };
    // Typed as every call of the contract: a call without a handler does not compile.
    this.handlers = {
      ...appHandlers(context),
      ...keysHandlers(context),
      ...rateHandlers(context),
      ...profilesHandlers(context),
      ...logHandlers(context),
      ...agentsHandlers(context),
      ...conversationsHandlers(context),
      ...threadsHandlers(context),
      ...usageHandlers(context),
      ...chatHandlers(context),
      ...healthHandlers(context),
      ...monitorsHandlers(context),
      ...transcriptsHandlers(context),
      ...reviewsHandlers(context),
      ...mockHandlers(context),
      ...suitesHandlers(context),
    };
  }

  /** Runs one call from the renderer. Never throws: failures come back as `{ ok: false, error }`. */
  async invoke(call: string, input: unknown): Promise<BridgeResult<unknown>> {
    if (!Object.hasOwn(BRIDGE_CALLS, call)) {
      return {
        ok: false,
        error: { code: 'UNKNOWN_CALL', message: `The bridge has no call named "${call}".` },
      };
    }
    const name = call as BridgeCall;
    try {
      const parsed = BRIDGE_CALLS[name].input.parse(input ?? {});
      const handler = this.handlers[name] as (i: unknown) => Promise<unknown>;
      // What the window is given passes the output guard, whatever the handler returned.
      return { ok: true, value: guardValue(await handler(parsed)) };
    } catch (error) {
      const bridgeError = toBridgeError(error);
      if (bridgeError.code === 'INTERNAL') this.core.appLog.error(`${name}: ${bridgeError.message}`);
      return { ok: false, error: bridgeError };
    }
  }

  /** Subscribes a transport to every event; returns the unsubscribe function. */
  onEvent(listener: Emit): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  close(): void {
    for (const dispose of this.disposers.splice(0)) dispose();
  }

  private emit: Emit = (event, payload) => {
    const guarded = guardValue(payload);
    for (const listener of this.listeners) listener(event, guarded);
  };
}
