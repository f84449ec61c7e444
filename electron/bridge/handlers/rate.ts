// rate:… — the active key's limiter, as the header's gauge shows it (electron/core/active-rate.ts).
import { activeRate, watchActiveRate } from '../../core/active-rate';
import type { DomainHandlers, HandlerContext } from './context';

export function rateHandlers({ core, emit, onClose }: HandlerContext): DomainHandlers<'rate'> {
  onClose(watchActiveRate(core, (state) => emit('rate:update', state)));
  return {
    'rate:state': async () => activeRate(core),
  };
}
