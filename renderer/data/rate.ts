// The active key's rate-limit state (rate:*): read once, then pushed by the core on every change.
// The gauge's store (stores/live.ts) is fed from here.
import type { RateState } from '../../shared/bridge';
import { bridge } from '../bridge';

export const readRateState = (): Promise<RateState | null> => bridge.rate.state({});

export const onRateUpdate = (listener: (state: RateState) => void): (() => void) =>
  bridge.on('rate:update', listener);
