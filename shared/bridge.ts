// The bridge: the one contract between the renderer and the core (DESIGN.md §1, STYLE.md "one
// contract file"). Every call is `domain:action` with a zod schema for its input, checked on the
// main side because the renderer is untrusted; outputs are typed here. Electron IPC and the web
// host's HTTP + SSE carry exactly these calls and events, and nothing else.
import { z } from 'zod';
import type {
  ReceivedAgentList as AgentList,
  ReceivedChatReply as ChatReply,
  ReceivedConversationList as ConversationList,
  ReceivedHealthReport as HealthReport,
  ReceivedThreadCreated as ThreadCreated,
  ReceivedThreadList as ThreadList,
  ReceivedThreadMessageReply as ThreadMessageReply,
  ReceivedUsageReport as UsageReport,
} from './received';
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
import type { MonitorNotification, MonitorView, TestNotificationResult } from './monitor';
import type { RequestLogEntry } from './request-log-entry';
import type { FolderListing, RunComparison, StoredSuiteRun, SuiteRunSummary } from './suite-folder';
import type { CellResult, RunPlan, SuiteRunResult } from './suite-run';
import type { Transcript, TranscriptSummary } from './transcript';

/**
 * A call's output type, written beside its input schema. Type-only: the value is never read (the
 * main side builds outputs, and the renderer trusts its own process's core for their shape).
 */
const returns = <T>(): T => undefined as T;

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
  /** The profile to send with (the one the session belongs to); the active one when left out. */
  profileId: id.optional(),
});
const transcriptRef = z.strictObject({ kind: z.enum(['session', 'thread']), id });
const componentState = z.enum(['operational', 'degraded', 'down']);
const rateTier = z.union([z.literal(30), z.literal(60), z.literal(120), z.literal(300)]);
const plan = z.enum(['free', 'pro', 'ultra']);
const monitorInput = z.strictObject({
  name: text(100),
  profileId: id,
  healthEveryS: z
    .number()
    .int()
    .min(MIN_HEALTH_INTERVAL_MS / 1000)
    .max(MAX_HEALTH_INTERVAL_MS / 1000)
    .optional(),
  synthetic: z
    .strictObject({
      everyMinutes: z.number().int().min(1).max(1440),
      agents: z.array(text(200)).max(20),
      /** One message and its assertions (YAML list, as in a suite file)… */
      message: text(100_000).optional(),
      stream: z.boolean().optional(),
      assertYaml: text(20_000).optional(),
      /** …or a suite file and some of its cases. */
      suite: text(4096).optional(),
      cases: z.array(text(500)).max(100).optional(),
    })
    .optional(),
  desktop: z.boolean().optional(),
  muted: z.boolean().optional(),
  webhooks: z
    .array(z.strictObject({ url: text(2000), format: z.enum(['json', 'slack']) }))
    .max(10)
    .optional(),
});

