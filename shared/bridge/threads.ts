// threads:… — the active profile's threads: the list, a new thread, a message in one.
import { z } from 'zod';
import type {
  ReceivedThreadCreated as ThreadCreated,
  ReceivedThreadList as ThreadList,
  ReceivedThreadMessageReply as ThreadMessageReply,
} from '../received';
import { id, none, returns, text, type DomainCalls } from './schemas';

export const THREADS_CALLS = {
  'threads:list': { input: none, output: returns<ThreadList>() },
  'threads:create': {
    input: z.strictObject({
      message: z.string().max(1_000_000),
      title: text(500).optional(),
      agent: text(200).optional(),
    }),
    output: returns<ThreadCreated>(),
  },
  'threads:send': {
    input: z.strictObject({
      threadId: id,
      message: z.string().max(1_000_000),
      /** The thread's agent as the list shows it, so the record names it. */
      agent: text(200).optional(),
    }),
    output: returns<ThreadMessageReply>(),
  },
} as const satisfies DomainCalls<'threads'>;
