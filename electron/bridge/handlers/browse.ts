// The read endpoints, for the active profile: agents, conversations, threads, usage.
import type { DomainHandlers, HandlerContext } from './context';

type BrowseHandlers = DomainHandlers<'agents' | 'conversations' | 'usage'> &
  Pick<DomainHandlers<'threads'>, 'threads:list'>;

export function browseHandlers({ core }: HandlerContext): BrowseHandlers {
  const client = () => core.client(core.profile());
  return {
    'agents:list': async (query) => client().listAgents(query),
    'conversations:list': async (query) => client().listConversations(query),
    'threads:list': async () => client().listThreads(),
    'usage:get': async ({ days }) => client().usage(days),
  };
}
