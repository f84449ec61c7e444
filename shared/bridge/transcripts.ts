// transcripts:… — what this client has recorded for the active profile (the API keeps no history:
// docs/architecture.md, "The browsers").
import { z } from 'zod';
import type { Transcript, TranscriptSummary } from '../transcript';
import { id, returns, type DomainCalls } from './schemas';

const transcriptRef = z.strictObject({ kind: z.enum(['session', 'thread']), id });

export const TRANSCRIPTS_CALLS = {
  'transcripts:list': {
    input: z.strictObject({ kind: z.enum(['session', 'thread']).optional() }),
    output: returns<{ summaries: TranscriptSummary[]; unreadable: { file: string; message: string }[] }>(),
  },
  'transcripts:get': { input: transcriptRef, output: returns<Transcript | null>() },
  'transcripts:remove': { input: transcriptRef, output: returns<{ removed: boolean }>() },
} as const satisfies DomainCalls<'transcripts'>;
