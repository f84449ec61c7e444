// agents:… — the active profile's agents.
import type { DomainHandlers, HandlerContext } from './context';

export function agentsHandlers({ core }: HandlerContext): DomainHandlers<'agents'> {
  return {
    'agents:list': async (query) => core.client(core.profile()).listAgents(query),
  };
}