export const BRIDGE_CALLS = {
  'app:info': {
    input: none,
    output: returns<AppInfo>(),
  },
  /** Text for "Copy diagnostics": versions, platform, settings (no secrets), the last log lines. */
  'app:diagnostics': {
    input: none,
    output: returns<{ text: string }>(),
  },
  'keys:list': {
    input: none,
    output: returns<KeyInfo[]>(),
  },
  'keys:add': {
    input: z.strictObject({
      name: text(200),
      secret: text(500),
      /**
       * The server the key is for (a base URL): the only one it may be sent to until the user, in
       * the Profiles screen, types the key again for another. Required: a key added here is never
       * left for the first profile to bind, which anyone holding the web host's token could add.
       */
      baseUrl: text(2000),
      sessionOnly: z.boolean().optional(),
    }),
    output: returns<KeyInfo>(),
  },
  'keys:remove': {
    input: z.strictObject({ id }),
    output: returns<{ removed: string }>(),
  },
  'profiles:list': {
    input: none,
    output: returns<ProfileInfo[]>(),
  },
  'profiles:add': {
    input: z.strictObject({
      name: text(200),
      baseUrl: text(2000),
      keyId: id,
      /** PEM text of a CA certificate to trust (pasted or read from a file by the renderer). */
      caCertPem: text(1_000_000).optional(),
      /**
       * The key typed again: the user's confirmation that it may go to this origin, new to it or
       * the first it has. Only the user has it; the web host's token alone cannot confirm.
       */
      confirmKey: text(200).optional(),
    }),
    output: returns<ProfileInfo>(),
  },
  'profiles:remove': {
    input: z.strictObject({ id }),
    output: returns<{ removed: string }>(),
  },
  'profiles:use': {
    input: z.strictObject({ id }),
    output: returns<ProfileInfo>(),
  },
  /** Calls GET /health with the profile and reports what happened. */
  'profiles:test': {
    input: z.strictObject({ id }),
    output: returns<ConnectionTest>(),
  },
  'rate:state': {
    input: none,
    output: returns<RateState | null>(),
  },
  'log:list': {
    input: none,
    output: returns<RequestLogEntry[]>(),
  },
  'log:clear': {
    input: none,
    output: returns<{ cleared: true }>(),
  },
  'log:export': {
    input: z.strictObject({ format: z.enum(['json', 'har']) }),
    output: returns<{ fileName: string; text: string }>(),
  },
  /** One entry whole: the live list (log:added) carries no bodies, to keep the renderer small. */
  'log:get': {
    input: z.strictObject({ id }),
    output: returns<RequestLogEntry>(),
  },
  'log:curl': {
    input: z.strictObject({ id }),
    output: returns<{ command: string }>(),
  },
  'agents:list': {
    input: z.strictObject({ limit: z.number().int().optional(), offset: z.number().int().optional() }),
    output: returns<AgentList>(),
  },
  'conversations:list': {
    input: z.strictObject({
      agent: text(200).optional(),
      limit: z.number().int().optional(),
      offset: z.number().int().optional(),
    }),
    output: returns<ConversationList>(),
  },
  'threads:list': {
    input: none,
    output: returns<ThreadList>(),
  },
  'threads:create': {
    input: z.strictObject({
      message: z.string().max(1_000_000),
      title: text(500).optional(),
      agent: text(200).optional(),
    }),
    output: returns<ThreadCreated>(),
  },
  'threads:send': {
    input: z.strictObject({
      threadId: id,
      message: z.string().max(1_000_000),
      /** The thread's agent as the list shows it, so the record names it (issue 14, item 7). */
      agent: text(200).optional(),
    }),
    output: returns<ThreadMessageReply>(),
  },
  'usage:get': {
    input: z.strictObject({ days: z.number().int().optional() }),
    output: returns<UsageReport>(),
  },
  'health:get': {
    input: none,
    output: returns<HealthReport>(),
  },
  /** The health monitor (electron/core/health-monitor.ts): its state, a check now, its history. */
  // Each health call is about the monitor named (drill-down from the Overview), else about the
  // monitor of the active profile.
  'health:status': {
    input: z.strictObject({ monitorId: id.optional() }),
    output: returns<HealthMonitorState>(),
  },
  'health:check': {
    input: z.strictObject({ monitorId: id.optional() }),
    output: returns<HealthUpdate>(),
  },
  'health:timeline': {
    input: z.strictObject({
      range: z.enum(Object.keys(HEALTH_RANGES) as [HealthRange, ...HealthRange[]]),
      monitorId: id.optional(),
    }),
    output: returns<HealthTimeline>(),
  },
  'health:incidents': {
    input: z.strictObject({
      from: z.number().int().nonnegative(),
      to: z.number().int().nonnegative(),
      monitorId: id.optional(),
    }),
    output: returns<HealthIncident[]>(),
  },
  'health:configure': {
    input: z.strictObject({
      intervalMs: z.number().int().min(MIN_HEALTH_INTERVAL_MS).max(MAX_HEALTH_INTERVAL_MS),
    }),
    output: returns<HealthMonitorState>(),
  },
  /** Every monitor (issue 17): the saved ones and the active profile's own poll, as the Overview shows them. */
  'monitors:list': {
    input: none,
    output: returns<MonitorView[]>(),
  },
  'monitors:add': {
    input: monitorInput,
    output: returns<MonitorView>(),
  },
  /** `keepWebhooks`: the ids of the webhooks to keep; new ones come in `webhooks` with their URLs. */
  'monitors:update': {
    input: monitorInput.extend({ id, keepWebhooks: z.array(id).max(20).default([]) }),
    output: returns<MonitorView>(),
  },
  'monitors:remove': {
    input: z.strictObject({ id }),
    output: returns<{ removed: string }>(),
  },
  /** Checks now: the health poll, and the synthetic check when the monitor has one. */
  'monitors:check': {
    input: z.strictObject({ id }),
    output: returns<MonitorView>(),
  },
  /** Desktop and browser notifications muted (or not) in the app, for every monitor (issue 14). */
  'monitors:muted': {
    input: none,
    output: returns<{ muted: boolean }>(),
  },
  'monitors:mute': {
    input: z.strictObject({ muted: z.boolean() }),
    output: returns<{ muted: boolean }>(),
  },
  'monitors:testNotify': {
    input: z.strictObject({ id }),
    output: returns<TestNotificationResult>(),
  },
  'chat:send': {
    input: chatInput,
    output: returns<ChatReply>(),
  },
  /**
   * Starts a streamed chat named by the renderer (so it listens before the first chunk); its chunks
   * and its end arrive as `chat:chunk` and `chat:end` events.
   */
  'chat:stream': {
    input: chatInput.extend({ streamId: z.uuid() }),
    output: returns<StreamStarted>(),
  },
  /**
   * The streams of a session still coming in the core, with their text so far: a reloaded (or
   * reopened) window shows them and follows their `chat:chunk` / `chat:end` events from there.
   */
  'chat:live': {
    input: z.strictObject({ session_id: text(200) }),
    output: returns<LiveStream[]>(),
  },
  'chat:cancel': {
    input: z.strictObject({ streamId: id }),
    output: returns<{ cancelled: boolean }>(),
  },
  /** The raw frames of a stream that ended in this run of the console (the last few are kept). */
  'chat:frames': {
    input: z.strictObject({ streamId: id }),
    output: returns<StreamFrames>(),
  },
  /** A chat request as a runnable `curl` command for the active profile (key as $AGENT_API_KEY). */
  'chat:curl': {
    input: chatInput.omit({ startedHere: true }).extend({ stream: z.boolean() }),
    output: returns<{ command: string }>(),
  },
  /** What this client has recorded for the active profile (the API keeps no history: DESIGN.md §2). */
  'transcripts:list': {
    input: z.strictObject({ kind: z.enum(['session', 'thread']).optional() }),
    output: returns<{ summaries: TranscriptSummary[]; unreadable: { file: string; message: string }[] }>(),
  },
  'transcripts:get': {
    input: transcriptRef,
    output: returns<Transcript | null>(),
  },
  'transcripts:remove': {
    input: transcriptRef,
    output: returns<{ removed: boolean }>(),
  },
  // The embedded mock's control room (issue 9): the dashboard's actions and the faults no real
  // service lets you summon. Only for the in-process mock of the Embedded mock profile.
  'mock:state': {
    input: none,
    output: returns<MockStateView | null>(),
  },
  'mock:agent': {
    input: z.strictObject({
      slug: id,
      status: z.enum(['deployed', 'stopped', 'error']).optional(),
      latencyMs: z.number().int().min(0).max(600_000).optional(),
      chunkDelayMs: z.number().int().min(0).max(60_000).optional(),
      chunkCount: z.number().int().min(1).max(100_000).optional(),
    }),
    output: returns<MockStateView>(),
  },
  'mock:health': {
    input: z.strictObject({
      api: componentState.optional(),
      vps: componentState.optional(),
      agents: componentState.optional(),
      gateway: componentState.optional(),
    }),
    output: returns<MockStateView>(),
  },
  /** Creates a key at the mock and adds it to Keys (a session key): its secret never reaches the page. */
  'mock:keyCreate': {
    input: z.strictObject({ name: text(100), tier: rateTier, plan: plan.optional() }),
    output: returns<KeyInfo>(),
  },
  'mock:keyUpdate': {
    input: z.strictObject({ id, tier: rateTier.optional(), plan: plan.optional() }),
    output: returns<MockStateView>(),
  },
  'mock:keyRevoke': {
    input: z.strictObject({ id }),
    output: returns<MockStateView>(),
  },
  'mock:errorShape': {
    input: z.strictObject({ shape: z.enum(['nested', 'flat', 'flat-429']) }),
    output: returns<MockStateView>(),
  },
  'mock:chaos': {
    input: z.strictObject({ preset: text(50), on: z.boolean() }),
    output: returns<MockStateView>(),
  },
  'mock:reset': {
    input: none,
    output: returns<MockStateView>(),
  },
  'mock:requests': {
    input: none,
    output: returns<MockRequest[]>(),
  },
  'mock:fixtures': {
    input: none,
    output: returns<FixtureInfo[]>(),
  },
  /** Saves a streamed reply (its frames, from `chat:end`) as a fixture in the data folder. */
  'mock:fixtureSave': {
    input: z.strictObject({
      name: text(200),
      agent: text(200),
      frames: z
        .array(z.strictObject({ atMs: z.number(), data: z.string(), comment: z.boolean().optional() }))
        .max(250_000),
    }),
    output: returns<FixtureInfo>(),
  },
  'mock:fixtureAssign': {
    input: z.strictObject({
      slug: id,
      fixtureId: id,
      mode: z.enum(['original', 'scaled', 'fast']),
      scale: z.number().positive().max(100).optional(),
    }),
    output: returns<MockStateView>(),
  },
  'mock:fixtureClear': {
    input: z.strictObject({ slug: id }),
    output: returns<MockStateView>(),
  },
  'mock:fixtureImport': {
    input: z.strictObject({ text: z.string().max(64 * 1024 * 1024) }),
    output: returns<FixtureInfo>(),
  },
  'mock:fixtureExport': {
    input: z.strictObject({ id }),
    output: returns<{ fileName: string; text: string }>(),
  },
  'mock:fixtureRemove': {
    input: z.strictObject({ id }),
    output: returns<{ removed: boolean }>(),
  },
  /**
   * Opens a folder of suite files (issue 16): `path` as typed (the web host has no native dialog),
   * or, without it, the desktop's folder chooser. Null when the chooser was cancelled. Edits on
   * disk arrive as `suites:changed`.
   */
  'suites:open': {
    input: z.strictObject({ path: text(4096).optional() }),
    output: returns<FolderListing | null>(),
  },
  /** The open folder's suites again (null when none is open). */
  'suites:list': {
    input: none,
    output: returns<FolderListing | null>(),
  },
  /** Starts a run of every suite, one suite (`file`) or one case (`file` + `caseKey`); progress as `suites:progress`. */
  'suites:run': {
    input: z.strictObject({
      file: text(500).optional(),
      caseKey: text(100).optional(),
      concurrency: z.number().int().min(1).max(64).optional(),
    }),
    output: returns<{ runId: string }>(),
  },
  'suites:cancel': {
    input: z.strictObject({ runId: id }),
    output: returns<{ cancelled: boolean }>(),
  },
  /** A suite's kept runs, newest first. */
  'suites:runs': {
    input: z.strictObject({ file: text(500) }),
    output: returns<SuiteRunSummary[]>(),
  },
  'suites:runGet': {
    input: z.strictObject({ file: text(500), runId: id }),
    output: returns<StoredSuiteRun | null>(),
  },
  /** A kept run against the previous run of the same suite (null when there is none). */
  'suites:compare': {
    input: z.strictObject({
      file: text(500),
      runId: id,
      slowerPercent: z.number().min(1).max(10_000).optional(),
    }),
    output: returns<RunComparison | null>(),
  },
  /** "Save as test case": appends a case suggested from a reply to a suite file of the open folder. */
  'suites:saveCase': {
    input: z.strictObject({
      file: text(500),
      message: text(1_000_000),
      agent: text(200).optional(),
      reply: text(10_000_000),
      stream: z.boolean(),
      ttftMs: z.number().min(0).optional(),
      name: text(200).optional(),
    }),
    output: returns<{ file: string; caseName: string }>(),
  },
} as const;

