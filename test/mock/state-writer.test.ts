// A mock state write that fails (a full disk, a read-only folder) must not crash the process: the
// state stays in memory, the user is told in words, and the write lands once the folder is writable
// again. Real files: the folder is made read-only (or, as root, replaced by a file).
import { chmodSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, expect, test } from 'vitest';
import { createSeedState } from '../../mock/seed';
import { StateWriter, type MockState } from '../../mock/state';
import { removeDir, tempDir } from '../support/mock';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) {
    chmodSync(dir, 0o700);
    removeDir(dir);
  }
});

const isRoot = process.getuid?.() === 0;

/** Makes `dir/state` unwritable in a way that holds for root too: a file where the folder should be. */
function breakFolder(dir: string): () => void {
  const folder = join(dir, 'state');
  if (isRoot) {
    rmSync(folder, { recursive: true, force: true });
    writeFileSync(folder, 'not a folder');
    return () => {
      rmSync(folder);
      mkdirSync(folder);
    };
  }
  chmodSync(folder, 0o500);
  return () => chmodSync(folder, 0o700);
}

test('a failed state write is reported, kept in memory and written once the folder is writable', async () => {
  const dir = tempDir();
  dirs.push(dir);
  const folder = join(dir, 'state');
  mkdirSync(folder);
  const state = createSeedState(Date.now());
  const warnings: string[] = [];
  const unhandled: unknown[] = [];
  const onUnhandled = (reason: unknown): void => void unhandled.push(reason);
  process.on('unhandledRejection', onUnhandled);
  try {
    const writer = new StateWriter(
      folder,
      () => state,
      10,
      (m) => warnings.push(m),
    );
    const repair = breakFolder(dir);
    state.usage.push({ date: '2026-01-01', agent: 'echo', requests: 7, tokens: 1, latencyMsTotal: 1 });
    writer.schedule();
    await expect.poll(() => warnings.length, { timeout: 5000 }).toBe(1);
    expect(warnings[0]).toMatch(/could not be written to .*mock-state\.json/);
    expect(warnings[0]).toContain('kept in memory');
    repair();
    // The retry lands on its own, with the change made while the folder was unwritable.
    await expect
      .poll(
        () => {
          try {
            return JSON.parse(readFileSync(join(folder, 'mock-state.json'), 'utf8')) as typeof state;
          } catch {
            return undefined;
          }
        },
        { timeout: 5000 },
      )
      .toMatchObject({ usage: expect.arrayContaining([expect.objectContaining({ requests: 7 })]) });
    expect(warnings.at(-1)).toContain('written again');
    await writer.flush();
  } finally {
    process.off('unhandledRejection', onUnhandled);
  }
  expect(unhandled).toEqual([]);
});

test('a write that took long is followed by a proportionally longer pause, and a flush still writes at once', async () => {
  // A state grown large (long replies pile up) takes long to serialise: saving it as often as a
  // small one would stall every stream the mock serves. The clock here moves only while the
  // state is serialised: each write "takes" 100 ms.
  const dir = tempDir();
  dirs.push(dir);
  const state = createSeedState(Date.now());
  let clock = 0;
  let serialised = 0;
  const writer = new StateWriter(
    dir,
    () => {
      serialised++;
      clock += 100;
      return state;
    },
    10,
    undefined,
    () => clock,
  );
  const saved = (): MockState => JSON.parse(readFileSync(join(dir, 'mock-state.json'), 'utf8')) as MockState;
  writer.schedule();
  await expect.poll(() => serialised, { timeout: 5000 }).toBe(1);
  await writer.flush();

  state.usage.push({ date: '2026-01-01', agent: 'echo', requests: 7, tokens: 1, latencyMsTotal: 1 });
  writer.schedule();
  // Ten times the last write's 100 ms must pass first; the 10 ms coalescing delay alone would
  // have written long before this.
  await new Promise((resolve) => setTimeout(resolve, 300));
  expect(serialised).toBe(1);
  expect(saved().usage).not.toContainEqual(expect.objectContaining({ requests: 7 }));

  // Closing the mock flushes: what is pending is written now, not after the pause.
  await writer.flush();
  expect(serialised).toBe(2);
  expect(saved().usage).toContainEqual(expect.objectContaining({ requests: 7 }));
});
