// agents:… — the active profile's agents, a page at a time.
import { z } from 'zod';
import type { ReceivedAgentList as AgentList } from '../received';
import { returns, type DomainCalls } from './schemas';

export const AGENTS_CALLS = {
  'agents:list': {
    input: z.strictObject({ limit: z.number().int().optional(), offset: z.number().int().optional() }),
    output: returns<AgentList>(),
  },
} as const satisfies DomainCalls<'agents'>;
