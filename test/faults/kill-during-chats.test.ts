// A chat shown as done is on disk. A real console process chats in a loop and is
// killed with SIGKILL at an arbitrary moment, a few times over on the same data folder; after each
// kill every chat it had acknowledged is in its transcript whole: the user's message and the
// complete reply, in order. Each restart also takes over the locks the killed process left behind.
import { afterEach, expect, test } from 'vitest';
import { TranscriptStore } from '../../electron/core/transcript-store';
import { removeDir, tempDir } from '../support/mock';
import { startWorker, type Worker } from './processes';

const CYCLES = 3;
const dirs: string[] = [];
const workers: Worker[] = [];
afterEach(() => {
  for (const w of workers.splice(0)) w.child.kill('SIGKILL');
  for (const dir of dirs.splice(0)) removeDir(dir);
});

test(`after ${CYCLES} kill -9 cycles during chats, every acknowledged chat is on disk whole`, async () => {
  const dataDir = tempDir('agent-console-faults-kill-');
  dirs.push(dataDir);
  const acknowledged: { session: string; message: string }[] = [];
  for (let cycle = 0; cycle < CYCLES; cycle++) {
    const worker = startWorker(dataDir);
    workers.push(worker);
    await worker.waitFor((l) => l === 'READY');
    worker.send(`loop c${cycle}`);
    // Killed somewhere after a few chats, at a moment that varies: mid-request, mid-write or between.
    const acks = 4 + cycle * 3;
    await worker.waitFor(() => worker.lines.filter((l) => l.startsWith('ACK ')).length >= acks);
    await new Promise((resolve) => setTimeout(resolve, Math.random() * 40));
    worker.child.kill('SIGKILL');
    await worker.exited;
    for (const line of worker.lines.filter((l) => l.startsWith('ACK '))) {
      const [, session = '', message = ''] = line.split(' ');
      acknowledged.push({ session, message });
    }
  }
  expect(acknowledged.length).toBeGreaterThanOrEqual(CYCLES * 4);

  // Read back as the next start would.
  const store = new TranscriptStore(`${dataDir}/transcripts`);
  const { unreadable } = await store.list('embedded-mock');
  expect(unreadable).toEqual([]);
  for (const { session, message } of acknowledged) {
    const transcript = await store.get({ profileId: 'embedded-mock', kind: 'session', id: session });
    const messages = transcript?.messages ?? [];
    const at = messages.findIndex((m) => m.role === 'user' && m.content === message);
    expect(at, `${session} ${message} is on disk`).toBeGreaterThanOrEqual(0);
    expect(messages[at + 1], `the reply to ${session} ${message}`).toMatchObject({
      role: 'agent',
      status: 'complete',
      content: `Echo: ${message}`,
    });
  }
}, 120_000);
