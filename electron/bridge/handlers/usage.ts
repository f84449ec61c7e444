// usage:… — the active profile's usage report.
import type { DomainHandlers, HandlerContext } from './context';

export function usageHandlers({ core }: HandlerContext): DomainHandlers<'usage'> {
  return {
    'usage:get': async ({ days }) => core.client(core.profile()).usage(days),
  };
}
