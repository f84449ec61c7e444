// The main side of the bridge: validates every call from the (untrusted) renderer with the
// contract's zod schema, runs it on the core, and turns any failure into a BridgeError (words and
// codes, never a stack). Both transports — Electron IPC and the web host — call `invoke` and
// forward `events`; neither has a call of its own. Plain Node: no `electron` import.
import { randomUUID } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import {
  BRIDGE_CALLS,
  type BridgeCall,
  type BridgeError,
  type BridgeEvent,
  type BridgeEvents,
  type BridgeOutputs,
  type BridgeResult,
  type KeyInfo,
  type ProfileInfo,
  type RateState,
  type StreamChunkEvent,
} from '../../shared/bridge';
import { API_PREFIX } from '../../shared/api';
import type { RequestLogEntry } from '../../shared/request-log-entry';
import { ApiError, describeError } from '../core/api-error';
import type { ConsoleCore } from '../core/console-core';
import { ExchangeRecorder } from '../core/exchange-recorder';
import { KeyVaultError, type KeyMeta } from '../core/key-vault';
import { ProfileError, type Profile } from '../core/profiles';
import { ApiFailure } from '../../mock/errors';
import { FixtureError } from '../core/fixture-store';
import { curlFor } from './curl';
import { MockUnavailable, mockHandlers } from './mock-handlers';

type Handlers = {
  [K in BridgeCall]: (input: z.output<(typeof BRIDGE_CALLS)[K]>) => Promise<BridgeOutputs[K]>;
};
interface ChatCall {
  message: string;
  agent?: string | undefined;
  session_id?: string | undefined;
  startedHere?: boolean | undefined;
}
type Emit = <E extends BridgeEvent>(event: E, payload: BridgeEvents[E]) => void;

/** How long stream chunks gather before one `chat:chunk` event: about one animation frame. */
const CHUNK_BATCH_MS = 16;

/** A refusal by the bridge itself, with a code the renderer can act on. */
class Refusal extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

export function toBridgeError(error: unknown): BridgeError {
  if (error instanceof Refusal || error instanceof MockUnavailable)
    return { code: error.code, message: error.message };
  if (error instanceof FixtureError) return { code: 'FIXTURE', message: error.message };
  if (error instanceof ApiFailure) return { code: error.code, message: error.message, status: error.status };
  if (error instanceof ApiError) {
    return {
      code: error.code,
      message: error.message,
      ...(error.status ? { status: error.status } : {}),
      ...(error.requestId ? { requestId: error.requestId } : {}),
      ...(error.retryAfterS !== undefined ? { retryAfterS: error.retryAfterS } : {}),
      ...(error.partial !== undefined ? { partial: error.partial } : {}),
    };
  }
  if (error instanceof KeyVaultError) {
    // Not the API's INVALID_KEY (a 401): this is the shape check on what was typed.
    return { code: error.code === 'INVALID_KEY' ? 'KEY_FORMAT' : error.code, message: error.message };
  }
  if (error instanceof ProfileError) return { code: error.code, message: error.message };
  if (error instanceof z.ZodError) {
    const issue = error.issues[0];
    const field = issue?.path.join('.') || 'input';
    return { code: 'BAD_INPUT', message: `Invalid ${field}: ${issue?.message ?? 'not accepted'}.` };
  }
  return {
    code: 'INTERNAL',
    message: `The console core failed: ${(error as Error)?.message ?? String(error)}`,
  };
}

export interface BridgeHostOptions {
  transport: 'electron' | 'web';
  version: string;
}

export class BridgeHost {
  private readonly listeners = new Set<Emit>();
  private readonly streams = new Map<string, AbortController>();
  private readonly handlers: Handlers;
  private unwatchRate: (() => void) | undefined;
  private readonly unwatchLog: () => void;
  private readonly unwatchHealth: () => void;

