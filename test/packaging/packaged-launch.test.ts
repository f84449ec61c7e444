// The desktop app, packaged as electron-builder packages it (`--dir` target, a stand-in Electron
// distribution) and started from that package alone under Node, with a recording stand-in for the
// `electron` module (test/packaging/stand-in/). What it proves: every module the main process loads
// is inside the package (production dependencies plus the bundle), the window is asked for with the
// secure webPreferences on files that exist in the package, every bridge call has its handler, the
// embedded mock answers GET /health through the core, and a missing keychain binding means
// session-only keys with the reason. What it cannot prove: that a real window, tray, menu or
// notification works, or that the fuses are flipped; those are the `_electron` tests and the
// installers built by .github/workflows/desktop.yml, where Electron exists.
import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { extractAll, extractFile, listPackage } from '@electron/asar';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BRIDGE_CALLS, type AppInfo, type KeyInfo, type UpdateStatus } from '../../shared/bridge';
import type { HealthReport } from '../../shared/api';
import { coreStartedAt } from './stand-in/core-started';
import { packageWithStandIn } from './stand-in/package-app';
import { startUpdateFeed } from './stand-in/update-feed';
import { launchPackaged, type Launched } from './stand-in/launched';

const work = mkdtempSync(join(tmpdir(), 'agent-console-package-'));
const launch = (
  appDir: string,
  label: string,
  options: { execPath?: string; env?: NodeJS.ProcessEnv } = {},
): Launched => launchPackaged(appDir, label, { resources, work }, options);

let resources: string;
const running: Launched[] = [];

beforeAll(async () => {
  const built = spawnSync(process.execPath, ['scripts/build.mjs', '--release'], { encoding: 'utf8' });
  expect(built.status, built.stderr).toBe(0);
  resources = await packageWithStandIn(work);
}, 240_000);

afterAll(() => {
  for (const launched of running) launched.stop();
  rmSync(work, { recursive: true, force: true });
}, 60_000);

function extracted(label: string): string {
  const appDir = join(work, `app-${label}`);
  extractAll(join(resources, 'app.asar'), appDir);
  return appDir;
}

