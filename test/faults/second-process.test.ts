// One owner per data folder. Real processes on one folder: a second web host
// refuses, naming the process that holds the folder, and a killed owner's lock is taken over; two
// writers of settings.json at once (the CLI beside a running app) lose nothing; a second mock on
// one state file refuses, while the CLI uses the running one.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, expect, test } from 'vitest';
import { removeDir, standaloneMockArgs, tempDir } from '../support/mock';
import { runNode } from '../support/run-process';
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';

const dirs: string[] = [];
const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
  for (const dir of dirs.splice(0)) removeDir(dir);
});

const repo = resolve('.');
const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;

/** Starts a long-running process; resolves with its first stdout line, or its exit and stderr. */
function start(args: string[], env: NodeJS.ProcessEnv, cwd = repo) {
  const child = spawn(process.execPath, args, { cwd, env: { ...process.env, ...env } });
  children.push(child);
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  const first = new Promise<{ line?: string; code?: number | null; stderr: string }>((done) => {
    createInterface({ input: child.stdout! }).once('line', (line) => done({ line, stderr }));
    child.once('exit', (code) => done({ code, stderr }));
  });
  return { child, first };
}

/** The web host as `npm run web` starts it, from a folder holding a stand-in for the built renderer. */
function webHost(dataDir: string, home: string) {
  return start(
    ['--import', tsx, join(repo, 'electron/web-host/main.ts')],
    { AGENT_CONSOLE_DATA_DIR: dataDir, AGENT_CONSOLE_NO_OPEN: '1', AGENT_CONSOLE_WEB_PORT: '0' },
    home,
  );
}

test('a second web host on one folder names the process that holds it and exits; a killed one is taken over', async () => {
  const dataDir = tempDir('agent-console-faults-owner-');
  const home = tempDir('agent-console-faults-home-');
  dirs.push(dataDir, home);
  mkdirSync(join(home, 'out/renderer'), { recursive: true });
  writeFileSync(join(home, 'out/renderer/index.html'), '<!doctype html><title>stand-in</title>');
  writeFileSync(join(home, 'package.json'), JSON.stringify({ version: '0.0.0-faults' }));

  const first = webHost(dataDir, home);
  expect((await first.first).line).toMatch(/^Agent Console: http/);

  const second = webHost(dataDir, home);
  const refused = await second.first;
  expect(refused.code).toBe(1);
  expect(refused.stderr).toContain(`The data folder ${dataDir} is in use by the Agent Console web host`);
  expect(refused.stderr).toContain(`process ${first.child.pid}`);

  // The owner is killed: its lock is stale at once (its process is gone), the next one starts.
  first.child.kill('SIGKILL');
  await new Promise((done) => first.child.once('exit', done));
  const third = webHost(dataDir, home);
  expect((await third.first).line).toMatch(/^Agent Console: http/);
}, 90_000);

test('two processes writing settings.json at once lose none of each other’s writes', async () => {
  const dataDir = tempDir('agent-console-faults-settings-');
  dirs.push(dataDir);
  const writer = (prefix: string) =>
    runNode(['--import', 'tsx', 'test/faults/settings-writer.ts', dataDir, prefix, '60'], { env: {} });
  const [a, b] = await Promise.all([writer('a'), writer('b')]);
  expect(a.stderr + b.stderr).toBe('');
  const settings = JSON.parse(readFileSync(join(dataDir, 'settings.json'), 'utf8')) as {
    profiles: { name: string }[];
  };
  const names = new Set(settings.profiles.map((p) => p.name));
  expect(names.size).toBe(120);
}, 90_000);

test('a second mock on one state file refuses, naming the first; the CLI uses the running one', async () => {
  const dataDir = tempDir('agent-console-faults-mocks-');
  dirs.push(dataDir);
  const mockArgs = standaloneMockArgs(join(dataDir, 'mock'));
  const first = start(mockArgs, {});
  const announced = JSON.parse((await first.first).line ?? '{}') as { baseUrl: string };
  expect(announced.baseUrl).toMatch(/^https:\/\/127\.0\.0\.1:/);

  const second = await start(mockArgs, {}).first;
  expect(second.code).not.toBe(0);
  expect(second.stderr).toContain(`The data folder ${join(dataDir, 'mock')} is in use by a mock`);
  expect(second.stderr).toContain(`process ${first.child.pid}`);

  const list = await runNode(['bin/agent-console.js', 'profiles', 'list', '--json'], {
    env: {
      AGENT_CONSOLE_DATA_DIR: dataDir,
    },
  });
  expect(list.code).toBe(0);
  expect(list.stdout).toContain(announced.baseUrl);
}, 90_000);