  constructor(
    private readonly core: ConsoleCore,
    private readonly options: BridgeHostOptions,
  ) {
    this.handlers = this.createHandlers();
    this.unwatchLog = core.requestLog.subscribe((event) => {
      if (event.type === 'added') this.emit('log:added', event.entry);
      else this.emit('log:cleared', {});
    });
    this.unwatchHealth = core.health.subscribe((update) => this.emit('health:update', update));
    this.watchRate();
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
      const parsed = BRIDGE_CALLS[name].parse(input ?? {});
      const handler = this.handlers[name] as (i: unknown) => Promise<unknown>;
      return { ok: true, value: await handler(parsed) };
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
    for (const controller of this.streams.values()) controller.abort();
    this.unwatchRate?.();
    this.unwatchLog();
    this.unwatchHealth();
  }

  private emit: Emit = (event, payload) => {
    for (const listener of this.listeners) listener(event, payload);
  };

  private keyInfo(meta: KeyMeta): KeyInfo {
    return {
      id: meta.id,
      name: meta.name,
      last4: meta.last4,
      createdAt: meta.createdAt,
      storage: meta.storage,
      ...(meta.tier !== undefined ? { tier: meta.tier } : {}),
    };
  }

  private keys(): KeyInfo[] {
    return this.core.vault.list().map((k) => this.keyInfo(k));
  }

  private profiles(): ProfileInfo[] {
    const active = this.core.profiles.active()?.id;
    return this.core.profiles.list().map((p) => ({ ...p, active: p.id === active }));
  }

  private activeProfile(): Profile {
    return this.core.profile();
  }

  private client() {
    return this.core.client(this.activeProfile());
  }

  private rateState(): RateState | null {
    const profile = this.core.profiles.active();
    const key = profile && this.core.vault.get(profile.keyId);
    if (!key) return null;
    const s = this.core.limiters.for(key.id, key.tier).state();
    return {
      keyId: key.id,
      limit: s.limit,
      remaining: s.remaining,
      queued: s.queued,
      ...(s.resetAt !== undefined ? { resetAt: s.resetAt } : {}),
      ...(s.pausedUntil !== undefined ? { pausedUntil: s.pausedUntil } : {}),
      ...(s.last429At !== undefined ? { last429At: s.last429At } : {}),
    };
  }

  /** Follows the active key's limiter, so the gauge moves with every caller's requests. */
  private watchRate(): void {
    this.unwatchRate?.();
    this.unwatchRate = undefined;
    const profile = this.core.profiles.active();
    const key = profile && this.core.vault.get(profile.keyId);
    if (!key) return;
    this.unwatchRate = this.core.limiters.for(key.id, key.tier).subscribe(() => {
      const state = this.rateState();
      if (state) this.emit('rate:update', state);
    });
    const state = this.rateState();
    if (state) this.emit('rate:update', state);
  }

  /** The record of a chat's session; none when the caller gave no session id (nothing to continue). */
  private async recorderFor(input: ChatCall, startedHere: boolean | undefined) {
    if (!input.session_id) return undefined;
    return ExchangeRecorder.open(
      this.core.transcripts,
      { profileId: this.activeProfile().id, kind: 'session', id: input.session_id },
      { agent: input.agent ?? 'default', startedHere: startedHere === true },
    );
  }

  private saveCaPem(pem: string): string {
    const dir = join(this.core.dataDir, 'ca');
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const path = join(dir, `${randomUUID()}.pem`);
    writeFileSync(path, pem, { mode: 0o600 });
    return path;
  }

