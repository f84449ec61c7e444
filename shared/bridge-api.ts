// The renderer's side of the bridge, with no zod in it: the transport seam, the named-function API
// built over it, and the failure a call rejects with. The contract itself (schemas and output
// types) is shared/bridge/, checked on the main side; here its types are enough.
import type {
  BridgeCall,
  BridgeError,
  BridgeEvent,
  BridgeEvents,
  BridgeInput,
  BridgeOutputs,
  BridgeResult,
} from './bridge';

/**
 * Every event of the contract, once. Kept as an object whose keys are the events so the compiler
 * holds it to the contract: an event missing here, or one the contract lacks, fails to compile
 * (an event left out of a list would reach no window, silently).
 */
const EVENT_NAMES = {
  'rate:update': true,
  'log:added': true,
  'log:cleared': true,
  'keys:changed': true,
  'profiles:changed': true,
  'chat:chunk': true,
  'chat:end': true,
  'health:update': true,
  'monitors:changed': true,
  'monitors:notify': true,
  'mock:changed': true,
  'suites:changed': true,
  'suites:progress': true,
  'app:updateStatus': true,
} as const satisfies Record<BridgeEvent, true>;

/** The events both transports forward: the preload subscribes to each, the web transport too. */
export const BRIDGE_EVENTS = Object.keys(EVENT_NAMES) as readonly (keyof typeof EVENT_NAMES)[];

/** The most calls the web transport sends in one POST (/bridge/calls); more go in further POSTs. */
export const BRIDGE_BATCH_MAX = 64;

/** The transport-neutral seam both transports implement: one request/response, one event stream. */
export interface BridgeTransport {
  invoke(call: BridgeCall, input: unknown): Promise<BridgeResult<unknown>>;
  subscribe(listener: <E extends BridgeEvent>(event: E, payload: BridgeEvents[E]) => void): () => void;
}

type Split<K extends string> = K extends `${infer D}:${infer A}` ? [D, A] : never;
type Domains = Split<BridgeCall>[0];
type ActionsOf<D extends string> = Extract<BridgeCall, `${D}:${string}`>;

/**
 * The renderer's view of the bridge: named functions by domain (`bridge.keys.add({...})`), never
 * a generic invoke. Each rejects with a BridgeFailure carrying a BridgeError.
 */
export type BridgeApi = {
  [D in Domains]: {
    [K in ActionsOf<D> as Split<K>[1]]: (input: BridgeInput<K>) => Promise<BridgeOutputs[K]>;
  };
} & {
  on<E extends BridgeEvent>(event: E, listener: (payload: BridgeEvents[E]) => void): () => void;
};

export class BridgeFailure extends Error {
  constructor(readonly error: BridgeError) {
    super(error.message);
    this.name = 'BridgeFailure';
  }
}

/**
 * Builds the named-function API over a transport; the same code runs over IPC and over HTTP. With
 * the list of calls (the preload: contextBridge copies plain objects only) every function exists
 * up front; without it (the web renderer, which need not load the contract's schemas) each is
 * made on first use, and a name the contract lacks is refused by the main side (UNKNOWN_CALL).
 */
export function createBridgeApi(transport: BridgeTransport, calls?: readonly BridgeCall[]): BridgeApi {
  const listeners = new Map<BridgeEvent, Set<(payload: never) => void>>();
  let unsubscribe: (() => void) | undefined;
  const caller =
    (call: BridgeCall) =>
    async (input: unknown): Promise<unknown> => {
      const result = await transport.invoke(call, input ?? {});
      if (!result.ok) throw new BridgeFailure(result.error);
      return result.value;
    };
  const on = <E extends BridgeEvent>(event: E, listener: (payload: BridgeEvents[E]) => void) => {
    let set = listeners.get(event);
    if (!set) listeners.set(event, (set = new Set()));
    set.add(listener as (payload: never) => void);
    unsubscribe ??= transport.subscribe((name, payload) => {
      for (const l of listeners.get(name) ?? []) (l as (p: unknown) => void)(payload);
    });
    return () => {
      set.delete(listener as (payload: never) => void);
    };
  };
  if (calls) {
    const api: Record<string, Record<string, (input: unknown) => Promise<unknown>>> = {};
    for (const call of calls) {
      const [domain, action] = call.split(':') as [string, string];
      api[domain] ??= {};
      api[domain][action] = caller(call);
    }
    return Object.assign(api, { on }) as unknown as BridgeApi;
  }
  const domains = new Map<string, Record<string, (input: unknown) => Promise<unknown>>>();
  const domainOf = (domain: string) =>
    new Proxy({} as Record<string, (input: unknown) => Promise<unknown>>, {
      get: (made, action) => {
        if (typeof action !== 'string') return undefined;
        return (made[action] ??= caller(`${domain}:${action}` as BridgeCall));
      },
    });
  return new Proxy({ on } as Record<string, unknown>, {
    get: (target, domain) => {
      if (typeof domain !== 'string' || domain in target) return target[domain as string];
      let made = domains.get(domain);
      if (!made) domains.set(domain, (made = domainOf(domain)));
      return made;
    },
  }) as unknown as BridgeApi;
}
