// conversations:… — the active profile's conversations.
import type { DomainHandlers, HandlerContext } from './context';

export function conversationsHandlers({ core }: HandlerContext): DomainHandlers<'conversations'> {
  return {
    'conversations:list': async (query) => core.client(core.profile()).listConversations(query),
  };
}
