// The mock's behaviour, apart from HTTP: who may call, what the window allows, what agents answer,
// and what is recorded. The HTTP routes (routes-api.ts) and the control path (control.ts) use it.
import type { Clock } from '../shared/clock';
import { describeWriteError } from '../shared/write-error';
import {
  CHAT_TIMEOUT_MS,
  DEFAULT_RATE_TIER,
  type Conversation,
  type HealthReport,
  type Thread,
  type UsageReport,
} from '../shared/api';
import { Chaos } from './chaos';
import { replayLatency } from './replay';
import { ApiFailure, type ErrorShape } from './errors';
import { estimateTokens } from './agent-replies';
import { alphanumeric, newId } from './ids';
import { RateWindow, type RateDecision } from './rate-window';
import { createSeedState, withTestHelpers, type DemoKeyName } from './seed';
import {
  StateWriter,
  loadState,
  type AgentRecord,
  type ConversationRecord,
  type KeyRecord,
  type Message,
  type MockState,
} from './state';
import { isoDate } from './time';

const DAY_MS = 86_400_000;
/** A conversation with a message in the last 30 minutes is `active`; older ones `completed`. */
const ACTIVE_MS = 30 * 60_000;

export interface Faults {
  /** Added before every API request is handled. */
  latencyMs: number;
  /** The next `count` API requests (matching `pathPrefix`, if set) fail with `status`. */
  failNext: { status: number; count: number; pathPrefix?: string } | undefined;
  /** The next `count` streams stop after `afterChunks` chunks: dropped, or with a stream_error. */
  breakStreams: { afterChunks: number; mode: 'drop' | 'stream_error'; count: number } | undefined;
  /** The next `count` successful API replies (matching `pathPrefix`) arrive garbled: a body that is not
   * JSON, or the right body under the wrong content type. */
  malformedNext: { kind: 'bad-json' | 'wrong-content-type'; count: number; pathPrefix?: string } | undefined;
  errorShape: ErrorShape;
  /** Off only for benchmarks of the request path; headers are still computed. */
  enforceRateLimits: boolean;
}

export const defaultFaults = (): Faults => ({
  latencyMs: 0,
  failNext: undefined,
  breakStreams: undefined,
  malformedNext: undefined,
  errorShape: 'nested',
  enforceRateLimits: true,
});

export interface ServiceOptions {
  dataDir: string;
  clock: Clock;
  /** Server-side chat timeout (spec §8: 60 s). Lower it in tests that use the system clock. */
  chatTimeoutMs?: number;
  version?: string;
  /** A corrupt state file set aside, a write that failed or landed again: words for the user. */
  onWarning?: (message: string) => void;
}

export class MockService {
  state: MockState;
  readonly window = new RateWindow();
  faults: Faults = defaultFaults();
  /** Chaos presets: in memory only, so neither a reset nor a restart keeps them. */
  readonly chaos = new Chaos();
  readonly clock: Clock;
  /** Writable so a fault test can shorten it on a running mock. */
  chatTimeoutMs: number;
  /** Changed only by MockControl.setVersion (a deploy). */
  version: string;
  private startedAt: number;
  private readonly writer: StateWriter;

  constructor(options: ServiceOptions) {
    this.clock = options.clock;
    this.chatTimeoutMs = options.chatTimeoutMs ?? CHAT_TIMEOUT_MS;
    this.version = options.version ?? '1.0.0-mock';
    this.startedAt = this.clock.now();
    const loaded = loadState(options.dataDir, options.onWarning);
    this.state = loaded ? withTestHelpers(loaded, this.clock.now()) : createSeedState(this.clock.now());
    this.writer = new StateWriter(options.dataDir, () => this.state, undefined, options.onWarning);
    if (!loaded) this.changed();
  }

  /**
   * Counts changes of the state, so a read endpoint can keep its serialised body until the next
   * one. Every change goes through `changed()` (it is also what makes the change durable).
   */
  stateVersion = 0;

  changed(): void {
    this.stateVersion++;
    this.writer.schedule();
  }

  flush(): Promise<void> {
    return this.writer.flush();
  }