export type BridgeCall = keyof typeof BRIDGE_CALLS;
/** What the renderer passes to a call (before the main side's schema applies defaults). */
export type BridgeInput<K extends BridgeCall> = z.input<(typeof BRIDGE_CALLS)[K]['input']>;
/** What a handler receives: the input after validation. */
export type BridgeParsedInput<K extends BridgeCall> = z.output<(typeof BRIDGE_CALLS)[K]['input']>;
export type BridgeOutputs = { [K in BridgeCall]: (typeof BRIDGE_CALLS)[K]['output'] };

export interface AppInfo {
  version: string;
  transport: 'electron' | 'web';
  platform: string;
  dataDir: string;
  /** Where keys can be saved; `checking` while the keychain's probe is still under way. */
  keychain: { available: boolean; reason?: string; checking?: boolean };
  /** What went wrong while the console opened (a settings file set aside...), in words; masked. */
  warnings: string[];
}

export interface KeyInfo {
  id: string;
  name: string;
  /** `…abcd`: the only part of a secret that ever crosses the bridge. */
  last4: string;
  createdAt: string;
  tier?: number;
  storage: 'os-keychain' | 'session';
  /**
   * The servers (origins) the key may be sent to; another needs the user's confirmation. None: a
   * key added at the command line, not yet sent anywhere; its first server needs it too.
   */
  origins?: string[];
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

/** A streamed reply still coming in the core (issue 14.4). */
export interface LiveStream {
  streamId: string;
  message: string;
  agent?: string;
  /** The chunks so far (indexes from 0); later `chat:chunk` events carry the rest. */
  chunks: StreamChunkEvent['chunks'];
  timing: StreamEndEvent['timing'];
  requestId?: string;
}

export interface StreamChunkEvent {
  streamId: string;
  /** Chunks that arrived since the last event (the core batches them). */
  chunks: { index: number; content: string; atMs: number; gapMs: number }[];
}

/**
 * Up to this many raw frames travel with `chat:end`; a longer stream's are read with `chat:frames`
 * when the inspector or "Save as fixture" needs them: 20,000 frames in the end event made one
 * main-thread task of about 100 ms in the page that received it (issue 14).
 */
export const INLINE_FRAMES = 2_000;
/** Up to this many characters of the reply travel with `chat:end`; the page has them all as chunks. */
export const INLINE_TEXT = 64 * 1024;

export type StreamFrames = { atMs: number; data: string; comment?: boolean }[];

export interface StreamEndEvent {
  streamId: string;
  status: 'done' | 'failed' | 'cancelled';
  /** The whole reply when it is at most INLINE_TEXT characters long (its chunks always came before). */
  text?: string;
  textLength: number;
  chunkCount: number;
  timing: { headersMs?: number; firstChunkMs?: number; totalMs?: number };
  /** The raw frames when there are at most INLINE_FRAMES of them; otherwise `chat:frames` has them. */
  frames?: StreamFrames;
  frameCount: number;
  /** The stream's closing `[DONE]` arrived. */
  sawDone: boolean;
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
  /** After every check of any monitor; `monitorId` absent for the active profile's own poll. */
  'health:update': HealthUpdate & { monitorId?: string };
  /** The Overview's rows, after any monitor checked or changed (at most a few times a second). */
  'monitors:changed': MonitorView[];
  /** A confirmed change (or a test) to tell the person: the desktop app and the browser show it. */
  'monitors:notify': MonitorNotification;
  'mock:changed': MockStateView;
  /** The open folder's suites after a file was added, edited or removed on disk. */
  'suites:changed': FolderListing;
  'suites:progress': SuitesProgress;
}

/** A suite run as the Tests screen follows it: the plan, attempts, cells, the end with comparisons. */
export type SuitesProgress =
  | { type: 'run-started'; plan: RunPlan }
  | { type: 'attempt-started'; runId: string; cellId: string }
  | { type: 'attempt-finished'; runId: string; cellId: string; done: number; total: number }
  | { type: 'cell-finished'; runId: string; cell: CellResult }
  | {
      type: 'run-finished';
      result: Omit<SuiteRunResult, 'suites'>;
      /** Per suite file: the comparison with its previous run (null when there is none). */
      comparisons: Record<string, RunComparison | null>;
    };

export type BridgeEvent = keyof BridgeEvents;
