// docs/decisions.md: one limiter per key, shared by every caller (playground, browsers, health poller,
// CLI). It keeps its own sliding 60-second log, re-syncs from the X-RateLimit headers (another
// client may share the key), queues requests it knows would be refused, and after a 429 pauses for
// Retry-After, doubling on each consecutive 429, plus jitter (spec §8).
import { DEFAULT_RATE_TIER, RATE_WINDOW_MS } from '../../shared/api';
import type { Clock } from '../../shared/clock';
import type { RateHeaders } from '../../shared/request-log-entry';
import { MAX_RETRY_AFTER_S } from './reply-limits';

/**
 * The largest limit a reply's X-RateLimit-Limit is believed up to: the spec's tiers end at 300, and
 * a header that claims a billion would otherwise size the window's log by it.
 */
const MAX_BELIEVED_LIMIT = 10_000;

export interface LimiterState {
  limit: number;
  /** Requests this client may still send in the current window, by its own count. */
  remaining: number;
  /** Epoch ms when the oldest counted request leaves the window (undefined when none counted). */
  resetAt: number | undefined;
  queued: number;
  /** Epoch ms until which sending is paused after a 429. */
  pausedUntil: number | undefined;
  last429At: number | undefined;
  consecutive429s: number;
}

export interface LimiterOptions {
  clock: Clock;
  limit?: number;
  random?: () => number;
  /** Upper bound of the jitter added to a 429 pause. */
  maxJitterMs?: number;
  /**
   * Extra wait after a request leaves our window before its slot is reused: the service counts a
   * request when it arrives, a little after we count it, so a slot frees a little later there.
   */
  marginMs?: number;
}

interface Waiter {
  resolve: () => void;
  reject: (reason: unknown) => void;
  signal: AbortSignal | undefined;
  onAbort: () => void;
}

export class RateLimiter {
  private limitValue: number;
  private readonly sent: number[] = [];
  private readonly queue: Waiter[] = [];
  private pausedUntil: number | undefined;
  private last429At: number | undefined;
  private consecutive429s = 0;
  private wake: AbortController | undefined;
  private pumping = false;
  private readonly listeners = new Set<(state: LimiterState) => void>();
  private readonly clock: Clock;
  private readonly random: () => number;
  private readonly maxJitterMs: number;
  private readonly marginMs: number;
  /** Until a reply has told us the key's limit, only one request at a time goes out (a probe). */
  private limitKnown: boolean;
  private probeInFlight = false;

  constructor(options: LimiterOptions) {
    this.clock = options.clock;
    this.limitKnown = options.limit !== undefined;
    this.limitValue = options.limit ?? DEFAULT_RATE_TIER;
    this.marginMs = options.marginMs ?? 1000;
    this.random = options.random ?? Math.random;
    this.maxJitterMs = options.maxJitterMs ?? 1000;
  }

  get limit(): number {
    return this.limitValue;
  }

  /** Waits for a slot in the window, then counts the request as sent. FIFO across callers. */
  acquire(signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    return new Promise<void>((resolve, reject) => {
      const waiter: Waiter = {
        resolve,
        reject,
        signal,
        onAbort: () => {
          const index = this.queue.indexOf(waiter);
          if (index >= 0) this.queue.splice(index, 1);
          reject(signal?.reason);
          this.emit();
        },
      };
      signal?.addEventListener('abort', waiter.onAbort, { once: true });
      this.queue.push(waiter);
      this.emit();
      void this.pump();
    });
  }

  /** Learns from a reply's headers: the key's real limit, and requests another client has used. */
  observe(rate: RateHeaders): void {
    const now = this.clock.now();
    this.probeInFlight = false;
    if (
      rate.limit !== undefined &&
      Number.isInteger(rate.limit) &&
      rate.limit > 0 &&
      rate.limit <= MAX_BELIEVED_LIMIT
    ) {
      this.limitValue = rate.limit;
      this.limitKnown = true;
    }
    if (rate.remaining !== undefined) {
      this.prune(now);
      const usedByServer = this.limitValue - rate.remaining;
      // No more than the window holds, whatever the header says (a negative Remaining, say).
      const missing = Math.min(usedByServer, this.limitValue) - this.sent.length;
      if (missing > 0) {
        // Requests we did not send (another client on the same key). We do not know when they
        // were made; assume they leave the window at the server's reset time, else a full window.
        const at = rate.reset !== undefined ? Math.min(now, rate.reset * 1000 - RATE_WINDOW_MS) : now;
        for (let i = 0; i < missing; i++) this.sent.push(at);
        this.sent.sort((a, b) => a - b);
      }
    }
    this.emit();
    this.nudge();
  }

