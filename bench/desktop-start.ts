// The desktop app's main process start for `npm run bench`: the packaged out/electron/start.js on
// a Node 22 (Electron's Node line) with the stand-in Electron, with its compile cache and without.
import { fork, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { extractAll } from '@electron/asar';
import { coreStartedAt } from '../test/packaging/stand-in/core-started';
import { median, START_RUNS as RUNS } from './timing';

interface DesktopStart {
  /** Spawn → the main process asks for its window, ms. */
  window: number;
  /** Spawn → the core's log says it has started, ms. */
  core: number;
}

/**
 * One launch of the packaged main process (out/electron/start.js) on `node` with the stand-in
 * Electron: when it asked for its window (the stand-in's record) and when its core had opened
 * (the app log's "Started" line), both on this machine's clock.
 */
async function desktopStart(
  node: string,
  appDir: string,
  codeCache: string,
  runFor = 0,
): Promise<DesktopStart> {
  const dataDir = mkdtempSync(join(tmpdir(), 'agent-console-bench-desktop-'));
  const spawnedAt = Date.now();
  const child = fork(join(appDir, 'out', 'electron', 'start.js'), [], {
    execPath: node,
    execArgv: ['--import', resolve('test/packaging/stand-in/register.mjs')],
    cwd: appDir,
    stdio: ['ignore', 'ignore', 'ignore', 'ipc'],
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      DBUS_SESSION_BUS_ADDRESS: process.env.DBUS_SESSION_BUS_ADDRESS,
      STAND_IN_PACKAGE_ROOT: appDir,
      STAND_IN_APP_DIR: appDir,
      AGENT_CONSOLE_DATA_DIR: dataDir,
      AGENT_CONSOLE_KEYCHAIN_SERVICE: 'agent-console-bench-desktop',
      AGENT_CONSOLE_CODE_CACHE: codeCache,
    },
  });
  try {
    let coreAt: number | undefined;
    for (const until = Date.now() + 30_000; coreAt === undefined;) {
      if (Date.now() > until || child.exitCode !== null)
        throw new Error('the packaged main process did not start');
      await new Promise((r) => setTimeout(r, 25));
      coreAt = coreStartedAt(dataDir);
    }
    const snapshot = await new Promise<{ calls: { api: string; at: number }[] }>((resolveSnapshot) => {
      child.once('message', (reply) => resolveSnapshot(reply as { calls: { api: string; at: number }[] }));
      child.send({ id: 0, op: 'snapshot' });
    });
    const windowAt = snapshot.calls.find((c) => c.api === 'new BrowserWindow')?.at;
    if (windowAt === undefined) throw new Error('the packaged main process asked for no window');
    await new Promise((r) => setTimeout(r, runFor));
    return { window: windowAt - spawnedAt, core: coreAt - spawnedAt };
  } finally {
    child.kill('SIGKILL');
    if (child.exitCode === null) await new Promise((done) => child.once('exit', done));
    rmSync(dataDir, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
  }
}

/**
 * The packaged main process's start on Node 22 with its compile cache (electron/shell/start.ts)
 * and without, alternating, RUNS each after one launch that writes the cache.
 */
export async function desktopStarts(
  node: string,
  resources: string,
  work: string,
): Promise<{ version: string; cached: DesktopStart; uncached: DesktopStart }> {
  const appDir = join(work, 'app');
  extractAll(join(resources, 'app.asar'), appDir);
  const cache = join(work, 'code-cache');
  // The cache is written 3 s into a run (start.ts): the launches after this one find it.
  await desktopStart(node, appDir, cache, 3_500);
  await desktopStart(node, appDir, cache);
  const cached: DesktopStart[] = [];
  const uncached: DesktopStart[] = [];
  for (let i = 0; i < RUNS; i++) {
    cached.push(await desktopStart(node, appDir, cache));
    uncached.push(await desktopStart(node, appDir, ''));
  }
  const middle = (starts: DesktopStart[]): DesktopStart => ({
    window: median(starts.map((s) => s.window)),
    core: median(starts.map((s) => s.core)),
  });
  const version = spawnSync(node, ['--version'], { encoding: 'utf8' }).stdout.trim();
  return { version, cached: middle(cached), uncached: middle(uncached) };
}
