// A review shown as saved is on disk. A real process saves reviews one after another and is
// killed with SIGKILL at an arbitrary moment; every review it had acknowledged is read back whole
// by the next process.
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { afterEach, expect, test } from 'vitest';
import { TranscriptStore } from '../../electron/core/transcript-store';
import { removeDir, tempDir } from '../support/mock';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) removeDir(dir);
});

test('after kill -9 while reviews are saved, every acknowledged review is on disk', async () => {
  const folder = tempDir('agent-console-faults-reviews-');
  dirs.push(folder);
  const child = spawn(process.execPath, ['--import', 'tsx', 'test/faults/review-writer.ts', folder]);
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const acked: number[] = [];
  const exited = new Promise((resolve) => child.once('exit', resolve));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`No 10 acknowledgements. stderr:\n${stderr}`)), 60_000);
    createInterface({ input: child.stdout }).on('line', (line) => {
      if (line.startsWith('ACK ')) acked.push(Number(line.slice(4)));
      if (acked.length === 10) {
        clearTimeout(timer);
        // Killed a moment later that varies: mid-save or between two.
        setTimeout(() => {
          child.kill('SIGKILL');
          resolve();
        }, Math.random() * 20);
      }
    });
  });
  await exited;
  expect(acked.length).toBeGreaterThanOrEqual(10);

  const store = new TranscriptStore(folder);
  try {
    const kept = store.reviews.byMessage({ profileId: 'embedded-mock', kind: 'session', id: 'reviewed' });
    for (const i of acked)
      expect(kept[i], `review ${i}`).toMatchObject({ verdict: 'wrong', note: `ack ${i}` });
  } finally {
    store.close();
  }
}, 90_000);
