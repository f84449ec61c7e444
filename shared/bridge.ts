// The bridge: the one contract between the renderer and the core (DESIGN.md §1, STYLE.md "one
// contract file"). Every call is `domain:action` with a zod schema for its input, checked on the
// main side because the renderer is untrusted; outputs are typed here. Electron IPC and the web
// host's HTTP + SSE carry exactly these calls and events, and nothing else.
import { z } from 'zod';
import type {
  AgentList,
  ChatReply,
  ConversationList,
  HealthReport,
  ThreadCreated,
  ThreadList,
  ThreadMessageReply,
  UsageReport,
} from './api';
import {
  HEALTH_RANGES,
  MAX_HEALTH_INTERVAL_MS,
  MIN_HEALTH_INTERVAL_MS,
  type HealthIncident,
  type HealthMonitorState,
  type HealthRange,
  type HealthTimeline,
  type HealthUpdate,
} from './health';
import type { RequestLogEntry } from './request-log-entry';
import type { Transcript, TranscriptSummary } from './transcript';

const id = z.string().min(1).max(200);
const text = (max: number) => z.string().max(max);
const none = z.strictObject({});
const chatInput = z.strictObject({
  // The service's 100 KB limit is checked by the core and the service; this bound only stops abuse.
  message: z.string().max(1_000_000),
  agent: text(200).optional(),
  session_id: text(200).optional(),
  /** This client began the session (a new one, not a pasted id): its transcript is known from the start. */
  startedHere: z.boolean().optional(),
});
const transcriptRef = z.strictObject({ kind: z.enum(['session', 'thread']), id });
const componentState = z.enum(['operational', 'degraded', 'down']);
const rateTier = z.union([z.literal(30), z.literal(60), z.literal(120), z.literal(300)]);
const plan = z.enum(['free', 'pro', 'ultra']);

export const BRIDGE_CALLS = {
  'app:info': none,
  /** Text for "Copy diagnostics": versions, platform, settings (no secrets), the last log lines. */
  'app:diagnostics': none,
  'keys:list': none,
  'keys:add': z.strictObject({ name: text(200), secret: text(500), sessionOnly: z.boolean().optional() }),
  'keys:remove': z.strictObject({ id }),
  'profiles:list': none,
  'profiles:add': z.strictObject({
    name: text(200),
    baseUrl: text(2000),
    keyId: id,
    /** PEM text of a CA certificate to trust (pasted or read from a file by the renderer). */
    caCertPem: text(1_000_000).optional(),
  }),
  'profiles:remove': z.strictObject({ id }),
  'profiles:use': z.strictObject({ id }),
  /** Calls GET /health with the profile and reports what happened. */
  'profiles:test': z.strictObject({ id }),
  'rate:state': none,
  'log:list': none,
  'log:clear': none,
  'log:export': z.strictObject({ format: z.enum(['json', 'har']) }),
  'log:curl': z.strictObject({ id }),
  'agents:list': z.strictObject({ limit: z.number().int().optional(), offset: z.number().int().optional() }),
  'conversations:list': z.strictObject({
    agent: text(200).optional(),
    limit: z.number().int().optional(),
    offset: z.number().int().optional(),
  }),
  'threads:list': none,
  'threads:create': z.strictObject({
    message: z.string().max(1_000_000),
    title: text(500).optional(),
    agent: text(200).optional(),
  }),
  'threads:send': z.strictObject({ threadId: id, message: z.string().max(1_000_000) }),
  'usage:get': z.strictObject({ days: z.number().int().optional() }),
  'health:get': none,
  /** The health monitor (electron/core/health-monitor.ts): its state, a check now, its history. */
  'health:status': none,
  'health:check': none,
  'health:timeline': z.strictObject({
    range: z.enum(Object.keys(HEALTH_RANGES) as [HealthRange, ...HealthRange[]]),
  }),
  'health:incidents': z.strictObject({
    from: z.number().int().nonnegative(),
    to: z.number().int().nonnegative(),
  }),
  'health:configure': z.strictObject({
    intervalMs: z.number().int().min(MIN_HEALTH_INTERVAL_MS).max(MAX_HEALTH_INTERVAL_MS),
  }),
  'chat:send': chatInput,
  /**
   * Starts a streamed chat named by the renderer (so it listens before the first chunk); its chunks
   * and its end arrive as `chat:chunk` and `chat:end` events.
   */
  'chat:stream': chatInput.extend({ streamId: z.uuid() }),
  'chat:cancel': z.strictObject({ streamId: id }),
  /** A chat request as a runnable `curl` command for the active profile (key as $AGENT_API_KEY). */
  'chat:curl': chatInput.omit({ startedHere: true }).extend({ stream: z.boolean() }),
  /** What this client has recorded for the active profile (the API keeps no history: DESIGN.md §2). */
  'transcripts:list': z.strictObject({ kind: z.enum(['session', 'thread']).optional() }),
  'transcripts:get': transcriptRef,
  'transcripts:remove': transcriptRef,
  // The embedded mock's control room (issue 9): the dashboard's actions and the faults no real
  // service lets you summon. Only for the in-process mock of the Embedded mock profile.
  'mock:state': none,
  'mock:agent': z.strictObject({
    slug: id,
    status: z.enum(['deployed', 'stopped', 'error']).optional(),
    latencyMs: z.number().int().min(0).max(600_000).optional(),
    chunkDelayMs: z.number().int().min(0).max(60_000).optional(),
    chunkCount: z.number().int().min(1).max(100_000).optional(),
  }),
  'mock:health': z.strictObject({
    api: componentState.optional(),
    vps: componentState.optional(),
    agents: componentState.optional(),
    gateway: componentState.optional(),
  }),
  /** Creates a key at the mock and adds it to Keys (a session key): its secret never reaches the page. */
  'mock:keyCreate': z.strictObject({ name: text(100), tier: rateTier, plan: plan.optional() }),
  'mock:keyUpdate': z.strictObject({ id, tier: rateTier.optional(), plan: plan.optional() }),
  'mock:keyRevoke': z.strictObject({ id }),
  'mock:errorShape': z.strictObject({ shape: z.enum(['nested', 'flat', 'flat-429']) }),
  'mock:chaos': z.strictObject({ preset: text(50), on: z.boolean() }),
  'mock:reset': none,
  'mock:requests': none,
  'mock:fixtures': none,
  /** Saves a streamed reply (its frames, from `chat:end`) as a fixture in the data folder. */
  'mock:fixtureSave': z.strictObject({
    name: text(200),
    agent: text(200),
    frames: z
      .array(z.strictObject({ atMs: z.number(), data: z.string(), comment: z.boolean().optional() }))
      .max(250_000),
  }),
  'mock:fixtureAssign': z.strictObject({
    slug: id,
    fixtureId: id,
    mode: z.enum(['original', 'scaled', 'fast']),
    scale: z.number().positive().max(100).optional(),
  }),
  'mock:fixtureClear': z.strictObject({ slug: id }),
  'mock:fixtureImport': z.strictObject({ text: z.string().max(64 * 1024 * 1024) }),
  'mock:fixtureExport': z.strictObject({ id }),
  'mock:fixtureRemove': z.strictObject({ id }),
} as const;

