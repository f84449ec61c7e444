// A ManualClock for simulations of weeks: it settles with setImmediate (after pending I/O callbacks,
// like setTimeout, but without its 1 ms floor), so 43,200 one-minute polls take seconds, not a minute.
import { ManualClock } from '../../shared/clock';

export class SteppingClock extends ManualClock {
  constructor(start?: number) {
    super(start, () => new Promise((resolve) => setImmediate(resolve)));
  }
}
