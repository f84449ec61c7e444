// rate:… — the active key's limiter, as the header's gauge shows it.
import { none, returns, type DomainCalls } from './schemas';

export const RATE_CALLS = {
  'rate:state': { input: none, output: returns<RateState | null>() },
} as const satisfies DomainCalls<'rate'>;

export interface RateEvents {
  'rate:update': RateState;
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