export type BridgeCall = keyof typeof BRIDGE_CALLS;
export type BridgeInput<K extends BridgeCall> = z.input<(typeof BRIDGE_CALLS)[K]>;

export interface AppInfo {
  version: string;
  transport: 'electron' | 'web';
  platform: string;
  dataDir: string;
  keychain: { available: boolean; reason?: string };
}

export interface KeyInfo {
  id: string;
  name: string;
  /** `…abcd`: the only part of a secret that ever crosses the bridge. */
  last4: string;
  createdAt: string;
  tier?: number;
  storage: 'os-keychain' | 'session';
}

export interface ProfileInfo {
  id: string;
  name: string;
  baseUrl: string;
  keyId: string;
  caCertPath?: string;
  builtIn: boolean;
  active: boolean;
}

export interface RateState {
  keyId: string;
  limit: number;
  remaining: number;
  /** Epoch ms. */
  resetAt?: number;
  queued: number;
  pausedUntil?: number;
  last429At?: number;
}

export interface ConnectionTest {
  ok: boolean;
  durationMs: number;
  health?: HealthReport;
  error?: BridgeError;
}

export interface StreamStarted {
  streamId: string;
  requestId?: string;
  headersMs?: number;
}

export interface BridgeOutputs {
  'app:info': AppInfo;
  'app:diagnostics': { text: string };
  'keys:list': KeyInfo[];
  'keys:add': KeyInfo;
  'keys:remove': { removed: string };
  'profiles:list': ProfileInfo[];
  'profiles:add': ProfileInfo;
  'profiles:remove': { removed: string };
  'profiles:use': ProfileInfo;
  'profiles:test': ConnectionTest;
  'rate:state': RateState | null;
  'log:list': RequestLogEntry[];
  'log:clear': { cleared: true };
  'log:export': { fileName: string; text: string };
  'log:curl': { command: string };
  'agents:list': AgentList;
  'conversations:list': ConversationList;
  'threads:list': ThreadList;
  'threads:create': ThreadCreated;
  'threads:send': ThreadMessageReply;
  'usage:get': UsageReport;
  'health:get': HealthReport;
  'health:status': HealthMonitorState;
  'health:check': HealthUpdate;
  'health:timeline': HealthTimeline;
  'health:incidents': HealthIncident[];
  'health:configure': HealthMonitorState;
  'chat:send': ChatReply;
  'chat:stream': StreamStarted;
  'chat:cancel': { cancelled: boolean };
  'chat:curl': { command: string };
  'transcripts:list': { summaries: TranscriptSummary[]; unreadable: { file: string; message: string }[] };
  'transcripts:get': Transcript | null;
  'transcripts:remove': { removed: boolean };
  'mock:state': MockStateView | null;
  'mock:agent': MockStateView;
  'mock:health': MockStateView;
  'mock:keyCreate': KeyInfo;
  'mock:keyUpdate': MockStateView;
  'mock:keyRevoke': MockStateView;
  'mock:errorShape': MockStateView;
  'mock:chaos': MockStateView;
  'mock:reset': MockStateView;
  'mock:requests': MockRequest[];
  'mock:fixtures': FixtureInfo[];
  'mock:fixtureSave': FixtureInfo;
  'mock:fixtureAssign': MockStateView;
  'mock:fixtureClear': MockStateView;
  'mock:fixtureImport': FixtureInfo;
  'mock:fixtureExport': { fileName: string; text: string };
  'mock:fixtureRemove': { removed: boolean };
}