describe('the packaged desktop app starts from its package alone (stand-in Electron; real windows are the _electron tests)', () => {
  it('packs the built main process, preload and renderer into app.asar', () => {
    const files = listPackage(join(resources, 'app.asar'), { isPack: false }).map((f) =>
      f.replaceAll('\\', '/'),
    );
    // The entry (package.json "main") turns on the compile cache, then loads main.js.
    expect(files).toContain('/out/electron/start.js');
    expect(files).toContain('/out/electron/main.js');
    expect(files).toContain('/out/electron/preload.cjs');
    expect(files).toContain('/out/renderer/index.html');
    // This build's chunks only: none left over from an earlier build (the dev build keeps those a
    // while for processes still running), each one imported by the main process or another chunk.
    const chunks = files.filter((f) => /^\/out\/electron\/chunks\/[^/]+\.js$/.test(f));
    const importers = (chunk: string) =>
      ['/out/electron/main.js', ...chunks.filter((c) => c !== chunk)]
        .map((f) => readFileSync(f.slice(1), 'utf8'))
        .join('\n');
    const unused = chunks.filter((chunk) => !importers(chunk).includes(`/${chunk.split('/').at(-1)}"`));
    expect(unused, 'chunks in the package that nothing imports').toEqual([]);
  });

  it("packs React's production build, though this test runs under NODE_ENV=test", () => {
    // Vite goes by NODE_ENV: vitest's "test" once made this package carry React's development build.
    expect(process.env.NODE_ENV).toBe('test');
    const asar = join(resources, 'app.asar');
    const html = extractFile(asar, 'out/renderer/index.html').toString();
    const entry = /<script type="module" crossorigin src="\.\/(assets\/index-[^"]+\.js)"/.exec(html)?.[1];
    expect(entry, 'the page names its script').toBeDefined();
    const script = extractFile(asar, `out/renderer/${entry}`).toString();
    // (Booleans: a failure prints the whole script otherwise.)
    expect(script.includes('createRoot'), "the console's React app").toBe(true);
    // Strings only React's development build carries: its owner stacks and its key warning.
    const development = ['react-stack-top-frame', 'Each child in a list should have a unique'];
    expect(development.filter((marker) => script.includes(marker))).toEqual([]);
  });

  it('resolves every import inside the package, opens a secure window on packaged files, handles every bridge call and reaches the embedded mock', async () => {
    const appDir = extracted('full');
    // Last closed maximized: the window comes back maximized, but only once it has something to show.
    mkdirSync(join(work, 'data-full'), { recursive: true });
    writeFileSync(join(work, 'data-full', 'window-state.json'), JSON.stringify({ maximized: true }));
    const app = launch(appDir, 'full');
    running.push(app);
    const snapshot = await app.started();
    expect(snapshot.windows[0]?.actions).toEqual([]);
    await app.ask({ op: 'window-event', event: 'ready-to-show' });
    expect((await app.snapshot()).windows[0]?.actions).toEqual(['maximize', 'show']);

    const [window] = snapshot.windows;
    expect(window?.options.webPreferences).toMatchObject({
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      webviewTag: false,
    });
    const preload = window?.options.webPreferences.preload as string;
    expect(preload.startsWith(appDir)).toBe(true);
    expect(existsSync(preload)).toBe(true);
    expect(window?.loaded?.startsWith(appDir)).toBe(true);
    expect(readFileSync(window?.loaded as string, 'utf8')).toContain('<div id="root">');
    expect(snapshot.calls.some((c) => c.api === 'app.enableSandbox')).toBe(true);

    expect([...snapshot.handlers].sort()).toEqual(Object.keys(BRIDGE_CALLS).sort());

    const health = await app.value<HealthReport>('health:get');
    expect(health.status).toBe('healthy');
    const info = await app.value<AppInfo>('app:info');
    expect(info.transport).toBe('electron');
    expect(info.version).toBe(
      (JSON.parse(readFileSync('package.json', 'utf8')) as { version: string }).version,
    );
    // The keychain's probe goes on after the start: its outcome, once it is over.
    const { keychain: checked } = await eventually(
      () => app.value<AppInfo>('app:info'),
      (i) => !i.keychain.checking,
    );
    expect(checked.reason ?? '').not.toMatch(/could not be loaded/);
    expect(app.stderr).not.toMatch(/ERR_MODULE_NOT_FOUND|could not start/);
  }, 90_000);

  it('asks for its window while the core is still opening, and answers the page once it is open', async () => {
    const app = launch(extracted('early'), 'early');
    running.push(app);
    const snapshot = await app.started();
    // The page's first call, made as soon as the window has loaded, is answered by the open core.
    expect((await app.value<HealthReport>('health:get')).status).toBe('healthy');
    const openedAt = await eventually(
      async () => coreStartedAt(join(work, 'data-early')),
      (at) => at !== undefined,
    );
    expect(openedAt, 'the log says when the core had opened').toBeDefined();
    const coreOpenAt = openedAt as number;
    const windowAt = snapshot.calls.find((c) => c.api === 'new BrowserWindow')?.at;
    expect(windowAt, 'the window was asked for').toBeDefined();
    expect(windowAt as number, 'the window was asked for before the core had opened').toBeLessThan(
      coreOpenAt,
    );
    // The menu and the tray need the open core: they come after it.
    const menuAt = (await app.snapshot()).calls.find((c) => c.api === 'Menu.setApplicationMenu')?.at;
    expect(menuAt).toBeGreaterThanOrEqual(coreOpenAt);
  }, 90_000);

  it("on Electron's Node (22), keeps the main process's compiled code for the next launch, but not for an AppImage", async () => {
    const appDir = extracted('compile-cache');
    const cache = join(work, 'code-cache');
    const first = launch(appDir, 'cache-1', {
      execPath: process.execPath,
      env: { AGENT_CONSOLE_CODE_CACHE: cache },
    });
    running.push(first);
    await first.started();
    // Written a few seconds into the run (start.ts), not only at exit: a killed app keeps it too.
    const files = (dir: string) =>
      existsSync(dir)
        ? readdirSync(dir, { recursive: true, withFileTypes: true }).filter((f) => f.isFile())
        : [];
    const written = await eventually(
      async () => files(join(cache, 'electron-main')),
      (found) => found.length > 0,
    );
    expect(written.length).toBeGreaterThan(0);
    first.stop();

    const second = launch(appDir, 'cache-2', {
      execPath: process.execPath,
      env: { AGENT_CONSOLE_CODE_CACHE: cache, NODE_DEBUG_NATIVE: 'COMPILE_CACHE' },
    });
    running.push(second);
    await second.started();
    expect((await second.value<HealthReport>('health:get')).status).toBe('healthy');
    // Node's own account of it: the entry's import (main.js) and its chunks come from the cache.
    expect(second.stderr).toMatch(/cache for file:\/\/\S+\/out\/electron\/main\.js was accepted/);
    expect(second.stderr).toMatch(/cache for file:\/\/\S+\/out\/electron\/chunks\/\S+\.js was accepted/);
    second.stop();

    // An AppImage runs from a new mount path at every launch: no cache that would only pile up.
    const appImageCache = join(work, 'code-cache-appimage');
    const third = launch(appDir, 'cache-3', {
      execPath: process.execPath,
      env: { AGENT_CONSOLE_CODE_CACHE: appImageCache, APPIMAGE: join(work, 'Agent Console.AppImage') },
    });
    running.push(third);
    await third.started();
    await new Promise((resolve) => setTimeout(resolve, 3_500));
    expect(files(appImageCache)).toEqual([]);
  }, 90_000);

  it('starts without the keychain binding, with session-only keys and the reason shown', async () => {
    const appDir = extracted('no-keyring');
    rmSync(join(appDir, 'node_modules', '@napi-rs'), { recursive: true, force: true });
    const app = launch(appDir, 'no-keyring');
    running.push(app);
    await app.started();

    const { keychain } = await eventually(
      () => app.value<AppInfo>('app:info'),
      (i) => !i.keychain.checking,
    );
    expect(keychain.available).toBe(false);
    expect(keychain.reason).toMatch(/keychain module could not be loaded/i);
    expect(keychain.reason).toMatch(/for this session only/);
    await app.value<KeyInfo>('keys:add', {
      name: 'session key',
      secret: `tst_${'s'.repeat(32)}`,
      baseUrl: 'https://agents.example.com',
      sessionOnly: true,
    });
    const refused = await app.invoke<KeyInfo>('keys:add', {
      name: 'saved key',
      secret: `tst_${'k'.repeat(32)}`,
      baseUrl: 'https://agents.example.com',
    });
    expect(refused.ok ? 'saved' : refused.error.message).toMatch(/keychain/i);
    const keys = await app.value<KeyInfo[]>('keys:list');
    expect(keys.map((k) => k.name)).toContain('session key');
    expect((await app.value<HealthReport>('health:get')).status).toBe('healthy');
  }, 90_000);

  it('updates itself from its feed: finds the newer version, downloads it with its sha512 checked, and asks nothing when updates are off', async () => {
    expect(readFileSync(join(resources, 'app-update.yml'), 'utf8')).toMatch(/provider: github/);
    const started = async (label: string, feedUrl: string, env: NodeJS.ProcessEnv = {}) => {
      const appImage = join(work, `${label}.AppImage`);
      writeFileSync(appImage, 'the installed version');
      const app = launch(extracted(label), label, {
        env: {
          AGENT_CONSOLE_UPDATE_URL: feedUrl,
          APPIMAGE: appImage,
          XDG_CACHE_HOME: join(work, `cache-${label}`),
          ...env,
        },
      });
      running.push(app);
      await app.started();
      return app;
    };
    const feed = await startUpdateFeed('99.0.0');
    const corrupt = await startUpdateFeed('99.0.1', { wrongSha512: true });
    const quiet = await startUpdateFeed('99.0.2');
    try {
      const app = await started('updates', feed.url);
      await app.value<UpdateStatus>('app:checkForUpdates');
      const ready = await eventually(
        () => app.value<UpdateStatus>('app:updates'),
        (s) => s.phase === 'ready',
      );
      expect(ready).toMatchObject({ supported: true, enabled: true, phase: 'ready', latest: '99.0.0' });
      expect(feed.requests).toEqual(
        expect.arrayContaining(['/latest-linux.yml', '/Agent-Console-99.0.0.AppImage']),
      );
      const pending = join(
        work,
        'cache-updates',
        'agent-console-updater',
        'pending',
        'Agent-Console-99.0.0.AppImage',
      );
      expect(readFileSync(pending).equals(feed.file)).toBe(true);
      // Heard of for the CLI's one line (app-updates.ts): the newer version, in the data folder.
      expect(readFileSync(join(work, 'data-updates', 'update-latest.json'), 'utf8')).toContain('"99.0.0"');

      // A file whose digest is not the feed's is never offered for install.
      const tampered = await started('updates-corrupt', corrupt.url);
      await tampered.value<UpdateStatus>('app:checkForUpdates');
      const refused = await eventually(
        () => tampered.value<UpdateStatus>('app:updates'),
        (s) => s.phase === 'error',
      );
      expect(refused.phase).toBe('error');
      expect(refused.error).toMatch(/sha512/);
      expect(await tampered.value<{ restarting: boolean }>('app:installUpdate')).toEqual({
        restarting: false,
      });

      // Off for the machine: no request at all, and the switch says why it is locked.
      const managed = await started('updates-off', quiet.url, { AGENT_CONSOLE_UPDATES: 'off' });
      const off = await managed.value<UpdateStatus>('app:checkForUpdates');
      expect(off).toMatchObject({ enabled: false, lockedOffBy: 'AGENT_CONSOLE_UPDATES=off', phase: 'idle' });
      // Off in Settings: the same, once a check under way (the daily one's first) is over.
      expect((await app.value<UpdateStatus>('app:setUpdates', { enabled: false })).enabled).toBe(false);
      await eventually(
        () => app.value<UpdateStatus>('app:updates'),
        (s) => !/checking|downloading/.test(s.phase),
      );
      const before = feed.requests.length;
      await app.value<UpdateStatus>('app:checkForUpdates');
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect([feed.requests.length, quiet.requests.length]).toEqual([before, 0]);
    } finally {
      await Promise.all([feed, corrupt, quiet].map((f) => f.close()));
    }
  }, 120_000);

  it.skipIf(process.platform === 'win32')(
    'refuses a data folder others may write in: the error box says why, and nothing is written in it',
    async () => {
      const dataDir = join(work, 'data-refused');
      mkdirSync(dataDir);
      chmodSync(dataDir, 0o777);
      const app = launch(extracted('refused'), 'refused');
      running.push(app);
      for (const deadline = Date.now() + 60_000; app.exit === undefined && Date.now() < deadline;)
        await new Promise((r) => setTimeout(r, 100));
      expect(app.exit, app.tail()).toBe(1);
      expect(app.stderr).toContain(
        `error box: Agent Console could not start: Other users can write in the data folder ${dataDir}`,
      );
      expect(readdirSync(dataDir)).toEqual([]);
    },
    90_000,
  );
});

/** `ask()` again until its answer passes `done` (within 30 s), then that answer. */
async function eventually<T>(ask: () => Promise<T>, done: (answer: T) => boolean): Promise<T> {
  const until = Date.now() + 30_000;
  for (;;) {
    const answer = await ask();
    if (done(answer) || Date.now() > until) return answer;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