  /**
   * Writes what is pending now. A change made through the control path or the Mock screen is on
   * disk before it is acknowledged, so a kill -9 right after loses none of it; chat exchanges are
   * saved in the background (StateWriter spaces those writes out as the state grows).
   */
  async save(): Promise<void> {
    try {
      await this.writer.flush();
    } catch (error) {
      throw new ApiFailure(
        500,
        'STATE_NOT_SAVED',
        `The change is made, but the mock's state could not be saved (${describeWriteError(error)}). ` +
          'It is kept in memory and saved as soon as the folder is writable.',
      );
    }
  }

  /** Back to a fresh seed (same demo secrets, so clients keep working) with no faults. */
  reset(): void {
    const secrets = Object.fromEntries(this.demoKeys().map((k) => [k.name, k.secret]));
    this.state = createSeedState(this.clock.now(), secrets);
    this.faults = defaultFaults();
    this.chaos.clear();
    this.window.clear();
    this.changed();
  }

  /** Pretends the service restarted: uptime starts again from zero. */
  restart(): void {
    this.startedAt = this.clock.now();
  }

  demoKeys(): KeyRecord[] {
    return this.state.keys.filter((k) => ['free', 'pro', 'ultra', 'revoked', 'tier30'].includes(k.id));
  }

  demoSecrets(): Record<DemoKeyName, string> {
    return Object.fromEntries(this.demoKeys().map((k) => [k.id, k.secret])) as Record<DemoKeyName, string>;
  }

  // ---- access -------------------------------------------------------------------------------

  /** Spec §5.4: a missing, malformed, unknown or revoked key is 401 INVALID_KEY. */
  authenticate(authorization: string | undefined): KeyRecord {
    if (!authorization) {
      throw new ApiFailure(
        401,
        'INVALID_KEY',
        'Missing Authorization header. Send "Authorization: Bearer <API_KEY>".',
      );
    }
    // RFC 7235: the scheme name is case-insensitive (`bearer` works too).
    const match = /^Bearer (\S+)$/i.exec(authorization);
    if (!match) {
      throw new ApiFailure(
        401,
        'INVALID_KEY',
        'Malformed Authorization header. Expected "Bearer <API_KEY>".',
      );
    }
    const secret = match[1] as string;
    if (secret.length !== 36 || !/^[A-Za-z0-9]{3}_[A-Za-z0-9]{32}$/.test(secret)) {
      throw new ApiFailure(
        401,
        'INVALID_KEY',
        'Malformed API key: expected 36 characters (prefix, "_", 32 letters or digits).',
      );
    }
    const key = this.state.keys.find((k) => k.secret === secret);
    if (!key) throw new ApiFailure(401, 'INVALID_KEY', 'Invalid API key.');
    if (key.revoked) throw new ApiFailure(401, 'INVALID_KEY', 'This API key has been revoked.');
    return key;
  }

  /** Spec §5.5: only an active Pro or Ultra plan may call. */
  checkPlan(key: KeyRecord): void {
    const plan = this.chaos.plan(this.state.accounts[key.account] ?? 'free');
    if (plan !== 'pro' && plan !== 'ultra') {
      throw new ApiFailure(403, 'PLAN_REQUIRED', 'This account has no active Pro or Ultra plan.');
    }
  }

  /** Counts the request in the key's window; 429 when it is full (spec §8). */
  admit(key: KeyRecord): RateDecision {
    const now = this.clock.now();
    const limit = this.chaos.tier(key.tier ?? DEFAULT_RATE_TIER);
    this.chaos.stormLoad(key.id, now, (at) => this.window.record(key.id, limit, at));
    const decision = this.window.take(key.id, limit, now);
    if (!decision.allowed && this.faults.enforceRateLimits) {
      const wait = decision.retryAfterS as number;
      const failure = new ApiFailure(
        429,
        'RATE_LIMITED',
        `Rate limit of ${decision.limit} requests per minute exceeded. Retry after ${wait} seconds.`,
        wait,
      );
      throw Object.assign(failure, { decision });
    }
    return decision;
  }

  /** The window an injected 429 reports: the key's limit, none left, free again after its 1 s Retry-After. */
  injectedRateDecision(authorization: string | undefined): RateDecision {
    const secret = /^Bearer (\S+)$/i.exec(authorization ?? '')?.[1];
    const limit = this.chaos.tier(
      this.state.keys.find((k) => k.secret === secret)?.tier ?? DEFAULT_RATE_TIER,
    );
    const now = this.clock.now();
    return { allowed: false, limit, remaining: 0, resetS: Math.ceil((now + 1000) / 1000), retryAfterS: 1 };
  }

