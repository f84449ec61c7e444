// Packaging and start-up figures for `npm run bench` (issues 12 and 18): the packaged app's size
// (app.asar plus what is unpacked beside it, electron-builder --dir against a stand-in Electron), how
// long the CLI takes to start compared with Node itself and to list agents from a running mock, and
// how long the web host takes from spawn to its first page and to a connected first screen.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findChromium } from '../scripts/find-chromium.mjs';
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

type Tab = Awaited<ReturnType<Awaited<ReturnType<typeof launchChromium>>['newPage']>>;

/**
 * From spawning out/node/web-host.js (as `npm run web` does) on `dataDir` to a 200 for the console's
 * page, and, with a browser tab, to its first screen saying "Connected"; milliseconds.
 */
async function webHostStart(
  dataDir: string,
  tab: Tab | undefined,
): Promise<{ page: number; connected: number | undefined }> {
  const started = performance.now();
  const child = spawn(process.execPath, ['out/node/web-host.js'], {
    env: { ...process.env, AGENT_CONSOLE_DATA_DIR: dataDir, AGENT_CONSOLE_NO_OPEN: '1' },
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
      child.once('exit', (code) => reject(new Error(`the web host exited (${code})`)));
    });
    const res = await fetch(url);
    if (res.status !== 200) throw new Error(`the web host answered ${res.status}`);
    await res.text();
    const page = performance.now() - started;
    if (!tab) return { page, connected: undefined };
    await tab.goto(url);
    await tab.getByText('Connected').waitFor();
    return { page, connected: performance.now() - started };
  } finally {
    child.kill('SIGTERM');
    await new Promise((done) => child.once('exit', done));
  }
}

/** The first start on a new data folder (certificates made), then the median of RUNS later starts. */
async function webHostStarts(): Promise<{
  first: { page: number; connected: number | undefined };
  page: number;
  connected: number | undefined;
}> {
  const dataDir = mkdtempSync(join(tmpdir(), 'agent-console-bench-web-'));
  const executablePath = await findChromium();
  const browser = executablePath ? await launchChromium(executablePath) : undefined;
  try {
    const open = async () => {
      const tab = await browser?.newPage();
      try {
        return await webHostStart(dataDir, tab);
      } finally {
        await tab?.close();
      }
    };
    const first = await open();
    const later: { page: number; connected: number | undefined }[] = [];
    for (let i = 0; i < RUNS; i++) later.push(await open());
    const connected = later.map((r) => r.connected).filter((c): c is number => c !== undefined);
    return {
      first,
      page: median(later.map((r) => r.page)),
      connected: connected.length > 0 ? median(connected) : undefined,
    };
  } finally {
    await browser?.close();
    rmSync(dataDir, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
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

export async function packagingFigures(): Promise<Figure[]> {
  const built = spawnSync(process.execPath, ['scripts/build.mjs', '--release'], { stdio: 'ignore' });
  if (built.status !== 0) throw new Error('scripts/build.mjs failed');
  const work = mkdtempSync(join(tmpdir(), 'agent-console-bench-package-'));
  let asar: number;
  let unpacked: number;
  try {
    const resources = await packageWithStandIn(work);
    asar = sizeOf(join(resources, 'app.asar'));
    unpacked = sizeOf(join(resources, 'app.asar.unpacked'));
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  const node = startTime(['-e', '0']);
  const cli = startTime(['out/node/cli.js', '--help']);
  const agents = await cliAgentsAgainstRunningMock();
  const web = await webHostStarts();
  return [
    {
      figure: 'packaged app (app.asar + unpacked)',
      value: `${((asar + unpacked) / MB).toFixed(1)} MB`,
      note: `app.asar ${(asar / MB).toFixed(1)} MB + unpacked ${(unpacked / MB).toFixed(1)} MB (goal ≤ 25 MB; was 59 + 26)`,
    },
    {
      figure: 'CLI start (agent-console --help)',
      value: `${Math.round(cli)} ms`,
      note: `median of ${RUNS}; node -e 0 takes ${Math.round(node)} ms (${(cli / node).toFixed(1)}×)`,
    },
    {
      figure: 'CLI agents --json, mock running',
      value: `${Math.round(agents)} ms`,
      note: `median of ${RUNS}, a standalone mock on the data folder (goal ≤ 350 ms)`,
    },
    {
      figure: 'web host spawn → first page',
      value: `${Math.round(web.page)} ms`,
      note: `node out/node/web-host.js with the embedded mock, until GET / answers 200: median of ${RUNS} starts on a used data folder; the first start on a new one ${Math.round(web.first.page)} ms`,
    },
    {
      figure: 'web host spawn → first screen connected',
      value: web.connected === undefined ? 'n/a' : `${Math.round(web.connected)} ms`,
      note:
        web.connected === undefined
          ? 'no Chromium found'
          : `the same, until the page in Chromium says "Connected" (goal ≤ 400 ms); the first start on a new folder ${Math.round(web.first.connected ?? 0)} ms`,
    },
  ];
}
