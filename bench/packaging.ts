// Packaging and start-up figures for `npm run bench`: the packaged app's size (app.asar plus what
// is unpacked beside it, electron-builder --dir against a stand-in Electron), the desktop main
// process's start (desktop-start.ts), how long the CLI takes to start compared with Node itself and
// to list agents from a running mock, and how long the web host takes from spawn to its first page
// and to a connected first screen, beside a bare Node server (web-host-start.ts).
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { packageWithStandIn } from '../test/packaging/stand-in/package-app';
import type { Figure } from './core';
import { desktopStarts } from './desktop-start';
import { median, QUIET_MAX_MS, START_RUNS as RUNS } from './timing';
import { webHostStarts, type Medians } from './web-host-start';

const MB = 1024 * 1024;

function sizeOf(path: string): number {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.size;
  return readdirSync(path).reduce((sum, name) => sum + sizeOf(join(path, name)), 0);
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

export async function packagingFigures(): Promise<Figure[]> {
  const built = spawnSync(process.execPath, ['scripts/build.mjs', '--release'], { stdio: 'ignore' });
  if (built.status !== 0) throw new Error('scripts/build.mjs failed');
  const work = mkdtempSync(join(tmpdir(), 'agent-console-bench-package-'));
  let asar: number;
  let unpacked: number;
  let desktop: Awaited<ReturnType<typeof desktopStarts>>;
  try {
    const resources = await packageWithStandIn(work);
    asar = sizeOf(join(resources, 'app.asar'));
    unpacked = sizeOf(join(resources, 'app.asar.unpacked'));
    desktop = await desktopStarts(process.execPath, resources, work);
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
      value: `${desktop.cached.window} ms`,
      note: `the packaged app's out/electron/start.js on Node ${desktop.version} (Electron's Node line) with the stand-in Electron, so without Electron's own start or the renderer: median of ${RUNS} launches with the compile cache, ${desktop.uncached.window} ms without; its core open at ${desktop.cached.core} ms (${desktop.uncached.core} ms without)`,
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
