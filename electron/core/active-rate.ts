// The active key's limiter as the header's gauge shows it, followed across profile switches:
// whoever switches (a window, the CLI), the gauge follows the new key.
import type { RateState } from '../../shared/bridge/rate';
import type { KeyVault } from './key-vault';
import type { ProfileStore } from './profile-store';
import type { LimiterRegistry } from './rate-limiter';

/** The parts of ConsoleCore the gauge reads (structural: no import cycle). */
interface RateHost {
  profiles: ProfileStore;
  vault: KeyVault;
  limiters: LimiterRegistry;
}

/** The active key's limiter now; null without an active profile or its key. */
export function activeRate(core: RateHost): RateState | null {
  const profile = core.profiles.active();
  const key = profile && core.vault.get(profile.keyId);
  if (!key) return null;
  const s = core.limiters.for(key.id, key.tier).state();
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

/** Calls `listener` on every change of the active key's limiter; returns the unsubscribe. */
export function watchActiveRate(core: RateHost, listener: (state: RateState) => void): () => void {
  let unwatchLimiter: (() => void) | undefined;
  const tell = (): void => {
    const state = activeRate(core);
    if (state) listener(state);
  };
  const attach = (): void => {
    unwatchLimiter?.();
    unwatchLimiter = undefined;
    const profile = core.profiles.active();
    const key = profile && core.vault.get(profile.keyId);
    if (!key) return;
    unwatchLimiter = core.limiters.for(key.id, key.tier).subscribe(tell);
    tell();
  };
  attach();
  const unwatchProfiles = core.profiles.subscribe(({ activeChanged }) => {
    if (activeChanged) attach();
  });
  return () => {
    unwatchProfiles();
    unwatchLimiter?.();
  };
}