  /** Consumes one injected failure for `path`, if one is armed. */
  takeInjectedFailure(path: string): number | undefined {
    const fail = this.faults.failNext;
    if (!fail || (fail.pathPrefix && !path.startsWith(fail.pathPrefix))) return undefined;
    fail.count -= 1;
    if (fail.count <= 0) this.faults.failNext = undefined;
    return fail.status;
  }

  /** Consumes one garbling of a successful reply to `path`, if one is armed. */
  takeMalformed(path: string): 'bad-json' | 'wrong-content-type' | undefined {
    const bad = this.faults.malformedNext;
    if (!bad || (bad.pathPrefix && !path.startsWith(bad.pathPrefix))) return undefined;
    bad.count -= 1;
    if (bad.count <= 0) this.faults.malformedNext = undefined;
    return bad.kind;
  }

  takeStreamBreak(): { afterChunks: number; mode: 'drop' | 'stream_error' } | undefined {
    const brk = this.faults.breakStreams;
    if (!brk) return this.chaos.streamBreak();
    brk.count -= 1;
    if (brk.count <= 0) this.faults.breakStreams = undefined;
    return { ...brk };
  }

  // ---- agents -------------------------------------------------------------------------------

  findAgent(ref: string): AgentRecord | undefined {
    return this.state.agents.find((a) => a.slug === ref || a.agent_id === ref);
  }

  /** The agent a chat goes to (spec §4: by slug or id; default the first deployed), or why not. */
  resolveAgent(ref: string | undefined): AgentRecord {
    if (ref === undefined) {
      const first = this.state.agents.find((a) => a.status === 'deployed');
      if (!first) throw new ApiFailure(404, 'AGENT_NOT_FOUND', 'No agent is deployed.');
      return first;
    }
    return this.requireRunning(this.findAgent(ref), ref);
  }

  requireRunning(agent: AgentRecord | undefined, ref: string): AgentRecord {
    if (!agent) throw new ApiFailure(404, 'AGENT_NOT_FOUND', `Agent '${ref}' does not exist.`);
    if (agent.status === 'stopped') {
      throw new ApiFailure(404, 'AGENT_NOT_FOUND', `Agent '${agent.slug}' is not deployed (stopped).`);
    }
    if (agent.status === 'error') {
      throw new ApiFailure(
        502,
        'AGENT_ERROR',
        `Agent '${agent.slug}' had an internal error while processing.`,
      );
    }
    return agent;
  }

  /** Waits out the agent's thinking time, or 504 TIMEOUT when it would exceed the chat timeout. */
  async think(agent: AgentRecord, signal: AbortSignal): Promise<void> {
    const chaos = this.chaos.agentFailure(agent.slug);
    if (chaos) throw chaos;
    const own = agent.replay ? replayLatency(agent.replay) : agent.tuning.latencyMs;
    const latency = this.chaos.latency(own, this.chatTimeoutMs);
    if (latency >= this.chatTimeoutMs) {
      await this.clock.sleep(this.chatTimeoutMs, signal);
      throw new ApiFailure(
        504,
        'TIMEOUT',
        `Agent '${agent.slug}' did not respond within ${Math.round(this.chatTimeoutMs / 1000)} seconds.`,
      );
    }
    if (latency > 0) await this.clock.sleep(latency, signal);
  }

  // ---- conversations, threads, usage ----------------------------------------------------------

  /** The session's conversation; a new one is listed only once an exchange is recorded in it. */
  session(sessionId: string | undefined, agent: AgentRecord): ConversationRecord {
    const id = sessionId ?? alphanumeric(24);
    const existing = this.state.conversations.find((c) => c.session_id === id);
    if (existing) return existing;
    const now = new Date(this.clock.now()).toISOString();
    return {
      id: newId('conv'),
      agent: agent.slug,
      session_id: id,
      message_count: 0,
      started_at: now,
      last_message_at: now,
      history: [],
    };
  }

  recordChat(
    conversation: ConversationRecord,
    agent: AgentRecord,
    message: string,
    reply: string,
    startedAt: number,
  ): void {
    // A session's first two messages in flight together both made a new record: keep one.
    const target =
      this.state.conversations.find((c) => c.session_id === conversation.session_id) ?? conversation;
    this.recordExchange(target, agent, message, reply, startedAt);
    target.last_message_at = new Date(this.clock.now()).toISOString();
    if (!this.state.conversations.includes(target)) this.state.conversations.push(target);
  }