  /** A request went through: the run of consecutive 429s is over. */
  succeeded(): void {
    if (this.consecutive429s !== 0) {
      this.consecutive429s = 0;
      this.emit();
    }
  }

  /**
   * A 429: pause everyone for Retry-After × 2^(n−1) + jitter, never longer than MAX_RETRY_AFTER_S
   * (plus jitter). Returns the pause in ms.
   */
  rejected(retryAfterS: number | undefined): number {
    const now = this.clock.now();
    this.consecutive429s += 1;
    this.last429At = now;
    const base = Math.max(1, retryAfterS ?? 1) * 1000;
    const wait =
      Math.min(base * 2 ** Math.min(this.consecutive429s - 1, 6), MAX_RETRY_AFTER_S * 1000) +
      Math.floor(this.random() * this.maxJitterMs);
    this.pausedUntil = Math.max(this.pausedUntil ?? 0, now + wait);
    // Retry-After is the service's word on when a slot frees; a later X-RateLimit-Reset is a legal
    // sliding-window reading (the oldest request, not the one that frees a slot), so the window
    // log must not hold the next request past the pause: keep one slot free for when it ends.
    this.prune(now);
    const excess = this.sent.length - (this.limitValue - 1);
    if (excess > 0) this.sent.splice(0, excess);
    this.emit();
    this.nudge();
    return wait;
  }

  state(): LimiterState {
    const now = this.clock.now();
    this.prune(now);
    return {
      limit: this.limitValue,
      remaining: Math.max(0, this.limitValue - this.sent.length),
      // The service's reset (our safety margin is ours alone, not shown).
      resetAt: this.sent.length > 0 ? (this.sent[0] as number) + RATE_WINDOW_MS : undefined,
      queued: this.queue.length,
      pausedUntil: this.pausedUntil !== undefined && this.pausedUntil > now ? this.pausedUntil : undefined,
      last429At: this.last429At,
      consecutive429s: this.consecutive429s,
    };
  }

  subscribe(listener: (state: LimiterState) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private emit(): void {
    if (this.listeners.size === 0) return;
    const state = this.state();
    for (const listener of this.listeners) listener(state);
  }

  private prune(now: number): void {
    let expired = 0;
    const span = RATE_WINDOW_MS + this.marginMs;
    while (expired < this.sent.length && (this.sent[expired] as number) + span <= now) expired++;
    if (expired > 0) this.sent.splice(0, expired);
  }

  /** Cuts the current wait short (a pause or limit changed). */
  private nudge(): void {
    this.wake?.abort();
  }

  /** Releases queued callers one by one as slots free up; one loop runs at a time. */
  private async pump(): Promise<void> {
    if (this.pumping) return;
    this.pumping = true;
    try {
      while (this.queue.length > 0) {
        const now = this.clock.now();
        this.prune(now);
        const paused = this.pausedUntil !== undefined && this.pausedUntil > now;
        const probing = !this.limitKnown && this.probeInFlight;
        if (!paused && !probing && this.sent.length < this.limitValue) {
          const waiter = this.queue.shift() as Waiter;
          waiter.signal?.removeEventListener('abort', waiter.onAbort);
          this.sent.push(now);
          if (!this.limitKnown) this.probeInFlight = true;
          waiter.resolve();
          this.emit();
          continue;
        }
        if (probing) {
          // Woken by observe() when the probe's reply (or failure) arrives.
          this.wake = new AbortController();
          await new Promise<void>((resolve) => this.wake?.signal.addEventListener('abort', () => resolve()));
          this.wake = undefined;
          continue;
        }
        const until = paused
          ? (this.pausedUntil as number)
          : (this.sent[0] as number) + RATE_WINDOW_MS + this.marginMs;
        this.wake = new AbortController();
        await this.clock.sleep(Math.max(1, until - now), this.wake.signal).catch(() => undefined);
        this.wake = undefined;
      }
    } finally {
      this.pumping = false;
    }
  }
}

/** One limiter per key id, created on first use. */
export class LimiterRegistry {
  private readonly limiters = new Map<string, RateLimiter>();

  constructor(private readonly options: Omit<LimiterOptions, 'limit'>) {}

  for(keyId: string, initialLimit?: number): RateLimiter {
    let limiter = this.limiters.get(keyId);
    if (!limiter) {
      limiter = new RateLimiter({
        ...this.options,
        ...(initialLimit !== undefined ? { limit: initialLimit } : {}),
      });
      this.limiters.set(keyId, limiter);
    }
    return limiter;
  }

  delete(keyId: string): void {
    this.limiters.delete(keyId);
  }
}
