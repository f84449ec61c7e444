// The web host's start for `npm run bench`: from spawning `npm run web`'s process to its first
// page, to the page saying "Connected" and to its first screen in Chromium, each start in a new tab
// as a user's browser opens the printed URL; beside the same steps against a bare node:http server,
// the lower bound of a start in this browser on this machine.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { findChromium } from '../scripts/find-chromium.mjs';
import { launchChromium } from './console-page';
import { machineCpuMs, machineQuiet, median, START_RUNS as RUNS } from './timing';

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

/**
 * `count` starts in a new tab each, as a user's browser opens the printed URL: in a tab that has
 * finished opening (the clock starts once the machine is quiet again), or with `settle` false, in
 * one still opening, as this bench measured before.
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

export interface Medians {
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
export async function webHostStarts(): Promise<{
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
