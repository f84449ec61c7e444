// conversations:… — the active profile's conversations, a page at a time.
import { z } from 'zod';
import type { ReceivedConversationList as ConversationList } from '../received';
import { returns, text, type DomainCalls } from './schemas';

export const CONVERSATIONS_CALLS = {
  'conversations:list': {
    input: z.strictObject({
      agent: text(200).optional(),
      limit: z.number().int().optional(),
      offset: z.number().int().optional(),
    }),
    output: returns<ConversationList>(),
  },
} as const satisfies DomainCalls<'conversations'>;
