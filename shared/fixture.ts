// A recorded reply (record and replay): its chunks and when each arrived, so a mock agent
// can replay it with the original pacing, scaled, or as fast as possible. Keys never appear in one.
import { z } from 'zod';

export const FIXTURE_FORMAT = 'agent-console-fixture';

export const Fixture = z.object({
  format: z.literal(FIXTURE_FORMAT),
  version: z.literal(1),
  name: z.string().min(1).max(200),
  /** The agent the reply came from. */
  agent: z.string(),
  recordedAt: z.iso.datetime({ offset: true }),
  /** Milliseconds from the request to each chunk's arrival. */
  chunks: z
    .array(z.object({ content: z.string(), atMs: z.number().nonnegative() }))
    .min(1)
    .max(200_000),
});
export type Fixture = z.infer<typeof Fixture>;

export const ReplayMode = z.enum(['original', 'scaled', 'fast']);
export type ReplayMode = z.infer<typeof ReplayMode>;
