// rate:… — the active key's limiter, as the header's gauge shows it, followed across profile
// switches: whoever switches (a window, the CLI), the gauge follows the new key.
import type { RateState } from '../../../shared/bridge';
import type { ConsoleCore } from '../../core/console-core';
import type { DomainHandlers, Emit, HandlerContext } from './context';

function rateState(core: ConsoleCore): RateState | null {
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

/** Emits `rate:update` on every change of the active key's limiter; returns the unsubscribe. */
function watchActiveRate(core: ConsoleCore, emit: Emit): () => void {
  let unwatchLimiter: (() => void) | undefined;
  const attach = (): void => {
    unwatchLimiter?.();
    unwatchLimiter = undefined;
    const profile = core.profiles.active();
    const key = profile && core.vault.get(profile.keyId);
    if (!key) return;
    unwatchLimiter = core.limiters.for(key.id, key.tier).subscribe(() => {
      const state = rateState(core);
      if (state) emit('rate:update', state);
    });
    const state = rateState(core);
    if (state) emit('rate:update', state);
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

export function rateHandlers({ core, emit, onClose }: HandlerContext): DomainHandlers<'rate'> {
  onClose(watchActiveRate(core, emit));
  return {
    'rate:state': async () => rateState(core),
  };
}