export interface MockStateView {
  agents: {
    slug: string;
    name: string;
    status: 'deployed' | 'stopped' | 'error';
    latencyMs: number;
    chunkDelayMs: number;
    chunkCount: number;
    replay?: { name: string; mode: string; scale: number; chunks: number };
  }[];
  keys: { id: string; name: string; masked: string; tier: number; plan: string; revoked: boolean }[];
  health: HealthReport;
  errorShape: 'nested' | 'flat' | 'flat-429';
  chaos: { preset: string; description: string; since: string }[];
  /** Every preset with what it does. */
  presets: Record<string, string>;
}

export interface MockRequest {
  at: number;
  method: string;
  path: string;
  status: number;
  durationMs: number;
  requestId: string;
  key: string;
}

export interface FixtureInfo {
  id: string;
  name: string;
  agent: string;
  recordedAt: string;
  chunkCount: number;
  durationMs: number;
}

/** What the renderer sees of any failure: words and codes, never a stack trace. */
export interface BridgeError {
  code: string;
  message: string;
  status?: number;
  requestId?: string;
  retryAfterS?: number;
  partial?: string;
}

export type BridgeResult<T> = { ok: true; value: T } | { ok: false; error: BridgeError };

export interface StreamChunkEvent {
  streamId: string;
  /** Chunks that arrived since the last event (the core batches them). */
  chunks: { index: number; content: string; atMs: number; gapMs: number }[];
}

export interface StreamEndEvent {
  streamId: string;
  status: 'done' | 'failed' | 'cancelled';
  text: string;
  chunkCount: number;
  timing: { headersMs?: number; firstChunkMs?: number; totalMs?: number };
  frames: { atMs: number; data: string; comment?: boolean }[];
  requestId?: string;
  error?: BridgeError;
}

export interface BridgeEvents {
  'rate:update': RateState;
  'log:added': RequestLogEntry;
  'log:cleared': Record<string, never>;
  'keys:changed': KeyInfo[];
  'profiles:changed': ProfileInfo[];
  'chat:chunk': StreamChunkEvent;
  'chat:end': StreamEndEvent;
  'health:update': HealthUpdate;
  'mock:changed': MockStateView;
}

export type BridgeEvent = keyof BridgeEvents;
export const BRIDGE_EVENTS: readonly BridgeEvent[] = [
  'rate:update',
  'log:added',
  'log:cleared',
  'keys:changed',
  'profiles:changed',
  'chat:chunk',
  'chat:end',
  'health:update',
  'mock:changed',
];

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

/** Builds the named-function API over a transport; the same code runs over IPC and over HTTP. */
export function createBridgeApi(transport: BridgeTransport): BridgeApi {
  const listeners = new Map<BridgeEvent, Set<(payload: never) => void>>();
  let unsubscribe: (() => void) | undefined;
  const api: Record<string, Record<string, (input: unknown) => Promise<unknown>>> = {};
  for (const call of Object.keys(BRIDGE_CALLS) as BridgeCall[]) {
    const [domain, action] = call.split(':') as [string, string];
    api[domain] ??= {};
    api[domain][action] = async (input: unknown) => {
      const result = await transport.invoke(call, input ?? {});
      if (!result.ok) throw new BridgeFailure(result.error);
      return result.value;
    };
  }
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
  return Object.assign(api, { on }) as unknown as BridgeApi;
}
