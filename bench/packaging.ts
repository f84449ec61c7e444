// Packaging and start-up figures for `npm run bench` (issues 12 and 18): the packaged app's size
// (app.asar plus what is unpacked beside it, electron-builder --dir against a stand-in Electron), how
// long the CLI takes to start compared with Node itself and to list agents from a running mock, and
// how long the web host takes from spawn to its first page and to a connected first screen, beside
// the same steps against a bare Node server (its lower bound in this browser on this machine).
import { fork, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { extractAll } from '@electron/asar';
import { build } from 'esbuild';
import { findChromium } from '../scripts/find-chromium.mjs';
import { coreStartedAt } from '../test/packaging/stand-in/core-started';
import { packageWithStandIn } from '../test/packaging/stand-in/package-app';
import { launchChromium } from './console-page';
import type { Figure } from './core';

const MB = 1024 * 1024;
const RUNS = 7;

function sizeOf(path: string): number {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.size;
  return readdirSync(path).reduce((sum, name) => sum + sizeOf(join(path, name)), 0);
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
}

/** Milliseconds for `node args…` to run to its end, the median of RUNS. */
function startTime(args: string[], env: NodeJS.ProcessEnv = {}): number {
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const started = performance.now();
    const run = spawnSync(process.execPath, args, { stdio: 'ignore', env: { ...process.env, ...env } });
    if (run.status !== 0) throw new Error(`node ${args.join(' ')} exited ${run.status}`);
    times.push(performance.now() - started);
  }
  return median(times);
}

/**
 * CPU time all the machine's processes have used so far (Linux's /proc/stat, in USER_HZ ticks of
 * 10 ms), ms; undefined where there is no /proc/stat. Over a start it says how busy both cores were:
 * a start that keeps them busy throughout is bound by CPU, not by waiting.
 */
function machineCpuMs(): number | undefined {
  try {
    const [, ...ticks] = (readFileSync('/proc/stat', 'utf8').split('\n', 1)[0] as string).trim().split(/\s+/);
    const [user = 0, nice = 0, system = 0, , , irq = 0, softirq = 0, steal = 0] = ticks.map(Number);
    return (user + nice + system + irq + softirq + steal) * 10;
  } catch {
    return undefined;
  }
}

type Tab = Awaited<ReturnType<Awaited<ReturnType<typeof launchChromium>>['newPage']>>;

interface Start {
  /** Spawn → a 200 for the printed URL, ms. */
  page: number;
  /** Spawn → the tab's page says "Connected", ms, as the page saw it; undefined without a tab. */
  connected: number | undefined;
  /** Spawn → the first screen (the playground, its message box) is on the page, ms; web host only. */
  screen?: number | undefined;
  /** The same as the bench saw it (the page's log of it reaching Playwright), ms. */
  waited: number | undefined;
  /** The machine's CPU time over the whole start, ms. */
  cpu: number | undefined;
  /** Whether the machine was quiet when the start began (undefined: not waited for). */
  quiet?: boolean | undefined;
}

/** What the page logs once it says "Connected", and once its first screen is there (NOTE_CONNECTED). */
const CONNECTED_LOG = 'agent-console-bench: connected';
const SCREEN_LOG = 'agent-console-bench: screen';

/**
 * Put in a tab before its page loads: notes the wall-clock moment (epoch ms) the page's text first
 * says "Connected", in `window.__connectedAt`, and logs CONNECTED_LOG. Playwright's own wait (the
 * load event, then polling the page from this process) comes 60–90 ms after that moment on this
 * machine, which no user waits for: the figure is the page's moment. And the bench waits for the
 * log, not with a locator: a locator's first poll puts Playwright's selector engine into the page,
 * 15–25 ms of its main thread in the middle of the first screen's render, which no user's browser
 * runs. A string, as the page runs it: compiled here, a function would carry the bundler's name
 * helpers with it.
 */
const NOTE_CONNECTED = `
const observer = new MutationObserver(() => {
  if (!document.body || !document.body.textContent.includes('Connected')) return;
  window.__connectedAt = performance.timeOrigin + performance.now();
  observer.disconnect();
  console.debug(${JSON.stringify(CONNECTED_LOG)});
});
observer.observe(document, { subtree: true, childList: true, characterData: true });
const screenObserver = new MutationObserver(() => {
  if (!document.getElementById('composer')) return;
  window.__screenAt = performance.timeOrigin + performance.now();
  screenObserver.disconnect();
  console.debug(${JSON.stringify(SCREEN_LOG)});
});
screenObserver.observe(document, { subtree: true, childList: true });
`;

