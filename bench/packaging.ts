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

/**
 * From spawning out/node/web-host.js (as `npm run web` does) to a 200 for the console's page, and,
 * with a browser, to its first screen saying "Connected"; milliseconds.
 */
async function webHostStart(): Promise<{ page: number; connected: number | undefined }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'agent-console-bench-web-'));
  const executablePath = await findChromium();
  const browser = executablePath ? await launchChromium(executablePath) : undefined;
  const tab = await browser?.newPage();
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
    await browser?.close();
    child.kill('SIGTERM');
    await new Promise((done) => child.once('exit', done));
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
  const web = await webHostStart();
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
      note: 'node out/node/web-host.js with the embedded mock, until GET / answers 200',
    },
    {
      figure: 'web host spawn → first screen connected',
      value: web.connected === undefined ? 'n/a' : `${Math.round(web.connected)} ms`,
      note:
        web.connected === undefined
          ? 'no Chromium found'
          : 'the same, until the page in Chromium says "Connected" (goal ≤ 400 ms)',
    },
  ];
}
