// Durability figures for `npm run bench`: what it costs that a chat is on disk (committed to the
// history database and flushed, synchronous=FULL) before it is shown as done.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TranscriptStore } from '../electron/core/transcript-store';
import type { Figure } from './core';

const CHATS = 200;
const fresh = { agent: 'echo', knownFrom: 'start' } as const;

/** Records CHATS user + agent turns in one session, each synced as an exchange is before it shows as done. */
async function perChatMs(): Promise<number> {
  const dir = mkdtempSync(join(tmpdir(), 'agent-console-bench-durability-'));
  try {
    const store = new TranscriptStore(dir);
    const ref = { profileId: 'bench', kind: 'session', id: 'bench-session' } as const;
    const t0 = performance.now();
    for (let i = 0; i < CHATS; i++) {
      await store.append(ref, { role: 'user', content: `message ${i}`, status: 'complete' }, fresh);
      await store.append(ref, { role: 'agent', content: `reply ${i} `.repeat(20), status: 'complete' });
      await store.sync(ref);
    }
    store.close();
    return (performance.now() - t0) / CHATS;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function durabilityFigures(): Promise<Figure[]> {
  const synced = await perChatMs();
  return [
    {
      figure: 'Chat recorded, on disk before shown as done',
      value: `${synced.toFixed(2)} ms/chat`,
      note: `${CHATS} chats in one session, two commits each (WAL, synchronous=FULL)`,
    },
  ];
}
