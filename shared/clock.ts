// A narrow seam for time (CONTRIBUTING.md, "Style"): the mock's rate window and chat timeout, and the client's
// limiter, read time only through a Clock, so tests of 60-second rules run in milliseconds.

export interface Clock {
  now(): number;
  /** Resolves after `ms`; rejects with the signal's reason when aborted first. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException('The operation was aborted', 'AbortError');
}

export const systemClock: Clock = {
  now: () => Date.now(),
  sleep: (ms, signal) =>
    new Promise<void>((resolve, reject) => {
      if (signal?.aborted) return reject(abortReason(signal));
      const onAbort = (): void => {
        clearTimeout(timer);
        reject(abortReason(signal as AbortSignal));
      };
      const timer = setTimeout(() => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      }, ms);
      signal?.addEventListener('abort', onAbort, { once: true });
    }),
};

interface PendingTimer {
  due: number;
  seq: number;
  resolve: () => void;
}

/** A clock that moves only when a test calls `advance`, firing due sleeps in order. */
export class ManualClock implements Clock {
  private current: number;
  private timers: PendingTimer[] = [];
  private seq = 0;

  /**
   * `settle` lets woken continuations and pending I/O run between timers. The default (a 0 ms
   * timeout) costs about 1 ms per timer; simulations of weeks pass a faster one (Node's
   * setImmediate) — this file stays free of Node.
   */
  constructor(
    start = Date.UTC(2026, 0, 15, 12, 0, 0),
    private readonly settle: () => Promise<void> = settleByTimeout,
  ) {
    this.current = start;
  }

  now(): number {
    return this.current;
  }

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      if (signal?.aborted) return reject(abortReason(signal));
      const timer: PendingTimer = {
        due: this.current + Math.max(0, ms),
        seq: this.seq++,
        resolve: () => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        },
      };
      const onAbort = (): void => {
        this.timers = this.timers.filter((t) => t !== timer);
        reject(abortReason(signal as AbortSignal));
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.timers.push(timer);
    });
  }

  /** Number of sleeps waiting for the clock to move. */
  get pending(): number {
    return this.timers.length;
  }

  /** Moves time forward by `ms`, waking each sleep at its due time and letting its continuation run. */
  async advance(ms: number): Promise<void> {
    const target = this.current + ms;
    for (;;) {
      await this.settle();
      const next = this.timers
        .filter((t) => t.due <= target)
        .sort((a, b) => a.due - b.due || a.seq - b.seq)[0];
      if (!next) break;
      this.timers = this.timers.filter((t) => t !== next);
      this.current = Math.max(this.current, next.due);
      next.resolve();
    }
    this.current = target;
    await this.settle();
  }
}

/** Lets promise continuations and pending I/O callbacks run. */
function settleByTimeout(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}
