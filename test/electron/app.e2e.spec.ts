// The desktop app's first run, through Playwright's _electron (docs/testing.md): the real main
// process, preload and renderer on a data dir of the test's own. Electron's binary cannot be
// downloaded everywhere (`npm install` cannot fetch it on this CI), so where it is missing these
// tests skip with one line saying so; they need `npm run build` first (`npm test` does it).
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  _electron as electron,
  expect,
  test as base,
  type ElectronApplication,
  type Page,
} from '@playwright/test';
import type { BridgeEvents } from '../../shared/bridge';
import type { BridgeApi } from '../../shared/bridge-api';
import { electronBinary } from '../../scripts/electron-binary.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));
const binary: string | undefined = electronBinary().path;
const KEY_SHAPED = /[A-Za-z0-9]{3}_[A-Za-z0-9]{32}/;

/** The page's globals as the preload leaves them. */
type ConsoleWindow = Window & { agentConsole: BridgeApi };

interface DesktopFixtures {
  dataDir: string;
  app: ElectronApplication;
  /** The app's window, its first screen ready. */
  appWindow: Page;
}

const test = base.extend<DesktopFixtures>({
  // eslint-disable-next-line no-empty-pattern
  dataDir: async ({}, use) => {
    const dir = mkdtempSync(join(tmpdir(), 'agent-console-electron-'));
    await use(dir);
    rmSync(dir, { recursive: true, force: true });
  },
  app: async ({ dataDir }, use) => {
    for (const built of ['out/electron/main.js', 'out/electron/preload.cjs', 'out/renderer/index.html']) {
      if (!existsSync(join(root, built)))
        throw new Error(`${built} is missing: run \`npm run build\` first.`);
    }
    const env: Record<string, string> = {};
    for (const [name, value] of Object.entries(process.env)) if (value !== undefined) env[name] = value;
    delete env.ELECTRON_RUN_AS_NODE;
    const app = await electron.launch({
      executablePath: binary as string,
      // The project folder, as `npm start` does, so the app's name and version are ours.
      args: [root, ...(process.getuid?.() === 0 ? ['--no-sandbox'] : [])],
      cwd: root,
      env: {
        ...env,
        AGENT_CONSOLE_DATA_DIR: dataDir,
        // The main process's compile cache (electron/shell/start.ts): this run's own.
        AGENT_CONSOLE_CODE_CACHE: join(dataDir, 'code-cache'),
        AGENT_CONSOLE_KEYCHAIN_SERVICE: `agent-console-electron-e2e-${randomBytes(4).toString('hex')}`,
      },
    });
    await use(app);
    await app.close();
  },
  appWindow: async ({ app }, use) => {
    const page = await app.firstWindow();
    await page.locator('[data-app-state="ready"]').waitFor();
    await use(page);
  },
});
const NO_BINARY =
  'Electron binary not installed here (npm install cannot download it); these tests run where Electron is installed';

