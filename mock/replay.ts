// A mock agent replaying a recorded reply: the same chunks, with the recorded pacing (original),
// stretched or squeezed (scaled), or none at all (fast).
import { z } from 'zod';
import { Fixture, ReplayMode } from '../shared/fixture';

export const Replay = z.object({
  fixture: Fixture,
  mode: ReplayMode,
  /** For `scaled`: 2 = twice as slow, 0.5 = twice as fast. */
  scale: z.number().positive().max(100),
});
export type Replay = z.infer<typeof Replay>;

function factor(replay: Replay): number {
  return replay.mode === 'fast' ? 0 : replay.mode === 'scaled' ? replay.scale : 1;
}

export const replayText = (replay: Replay): string => replay.fixture.chunks.map((c) => c.content).join('');
export const replayChunks = (replay: Replay): string[] => replay.fixture.chunks.map((c) => c.content);

/** Time to the first chunk. */
export function replayLatency(replay: Replay): number {
  return Math.round((replay.fixture.chunks[0]?.atMs ?? 0) * factor(replay));
}

/** The pause before chunk `i` (i ≥ 1), as recorded. */
export function replayGap(replay: Replay, i: number): number {
  const chunks = replay.fixture.chunks;
  const gap = (chunks[i]?.atMs ?? 0) - (chunks[i - 1]?.atMs ?? 0);
  return Math.max(0, Math.round(gap * factor(replay)));
}