  private createHandlers(): Handlers {
    const core = this.core;
    return {
      ...mockHandlers(core, (event, payload) => this.emit(event, payload)),
      'app:info': async () => ({
        version: this.options.version,
        transport: this.options.transport,
        platform: process.platform,
        dataDir: core.dataDir,
        keychain: core.keychain,
      }),
      'app:diagnostics': async () => ({ text: core.diagnostics() }),
      'keys:list': async () => this.keys(),
      'keys:add': async (input) => {
        const meta = await core.vault.add({
          name: input.name,
          secret: input.secret,
          ...(input.sessionOnly !== undefined ? { sessionOnly: input.sessionOnly } : {}),
        });
        this.emit('keys:changed', this.keys());
        return this.keyInfo(meta);
      },
      'keys:remove': async ({ id }) => {
        const users = core.profiles.list().filter((p) => p.keyId === id);
        if (users.length > 0) {
          throw new Refusal(
            'KEY_IN_USE',
            `This key is used by the profile${users.length > 1 ? 's' : ''} ${users.map((p) => `"${p.name}"`).join(', ')}: remove or change ${users.length > 1 ? 'them' : 'it'} first.`,
          );
        }
        await core.vault.remove(id);
        this.emit('keys:changed', this.keys());
        return { removed: id };
      },
      'profiles:list': async () => this.profiles(),
      'profiles:add': async (input) => {
        const caCertPath = input.caCertPem?.trim() ? this.saveCaPem(input.caCertPem) : undefined;
        const profile = core.profiles.add({
          name: input.name,
          baseUrl: input.baseUrl,
          keyId: input.keyId,
          ...(caCertPath ? { caCertPath } : {}),
        });
        this.emit('profiles:changed', this.profiles());
        return { ...profile, active: core.profiles.active()?.id === profile.id };
      },
      'profiles:remove': async ({ id }) => {
        core.profiles.remove(id);
        this.emit('profiles:changed', this.profiles());
        this.watchRate();
        core.health.profileChanged();
        return { removed: id };
      },
      'profiles:use': async ({ id }) => {
        const profile = core.profiles.use(id);
        core.appLog.info(`Active profile: ${profile.name} (${profile.baseUrl})`);
        this.emit('profiles:changed', this.profiles());
        this.watchRate();
        core.health.profileChanged();
        return { ...profile, active: true };
      },
      'profiles:test': async ({ id }) => {
        const profile = core.profiles.get(id);
        if (!profile) throw new Refusal('NOT_FOUND', 'That profile no longer exists.');
        const started = performance.now();
        try {
          const health = await core.client(profile).health();
          return { ok: true, durationMs: Math.round(performance.now() - started), health };
        } catch (error) {
          return {
            ok: false,
            durationMs: Math.round(performance.now() - started),
            error: toBridgeError(error),
          };
        }
      },
      'rate:state': async () => this.rateState(),
      'log:list': async () => core.requestLog.list(),
      'log:clear': async () => {
        core.requestLog.clear();
        return { cleared: true };
      },
      'log:export': async ({ format }) => {
        const stamp = new Date(core.clock.now()).toISOString().replaceAll(':', '-').slice(0, 19);
        return format === 'har'
          ? { fileName: `agent-console-${stamp}.har`, text: core.requestLog.exportHar() }
          : { fileName: `agent-console-${stamp}.json`, text: core.requestLog.exportJson() };
      },
      'log:curl': async ({ id }) => {
        const entry = core.requestLog.list().find((e: RequestLogEntry) => e.id === id);
        if (!entry) throw new Refusal('NOT_FOUND', 'That request is no longer in the log.');
        return { command: curlFor(entry, core.profiles.get(entry.profileId)?.caCertPath) };
      },
      'agents:list': async (q) => this.client().listAgents(q),
      'conversations:list': async (q) => this.client().listConversations(q),
      'threads:list': async () => this.client().listThreads(),
      'threads:create': async (input) => {
        const created = await this.client().createThread(input);
        const recorder = await ExchangeRecorder.open(
          core.transcripts,
          { profileId: this.activeProfile().id, kind: 'thread', id: created.thread.id },
          { agent: created.thread.agent, startedHere: true, title: created.thread.title },
        );
        await recorder.user(input.message);
        await recorder.agent({ content: created.response, status: 'complete' });
        return created;
      },
      'threads:send': async ({ threadId, message }) => {
        const recorder = await ExchangeRecorder.open(
          core.transcripts,
          { profileId: this.activeProfile().id, kind: 'thread', id: threadId },
          { agent: 'unknown', startedHere: false },
        );
        await recorder.user(message);
        try {
          const reply = await this.client().appendThreadMessage(threadId, message);
          await recorder.agent({ content: reply.response, status: 'complete' });
          return reply;
        } catch (error) {
          await recorder.agent({ content: '', status: 'failed', error: describeError(error) });
          throw error;
        }
      },
      'usage:get': async ({ days }) => this.client().usage(days),
      'health:get': async () => this.client().health(),
      'health:status': async () => core.health.state(),
      'health:check': async () => core.health.checkNow(),
      'health:timeline': async ({ range }) => core.health.timeline(range),
      'health:incidents': async ({ from, to }) => core.health.incidents(from, to),
      'health:configure': async ({ intervalMs }) => core.health.setIntervalMs(intervalMs),
      'chat:send': async ({ startedHere, ...input }) => {
        const recorder = await this.recorderFor(input, startedHere);
        await recorder?.user(input.message);
        try {
          const reply = await this.client().chat(input);
          await recorder?.agent({ content: reply.response, status: 'complete', requestId: reply.request_id });
          return reply;
        } catch (error) {
          await recorder?.agent({ content: '', status: 'failed', error: describeError(error) });
          throw error;
        }
      },
      'chat:stream': async (input) => this.startStream(input),
      'chat:cancel': async ({ streamId }) => {
        const controller = this.streams.get(streamId);
        controller?.abort();
        return { cancelled: controller !== undefined };
      },
      'chat:curl': async ({ stream, ...input }) => {
        const profile = this.activeProfile();
        const url = `${profile.baseUrl.replace(/\/+$/, '')}${API_PREFIX}/chat`;
        // The body exactly as the API client sends it (api-client.ts: `{ ...input, stream }`).
        const requestBody = JSON.stringify({ ...input, stream });
        return {
          command: curlFor({ method: 'POST', url, requestBody, streamed: stream }, profile.caCertPath),
        };
      },
      'transcripts:list': async ({ kind }) => {
        const listing = await core.transcripts.list(this.activeProfile().id, kind);
        return {
          summaries: listing.summaries,
          unreadable: listing.unreadable.map((e) => ({ file: e.file, message: e.message })),
        };
      },
      'transcripts:get': async ({ kind, id }) =>
        (await core.transcripts.get({ profileId: this.activeProfile().id, kind, id })) ?? null,
      'transcripts:remove': async ({ kind, id }) => ({
        removed: await core.transcripts.remove({ profileId: this.activeProfile().id, kind, id }),
      }),
    };
  }

