// Packaging figures for `npm run bench` (issue 12): the packaged app's size (app.asar plus what is
// unpacked beside it, electron-builder --dir against a stand-in Electron), how long the CLI takes to
// start compared with Node itself, and how long the web host takes to serve its first page.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { packageWithStandIn } from '../test/packaging/stand-in/package-app';
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
function startTime(args: string[]): number {
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const started = performance.now();
    const run = spawnSync(process.execPath, args, { stdio: 'ignore' });
    if (run.status !== 0) throw new Error(`node ${args.join(' ')} exited ${run.status}`);
    times.push(performance.now() - started);
  }
  return median(times);
}

/** From starting out/node/web-host.js to a 200 for the console's page, in milliseconds. */
async function webHostFirstPage(): Promise<number> {
  const dataDir = mkdtempSync(join(tmpdir(), 'agent-console-bench-web-'));
  const started = performance.now();
  const child = spawn(process.execPath, ['out/node/web-host.js'], {
    env: { ...process.env, AGENT_CONSOLE_DATA_DIR: dataDir, AGENT_CONSOLE_NO_OPEN: '1' },
    stdio: ['ignore', 'pipe', 'inherit'],
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
    return performance.now() - started;
  } finally {
    child.kill('SIGTERM');
    rmSync(dataDir, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
  }
}

export async function packagingFigures(): Promise<Figure[]> {
  const built = spawnSync(process.execPath, ['scripts/build.mjs'], { stdio: 'ignore' });
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
  const web = await webHostFirstPage();
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
      figure: 'web host: start to first page',
      value: `${Math.round(web)} ms`,
      note: 'out/node/web-host.js with the embedded mock, until GET / answers 200',
    },
  ];
}
