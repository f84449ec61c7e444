// ManualClock's contract (shared/clock.ts) for simulations of weeks: ManualClock lets continuations
// run with a 1 ms setTimeout per timer, so 43,200 one-minute polls (30 days) would take most of a
// minute of real time. This clock settles with setImmediate instead (after pending I/O callbacks,
// like setTimeout, but without the 1 ms floor). Everything else is the same: time moves only when
// `advance` is called, and due sleeps wake in order.
import type { Clock } from '../../shared/clock';

interface Timer {
  due: number;
  seq: number;
  wake: () => void;
}

const settle = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

export class SteppingClock implements Clock {
  private current: number;
  private timers: Timer[] = [];
  private seq = 0;

  constructor(start = Date.UTC(2026, 0, 15, 12, 0, 0)) {
    this.current = start;
  }

  now(): number {
    return this.current;
  }

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason);
      const onAbort = (): void => {
        this.timers = this.timers.filter((t) => t !== timer);
        reject(signal?.reason);
      };
      const timer: Timer = {
        due: this.current + Math.max(0, ms),
        seq: this.seq++,
        wake: () => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        },
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.timers.push(timer);
    });
  }

  async advance(ms: number): Promise<void> {
    const target = this.current + ms;
    for (;;) {
      await settle();
      let next: Timer | undefined;
      for (const t of this.timers) {
        if (t.due <= target && (!next || t.due < next.due || (t.due === next.due && t.seq < next.seq)))
          next = t;
      }
      if (!next) break;
      this.timers = this.timers.filter((t) => t !== next);
      this.current = Math.max(this.current, next.due);
      next.wake();
    }
    this.current = target;
    await settle();
  }
}