  /**
   * Starts a stream and forwards its chunks in batches of about one frame, then its end. The
   * renderer names the stream, so it is listening before the first chunk can arrive.
   */
  private async startStream({ streamId, startedHere, ...input }: ChatCall & { streamId: string }) {
    if (this.streams.has(streamId)) throw new Refusal('BAD_INPUT', 'That stream id is already in use.');
    const controller = new AbortController();
    this.streams.set(streamId, controller);
    const recorder = await this.recorderFor(input, startedHere);
    await recorder?.user(input.message);
    let stream;
    try {
      stream = await this.client().chatStream(input, { signal: controller.signal });
    } catch (error) {
      this.streams.delete(streamId);
      await recorder?.agent({ content: '', status: 'failed', error: describeError(error) });
      throw error;
    }
    const pending: StreamChunkEvent['chunks'] = [];
    let timer: NodeJS.Timeout | undefined;
    const flush = (): void => {
      timer = undefined;
      if (pending.length > 0) this.emit('chat:chunk', { streamId, chunks: pending.splice(0) });
    };
    void (async () => {
      let failure: unknown;
      try {
        for await (const chunk of stream) {
          pending.push(chunk);
          timer ??= setTimeout(flush, CHUNK_BATCH_MS);
        }
      } catch (error) {
        failure = error;
      } finally {
        if (timer) clearTimeout(timer);
        flush();
        this.streams.delete(streamId);
        await recorder
          ?.agent({
            content: stream.text,
            status:
              stream.status === 'done' ? 'complete' : stream.status === 'cancelled' ? 'stopped' : 'partial',
            requestId: stream.requestId,
            error: failure && stream.status !== 'cancelled' ? describeError(failure) : undefined,
          })
          .catch(() => undefined);
        this.emit('chat:end', {
          streamId,
          status: stream.status === 'done' ? 'done' : stream.status === 'cancelled' ? 'cancelled' : 'failed',
          text: stream.text,
          chunkCount: stream.chunkCount,
          timing: stream.timing,
          frames: stream.frames,
          ...(stream.requestId ? { requestId: stream.requestId } : {}),
          ...(failure ? { error: toBridgeError(failure) } : {}),
        });
      }
    })();
    return {
      streamId,
      ...(stream.requestId ? { requestId: stream.requestId } : {}),
      ...(stream.timing.headersMs !== undefined ? { headersMs: stream.timing.headersMs } : {}),
    };
  }
}
