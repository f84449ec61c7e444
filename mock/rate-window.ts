// Per-key sliding 60-second window (spec §8; the exact header arithmetic is docs/decisions.md).
import { RATE_WINDOW_MS } from '../shared/api';

export interface RateDecision {
  allowed: boolean;
  limit: number;
  /** Requests left in the window after this one. */
  remaining: number;
  /** Unix seconds when the oldest counted request leaves the window. */
  resetS: number;
  /** Whole seconds until a slot frees (≥ 1); only when refused. */
  retryAfterS?: number;
}

export class RateWindow {
  private readonly hits = new Map<string, number[]>();

  /** Counts a request for `keyId` at `now` unless the window is full; refused requests are not counted. */
  take(keyId: string, limit: number, now: number): RateDecision {
    const log = this.prune(keyId, now);
    if (log.length >= limit) {
      // The request whose leaving brings the count under `limit`: the oldest one only while the
      // log holds no more than `limit`; after a tier downgrade it holds more, and a slot frees
      // only when all but `limit - 1` of them have left.
      const frees = (log[log.length - limit] as number) + RATE_WINDOW_MS;
      return {
        allowed: false,
        limit,
        remaining: 0,
        resetS: Math.ceil(frees / 1000),
        retryAfterS: Math.max(1, Math.ceil((frees - now) / 1000)),
      };
    }
    log.push(now);
    return {
      allowed: true,
      limit,
      remaining: limit - log.length,
      resetS: Math.ceil(((log[0] as number) + RATE_WINDOW_MS) / 1000),
    };
  }

  /**
   * Counts a request made at `at` (≤ now) by another client, if the window had room for it then;
   * kept in time order.
   */
  record(keyId: string, limit: number, at: number): void {
    const log = this.prune(keyId, at);
    const inWindow = log.filter((t) => t > at - RATE_WINDOW_MS && t <= at).length;
    if (inWindow >= limit) return;
    let i = log.length;
    while (i > 0 && (log[i - 1] as number) > at) i--;
    log.splice(i, 0, at);
  }

  /** Requests counted for `keyId` in the window ending at `now`. */
  count(keyId: string, now: number): number {
    return this.prune(keyId, now).length;
  }

  clear(): void {
    this.hits.clear();
  }

  private prune(keyId: string, now: number): number[] {
    let log = this.hits.get(keyId);
    if (!log) {
      log = [];
      this.hits.set(keyId, log);
    }
    let expired = 0;
    while (expired < log.length && (log[expired] as number) + RATE_WINDOW_MS <= now) expired++;
    if (expired > 0) log.splice(0, expired);
    return log;
  }
}