// Without the binary the report gets one line saying why, not one skipped line per test.
if (!binary) {
  test(`the desktop app: skipped — ${NO_BINARY}`, () => {
    test.skip(true, NO_BINARY);
  });
} else {
  test.describe('the desktop app', () => {
    test.skip(
      process.platform === 'linux' && !process.env.DISPLAY && !process.env.WAYLAND_DISPLAY,
      'No display for Electron here: run the tests in a desktop session or under `xvfb-run`',
    );

    test('opens one window on the renderer, with the bridge and without Node', async ({ app, appWindow }) => {
      await expect(appWindow).toHaveTitle(/Agent Console/);
      expect(appWindow.url()).toMatch(/^file:\/\/.*\/out\/renderer\/index\.html/);
      const globals = await appWindow.evaluate(() => {
        const page = window as unknown as Record<string, unknown>;
        return {
          bridge: typeof page.agentConsole,
          require: typeof page.require,
          process: typeof page.process,
          module: typeof page.module,
          members: Object.keys(page.agentConsole ?? {}).sort(),
        };
      });
      expect(globals).toMatchObject({
        bridge: 'object',
        require: 'undefined',
        process: 'undefined',
        module: 'undefined',
      });
      // Named functions by domain and `on`: no generic invoke.
      expect(globals.members).toEqual(expect.arrayContaining(['app', 'keys', 'profiles', 'health', 'on']));
      expect(globals.members).not.toContain('invoke');
      expect(app.windows()).toHaveLength(1);
    });

    test("keeps the main process's compiled code for the next launch (Node's compile cache)", async ({
      appWindow,
      dataDir,
    }) => {
      await expect(appWindow.locator('[data-app-state="ready"]')).toBeVisible();
      // Written a few seconds after the start (start.ts), not only when the app quits.
      const cache = join(dataDir, 'code-cache', 'electron-main');
      const files = () =>
        existsSync(cache)
          ? readdirSync(cache, { recursive: true, withFileTypes: true }).filter((f) => f.isFile()).length
          : 0;
      await expect.poll(files, { timeout: 15_000 }).toBeGreaterThan(0);
    });

    test('the bridge answers over IPC: app info, the active Embedded mock profile, a healthy service', async ({
      appWindow,
      dataDir,
    }) => {
      const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string };
      const info = await appWindow.evaluate(() =>
        (window as unknown as ConsoleWindow).agentConsole.app.info({}),
      );
      expect(info).toMatchObject({ transport: 'electron', version, dataDir });

      const profiles = await appWindow.evaluate(() =>
        (window as unknown as ConsoleWindow).agentConsole.profiles.list({}),
      );
      expect(profiles).toContainEqual(
        expect.objectContaining({ name: 'Embedded mock', builtIn: true, active: true }),
      );

      const health = await appWindow.evaluate(() =>
        (window as unknown as ConsoleWindow).agentConsole.health.get({}),
      );
      expect(health.status).toBe('healthy');
    });

    test('events arrive, and a refused call keeps its code across the context bridge', async ({
      appWindow,
    }) => {
      const logged = await appWindow.evaluate(
        () =>
          new Promise<BridgeEvents['log:added']>((resolve) => {
            const bridge = (window as unknown as ConsoleWindow).agentConsole;
            // The renderer may be making calls of its own: wait for this one.
            const off = bridge.on('log:added', (entry) => {
              if (!entry.url.includes('/agents')) return;
              off();
              resolve(entry);
            });
            void bridge.agents.list({});
          }),
      );
      expect(logged).toMatchObject({ method: 'GET', status: 200 });

      const failure = await appWindow.evaluate(() =>
        (window as unknown as ConsoleWindow).agentConsole.keys
          .add({ name: 'typo', secret: 'not a key', baseUrl: 'https://example.com', sessionOnly: true })
          .then(
            () => undefined,
            (error: unknown) => error,
          ),
      );
      // Both readings of a failure work on the page: as a BridgeError and as a BridgeFailure.
      expect(failure).toMatchObject({
        name: 'BridgeFailure',
        code: 'KEY_FORMAT',
        error: { code: 'KEY_FORMAT' },
      });
    });

    test('no key reaches the renderer: not in replies, the DOM or storage', async ({ appWindow }) => {
      const secret = `t${randomBytes(1).toString('hex')}_${randomBytes(16).toString('hex')}`;
      const added = await appWindow.evaluate(
        (s) =>
          (window as unknown as ConsoleWindow).agentConsole.keys.add({
            name: 'e2e key',
            secret: s,
            baseUrl: 'https://example.com',
            sessionOnly: true,
          }),
        secret,
      );
      expect(JSON.stringify(added)).not.toContain(secret);
      const seen = await appWindow.evaluate(async () => {
        const bridge = (window as unknown as ConsoleWindow).agentConsole;
        const replies = [
          await bridge.keys.list({}),
          await bridge.profiles.list({}),
          await bridge.log.list({}),
        ];
        const storage = (store: Storage) =>
          Array.from(
            { length: store.length },
            (_, i) => `${store.key(i)}=${store.getItem(store.key(i) ?? '')}`,
          );
        return {
          replies: JSON.stringify(replies),
          dom: document.documentElement.outerHTML,
          storage: [...storage(localStorage), ...storage(sessionStorage)].join('\n'),
        };
      });
      for (const [where, text] of Object.entries(seen)) {
        expect(text, `a key-shaped string in ${where}`).not.toMatch(KEY_SHAPED);
        expect(text, `the secret in ${where}`).not.toContain(secret);
      }
      mkdirSync(join(root, 'test-results', 'screenshots'), { recursive: true });
      await appWindow.screenshot({
        path: join(root, 'test-results', 'screenshots', 'electron-first-run.png'),
      });
    });

    test('window.open and navigation away are refused', async ({ app, appWindow }) => {
      const opened = await appWindow.evaluate(() => window.open('https://example.com/') === null);
      expect(opened).toBe(true);
      await appWindow.evaluate(() => {
        window.location.href = 'https://example.com/';
      });
      // A round trip through the bridge: still our page, and still the only window.
      const info = await appWindow.evaluate(() =>
        (window as unknown as ConsoleWindow).agentConsole.app.info({}),
      );
      expect(info.transport).toBe('electron');
      expect(appWindow.url()).toMatch(/^file:\/\/.*\/out\/renderer\/index\.html/);
      expect(app.windows()).toHaveLength(1);
    });
  });
}
