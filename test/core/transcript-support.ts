// What the transcript tests share: a data dir per test, the refs and first-append facts they use,
// and the files a folder holds.
import { mkdtempSync, readdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TranscriptRef } from '../../electron/core/transcript-store';

/** The data dir sits inside its own parent so a test can check that nothing was written beside it. */
export function transcriptDirs(): { parent: string; dataDir: string } {
  const parent = mkdtempSync(join(tmpdir(), 'agent-console-transcripts-'));
  return { parent, dataDir: join(parent, 'data') };
}

export const session = (id: string, profileId = 'embedded-mock'): TranscriptRef => ({
  profileId,
  kind: 'session',
  id,
});
export const thread = (id: string, profileId = 'embedded-mock'): TranscriptRef => ({
  profileId,
  kind: 'thread',
  id,
});
export const fresh = { agent: 'echo', knownFrom: 'start' } as const;

export function filesUnder(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...filesUnder(path));
    else out.push(path);
  }
  return out;
}