/**
 * From spawning `node args…` (a server that prints "Agent Console: URL", as `npm run web` does) to a
 * 200 for its URL, and, with a browser tab, to the page there saying "Connected" and, with
 * `withScreen` (the console), to its first screen's message box.
 */
async function timedStart(
  args: string[],
  env: NodeJS.ProcessEnv,
  tab: Tab | undefined,
  withScreen = false,
): Promise<Start> {
  const cpuBefore = machineCpuMs();
  const started = performance.now();
  const child = spawn(process.execPath, args, {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  try {
    const url = await new Promise<string>((resolve, reject) => {
      let out = '';
      child.stdout.on('data', (d: Buffer) => {
        out += d.toString();
        const match = /Agent Console: (\S+)/.exec(out);
        if (match?.[1]) resolve(match[1]);
      });
      child.once('exit', (code) => reject(new Error(`node ${args[0]} exited (${code})`)));
    });
    const res = await fetch(url);
    if (res.status !== 200) throw new Error(`node ${args[0]} answered ${res.status}`);
    await res.text();
    const page = performance.now() - started;
    let connected: number | undefined;
    let screen: number | undefined;
    let waited: number | undefined;
    let cpuAfter: number | undefined;
    if (tab) {
      await tab.addInitScript(NOTE_CONNECTED);
      const said = tab.waitForEvent('console', { predicate: (message) => message.text() === CONNECTED_LOG });
      const shown = withScreen
        ? tab.waitForEvent('console', { predicate: (message) => message.text() === SCREEN_LOG })
        : undefined;
      await tab.goto(url);
      await said;
      waited = performance.now() - started;
      cpuAfter = machineCpuMs();
      await shown;
      const [at, screenAt] = await tab.evaluate(() => {
        const notes = window as unknown as { __connectedAt?: number; __screenAt?: number };
        return [notes.__connectedAt, notes.__screenAt];
      });
      if (at === undefined)
        throw new Error(`the page of node ${args[0]} says "Connected" but its note is missing`);
      // Both clocks are this machine's wall clock: the tab's time origin and this process's.
      connected = at - (performance.timeOrigin + started);
      if (screenAt !== undefined) screen = screenAt - (performance.timeOrigin + started);
    } else {
      cpuAfter = machineCpuMs();
    }
    const cpu = cpuBefore === undefined || cpuAfter === undefined ? undefined : cpuAfter - cpuBefore;
    return { page, connected, screen, waited, cpu };
  } finally {
    child.kill('SIGTERM');
    await new Promise((done) => child.once('exit', done));
  }
}

const QUIET_WINDOW_MS = 100;
/** Under this much CPU in a window (all processes, all cores), the machine counts as quiet. */
const QUIET_CPU_MS = 20;
const QUIET_MAX_MS = 3_000;

/**
 * Waits until the machine is quiet, two windows in a row, or QUIET_MAX_MS; says whether it was.
 * A tab is not done starting when Playwright's newPage() returns: Chromium goes on with it for about
 * half a second, measured here at 0.8–0.9 s of CPU, both cores busy. An open tab in a user's browser
 * has long finished that; a start timed meanwhile shared the cores with it (issue 18).
 */
async function machineQuiet(): Promise<boolean> {
  const until = performance.now() + QUIET_MAX_MS;
  let quietWindows = 0;
  let before = machineCpuMs();
  if (before === undefined) return false;
  while (performance.now() < until) {
    await new Promise((done) => setTimeout(done, QUIET_WINDOW_MS));
    const now = machineCpuMs() as number;
    quietWindows = now - before < QUIET_CPU_MS ? quietWindows + 1 : 0;
    if (quietWindows === 2) return true;
    before = now;
  }
  return false;
}

/**
 * `count` starts in a new tab each, as a user's browser opens the printed URL: in a tab that has
 * finished opening (the clock starts once the machine is quiet again), or with `settle` false, in
 * one still opening, as this bench measured until issue 18's last sessions.
 */
async function startsInTabs(
  browser: Awaited<ReturnType<typeof launchChromium>> | undefined,
  count: number,
  start: (tab: Tab | undefined) => Promise<Start>,
  settle = true,
): Promise<Start[]> {
  const starts: Start[] = [];
  for (let i = 0; i < count; i++) {
    const tab = await browser?.newPage();
    try {
      const quiet = tab && settle ? await machineQuiet() : undefined;
      starts.push({ ...(await start(tab)), quiet });
    } finally {
      await tab?.close();
    }
  }
  return starts;
}

interface Medians {
  page: number;
  connected: number | undefined;
  screen: number | undefined;
  waited: number | undefined;
  cpu: number | undefined;
  /** How many of the starts began on a quiet machine, of how many. */
  quiet: { of: number; quiet: number };
}

function medians(starts: Start[]): Medians {
  const defined = (values: (number | undefined)[]) => values.filter((v): v is number => v !== undefined);
  const connected = defined(starts.map((s) => s.connected));
  const screen = defined(starts.map((s) => s.screen));
  const waited = defined(starts.map((s) => s.waited));
  const cpu = defined(starts.map((s) => s.cpu));
  return {
    page: median(starts.map((s) => s.page)),
    connected: connected.length > 0 ? median(connected) : undefined,
    screen: screen.length > 0 ? median(screen) : undefined,
    waited: waited.length > 0 ? median(waited) : undefined,
    cpu: cpu.length > 0 ? median(cpu) : undefined,
    quiet: { of: starts.length, quiet: starts.filter((s) => s.quiet === true).length },
  };
}

/**
 * A bare `node:http` server, the lower bound of a start in this browser: it serves the files of the
 * folder it is given (index.html at /) and prints its URL as the web host does.
 */
const BARE_SERVER = `
const http = require('node:http'), fs = require('node:fs'), path = require('node:path');
const dir = process.argv[1];
const server = http.createServer((req, res) => {
  const name = req.url === '/' ? 'index.html' : path.basename(req.url);
  fs.readFile(path.join(dir, name), (error, body) => {
    if (error) { res.writeHead(404).end(); return; }
    res.writeHead(200, { 'content-type': name.endsWith('.js') ? 'text/javascript' : 'text/html; charset=utf-8' });
    res.end(body);
  });
});
server.listen(0, '127.0.0.1', () => process.stdout.write('Agent Console: http://127.0.0.1:' + server.address().port + '/\\n'));
process.on('SIGTERM', () => process.exit(0));
`;

/**
 * Two pages for the bare server: "Connected" in the HTML, and "Connected" rendered by react-dom (the
 * console's renderer, without the console), built here as the renderer's build makes it.
 */
async function barePages(): Promise<{ plain: string; react: string; reactBytes: number }> {
  const plain = mkdtempSync(join(tmpdir(), 'agent-console-bench-bare-'));
  writeFileSync(join(plain, 'index.html'), '<!doctype html><title>Bare</title><p>Connected</p>');
  const react = mkdtempSync(join(tmpdir(), 'agent-console-bench-react-'));
  writeFileSync(
    join(react, 'index.html'),
    '<!doctype html><title>Bare</title><script type="module" src="/app.js"></script><div id="root"></div>',
  );
  await build({
    stdin: {
      contents: `import { createElement } from 'react';
import { createRoot } from 'react-dom/client';
createRoot(document.getElementById('root')).render(createElement('p', null, 'Connected'));`,
      resolveDir: process.cwd(),
    },
    bundle: true,
    minify: true,
    format: 'esm',
    define: { 'process.env.NODE_ENV': '"production"' },
    outfile: join(react, 'app.js'),
    logLevel: 'silent',
  });
  return { plain, react, reactBytes: statSync(join(react, 'app.js')).size };
}

/**
 * The web host: the first start on a new data folder (certificates made), then the median of RUNS
 * later starts; and, in the same browser, the bare server's two pages, RUNS starts each.
 */
async function webHostStarts(): Promise<{
  first: Start;
  web: Medians;
  webOpening: Medians;
  bare: Medians;
  bareReact: Medians;
  reactBytes: number;
}> {
  const dataDir = mkdtempSync(join(tmpdir(), 'agent-console-bench-web-'));
  const pages = await barePages();
  const executablePath = await findChromium();
  const browser = executablePath ? await launchChromium(executablePath) : undefined;
  const webHost = (tab: Tab | undefined) =>
    timedStart(
      ['out/node/web-host.js'],
      { AGENT_CONSOLE_DATA_DIR: dataDir, AGENT_CONSOLE_NO_OPEN: '1' },
      tab,
      true,
    );
  try {
    const [first] = (await startsInTabs(browser, 1, webHost)) as [Start];
    const web = medians(await startsInTabs(browser, RUNS, webHost));
    const webOpening = medians(await startsInTabs(browser, RUNS, webHost, false));
    const bare = medians(
      await startsInTabs(browser, RUNS, (tab) => timedStart(['-e', BARE_SERVER, pages.plain], {}, tab)),
    );
    const bareReact = medians(
      await startsInTabs(browser, RUNS, (tab) => timedStart(['-e', BARE_SERVER, pages.react], {}, tab)),
    );
    return { first, web, webOpening, bare, bareReact, reactBytes: pages.reactBytes };
  } finally {
    await browser?.close();
    for (const dir of [dataDir, pages.plain, pages.react]) {
      rmSync(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
    }
  }
}

/** `agent-console agents --json` against a mock already running on its data folder: median ms. */
async function cliAgentsAgainstRunningMock(): Promise<number> {
  const dataDir = mkdtempSync(join(tmpdir(), 'agent-console-bench-cli-'));
  const mock = spawn(
    process.execPath,
    ['out/node/cli.js', 'mock', '--data-dir', join(dataDir, 'mock'), '--quiet'],
    { stdio: ['ignore', 'pipe', 'ignore'] },
  );
  try {
    await new Promise<void>((resolve, reject) => {
      mock.stdout.once('data', () => resolve());
      mock.once('exit', (code) => reject(new Error(`the mock exited (${code})`)));
    });
    const env = { AGENT_CONSOLE_DATA_DIR: dataDir };
    startTime(['out/node/cli.js', 'agents', '--json'], env); // the first run stores the demo key
    return startTime(['out/node/cli.js', 'agents', '--json'], env);
  } finally {
    mock.kill('SIGTERM');
    await new Promise((done) => mock.once('exit', done));
    rmSync(dataDir, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
  }
}

/** A Node 22 (Electron's Node line), as packaged-launch.test.ts finds it; undefined without one. */
function node22(): string | undefined {
  const ci = resolve('.ci/node22/package/bin/node');
  return process.env.AGENT_CONSOLE_NODE22 ?? (existsSync(ci) ? ci : undefined);
}

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
async function desktopStarts(
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

export async function packagingFigures(): Promise<Figure[]> {
  const built = spawnSync(process.execPath, ['scripts/build.mjs', '--release'], { stdio: 'ignore' });
  if (built.status !== 0) throw new Error('scripts/build.mjs failed');
  const work = mkdtempSync(join(tmpdir(), 'agent-console-bench-package-'));
  let asar: number;
  let unpacked: number;
  const desktopNode = node22();
  let desktop: Awaited<ReturnType<typeof desktopStarts>> | undefined;
  try {
    const resources = await packageWithStandIn(work);
    asar = sizeOf(join(resources, 'app.asar'));
    unpacked = sizeOf(join(resources, 'app.asar.unpacked'));
    if (desktopNode) desktop = await desktopStarts(desktopNode, resources, work);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  const node = startTime(['-e', '0']);
  // Node reads NODE_EXTRA_CA_CERTS' file at every start, before any of our code runs: where it is
  // set (as on a machine behind a TLS-inspecting proxy), every start here includes it.
  const extraCerts = process.env.NODE_EXTRA_CA_CERTS
    ? `; NODE_EXTRA_CA_CERTS is set here, and without it node -e 0 takes ${Math.round(startTime(['-e', '0'], { NODE_EXTRA_CA_CERTS: undefined }))} ms`
    : '';
  const cli = startTime(['out/node/cli.js', '--help']);
  const agents = await cliAgentsAgainstRunningMock();
  const starts = await webHostStarts();
  const cores = availableParallelism();
  // Medians of CPU and of time are of different starts: "cores busy" is their ratio, a mean.
  // The CPU is counted until the bench has seen "Connected", so it is shared over that time.
  const cpuNote = (m: Medians): string =>
    m.cpu === undefined || m.waited === undefined
      ? 'CPU not measured here'
      : `${m.cpu} ms of CPU on the machine's ${cores} cores, ${(m.cpu / m.waited).toFixed(1)} of them busy on average`;
  const quietNote = (m: Medians): string =>
    m.quiet.quiet === m.quiet.of
      ? 'each begun with the tab open and the machine quiet'
      : `begun with the tab open and the machine quiet in ${m.quiet.quiet} of ${m.quiet.of} (the others after ${QUIET_MAX_MS / 1000} s of waiting)`;
  return [
    {
      figure: 'packaged app (app.asar + unpacked)',
      value: `${((asar + unpacked) / MB).toFixed(1)} MB`,
      note: `app.asar ${(asar / MB).toFixed(1)} MB + unpacked ${(unpacked / MB).toFixed(1)} MB (goal ≤ 25 MB; was 59 + 26)`,
    },
    {
      figure: 'desktop main process: spawn → window asked for',
      value: desktop ? `${desktop.cached.window} ms` : 'n/a',
      note: desktop
        ? `the packaged app's out/electron/start.js on Node ${desktop.version} (Electron's Node line) with the stand-in Electron, so without Electron's own start or the renderer: median of ${RUNS} launches with the compile cache, ${desktop.uncached.window} ms without; its core open at ${desktop.cached.core} ms (${desktop.uncached.core} ms without)`
        : "no Node 22 here (AGENT_CONSOLE_NODE22 unset; .ci/run fetches one): the desktop main process's start is timed on Electron's Node line",
    },
    {
      figure: 'CLI start (agent-console --help)',
      value: `${Math.round(cli)} ms`,
      note: `median of ${RUNS}; node -e 0 takes ${Math.round(node)} ms (${(cli / node).toFixed(1)}×)${extraCerts}`,
    },
    {
      figure: 'CLI agents --json, mock running',
      value: `${Math.round(agents)} ms`,
      note: `median of ${RUNS}, a standalone mock on the data folder (goal ≤ 350 ms)`,
    },
    {
      figure: 'web host spawn → first page',
      value: `${Math.round(starts.web.page)} ms`,
      note: `node out/node/web-host.js with the embedded mock, until GET / answers 200: median of ${RUNS} starts on a used data folder; the first start on a new one ${Math.round(starts.first.page)} ms`,
    },
    {
      figure: 'web host spawn → first screen connected',
      value: starts.web.connected === undefined ? 'n/a' : `${Math.round(starts.web.connected)} ms`,
      note:
        starts.web.connected === undefined
          ? 'no Chromium found'
          : `the same, until the page in Chromium says "Connected" (goal ≤ 400 ms; ${Math.round(starts.web.waited ?? 0)} ms until the bench had seen it), ${quietNote(starts.web)}; ${(starts.web.connected / (starts.bareReact.connected ?? Number.NaN)).toFixed(2)}× the bare react-dom start below; the first start on a new folder ${Math.round(starts.first.connected ?? 0)} ms; ${cpuNote(starts.web)}`,
    },
    {
      figure: 'the same, in a tab still opening',
      value:
        starts.webOpening.connected === undefined ? 'n/a' : `${Math.round(starts.webOpening.connected)} ms`,
      note:
        starts.webOpening.connected === undefined
          ? 'no Chromium found'
          : `spawned as soon as Playwright's newPage() returned, while Chromium was still starting the tab (as this figure was taken before): median of ${RUNS}; ${cpuNote(starts.webOpening)}`,
    },
    {
      figure: 'web host spawn → first screen shown',
      value: starts.web.screen === undefined ? 'n/a' : `${Math.round(starts.web.screen)} ms`,
      note:
        starts.web.screen === undefined
          ? 'no Chromium found'
          : `the starts with the tab open, until the first screen (the playground) is on the page with its message box: median of ${RUNS}`,
    },
    {
      figure: 'lower bound: bare server spawn → "Connected"',
      value: starts.bare.connected === undefined ? 'n/a' : `${Math.round(starts.bare.connected)} ms`,
      note:
        starts.bare.connected === undefined
          ? 'no Chromium found'
          : `the same steps and browser against a bare node:http server whose page says "Connected" (${cpuNote(starts.bare)}); with react-dom rendering it (${Math.round(starts.reactBytes / 1024)} KB of JS) ${Math.round(starts.bareReact.connected ?? 0)} ms (${cpuNote(starts.bareReact)}); median of ${RUNS} each, ${quietNote(starts.bareReact)}`,
    },
  ];
}