  /**
   * Adds one exchange to a history and counts it in usage. The history keeps what was asked, which
   * the agents look back on; not the reply's text, which no endpoint returns (docs/decisions.md: the API
   * has no endpoint for a conversation's messages) and which made every save of the state grow by
   * each reply (a 20,000-chunk story is 112,000 characters).
   */
  recordExchange(
    target: { history: Message[]; message_count: number },
    agent: AgentRecord,
    message: string,
    reply: string,
    startedAt: number,
  ): void {
    const now = this.clock.now();
    const at = new Date(now).toISOString();
    target.history.push({ role: 'user', content: message, at });
    target.message_count += 2;
    this.recordUsage(agent.slug, estimateTokens(message, reply), now - startedAt);
  }

  recordUsage(agent: string, tokens: number, latencyMs: number): void {
    const date = isoDate(this.clock.now());
    let bucket = this.state.usage.find((b) => b.date === date && b.agent === agent);
    if (!bucket) {
      bucket = { date, agent, requests: 0, tokens: 0, latencyMsTotal: 0 };
      this.state.usage.push(bucket);
    }
    bucket.requests += 1;
    bucket.tokens += tokens;
    bucket.latencyMsTotal += Math.max(0, latencyMs);
    this.changed();
  }

  conversationView(c: MockState['conversations'][number]): Conversation {
    const recent = this.clock.now() - Date.parse(c.last_message_at) < ACTIVE_MS;
    return {
      id: c.id,
      agent: c.agent,
      session_id: c.session_id,
      message_count: c.message_count,
      started_at: c.started_at,
      last_message_at: c.last_message_at,
      status: recent ? 'active' : 'completed',
    };
  }

  threadView(t: MockState['threads'][number]): Thread {
    const { history: _history, ...view } = t;
    return view;
  }

  usageReport(days: number): UsageReport {
    const now = this.clock.now();
    const dates: string[] = [];
    for (let d = days - 1; d >= 0; d--) dates.push(isoDate(now - d * DAY_MS));
    const inPeriod = new Set(dates);
    const perDay = new Map(dates.map((d) => [d, { requests: 0, tokens: 0, latency: 0 }]));
    const perAgent = new Map<string, { requests: number; tokens: number }>();
    for (const b of this.state.usage) {
      if (!inPeriod.has(b.date)) continue;
      const day = perDay.get(b.date) as { requests: number; tokens: number; latency: number };
      day.requests += b.requests;
      day.tokens += b.tokens;
      day.latency += b.latencyMsTotal;
      const agent = perAgent.get(b.agent) ?? { requests: 0, tokens: 0 };
      agent.requests += b.requests;
      agent.tokens += b.tokens;
      perAgent.set(b.agent, agent);
    }
    const daily = dates.map((date) => {
      const d = perDay.get(date) as { requests: number; tokens: number; latency: number };
      return {
        date,
        requests: d.requests,
        tokens: d.tokens,
        avg_latency_ms: d.requests > 0 ? Math.round(d.latency / d.requests) : 0,
      };
    });
    return {
      usage: {
        total_requests: daily.reduce((n, d) => n + d.requests, 0),
        total_tokens: daily.reduce((n, d) => n + d.tokens, 0),
        period_start: `${dates[0]}T00:00:00.000Z`,
        period_end: new Date(now).toISOString(),
        daily,
        by_agent: [...perAgent.entries()]
          .map(([agent, v]) => ({ agent, ...v }))
          .sort((a, b) => b.requests - a.requests || a.agent.localeCompare(b.agent)),
      },
    };
  }

  /** docs/decisions.md: all operational → healthy; `api` or `gateway` down → unhealthy; else degraded. */
  healthReport(): HealthReport {
    const c = this.chaos.health(this.state.health);
    const allOk = Object.values(c).every((v) => v === 'operational');
    const critical = c.api === 'down' || c.gateway === 'down';
    const now = this.clock.now();
    return {
      status: allOk ? 'healthy' : critical ? 'unhealthy' : 'degraded',
      timestamp: new Date(now).toISOString(),
      components: { ...c },
      uptime_seconds: Math.max(0, Math.floor((now - this.startedAt) / 1000)),
      version: this.version,
    };
  }
}
