// The CLI and web host start from V8's code cache (electron/launch/code-cache.ts): a call
// leaves the bytecode it compiled in the user's cache folder, and the next call of the same command
// starts from it. The cache must never change what a command does: a damaged cache file, a folder
// that cannot be written or one another user owns are a slower start, nothing else.
import { spawnSync } from 'node:child_process';
import { chmodSync, chownSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, beforeEach, expect, test } from 'vitest';
import { ensureWebHostBuilt } from '../support/web-host';
import { removeDir, tempDir } from '../support/mock';

beforeAll(async () => {
  await ensureWebHostBuilt();
}, 120_000);

/** Each test's own folder: the cache folders it tries, and the data folder every call uses. */
let root: string;
beforeEach(() => {
  root = tempDir();
});
afterEach(() => removeDir(root));

function cli(args: string[], cacheDir: string, nodeFlags: string[] = []) {
  const run = spawnSync(process.execPath, [...nodeFlags, 'out/node/cli.js', ...args], {
    env: {
      ...process.env,
      AGENT_CONSOLE_CODE_CACHE: cacheDir,
      AGENT_CONSOLE_CODE_CACHE_REPORT: '1',
      AGENT_CONSOLE_DATA_DIR: join(root, 'data'),
    },
    encoding: 'utf8',
    timeout: 60_000,
  });
  const report = /^code cache: (\w+)$/m.exec(run.stderr)?.[1];
  return { code: run.status, stdout: run.stdout, stderr: run.stderr, cache: report };
}

/** Two calls with the cache in `cacheDir`: both run as they would with none, and neither keeps one. */
function expectNotCached(cacheDir: string, stdout: string): void {
  for (let i = 0; i < 2; i++)
    expect(cli(['--help'], cacheDir)).toMatchObject({ code: 0, cache: 'none', stdout });
}

const cacheFiles = (dir: string, command: string) =>
  readdirSync(dir).filter((name) => name.startsWith(`cli.bundle.cjs.${command}.`) && name.endsWith('.v8'));

test('a second call starts from the cache the first left, with the same output; the cache is private', () => {
  const dir = join(root, 'cache');
  const first = cli(['--help'], dir);
  expect(first).toMatchObject({ code: 0, cache: 'none' });
  expect(first.stdout).toContain('agents [--limit N]');
  const [file] = cacheFiles(dir, 'help');
  expect(file).toBeDefined();
  expect(statSync(dir).mode & 0o777).toBe(0o700);
  expect(statSync(join(dir, file as string)).mode & 0o777).toBe(0o600);

  const second = cli(['--help'], dir);
  expect(second).toMatchObject({ code: 0, cache: 'accepted', stdout: first.stdout });
});

test('each command keeps its own cache, and a command that opens the core runs the same from it', () => {
  const dir = join(root, 'cache');
  const first = cli(['profiles', 'list', '--json'], dir);
  expect(first.code, first.stderr).toBe(0);
  expect(first.cache).toBe('none');
  const second = cli(['profiles', 'list', '--json'], dir);
  expect(second).toMatchObject({ code: 0, cache: 'accepted' });
  // Each call starts its own embedded mock (a new port); the profiles are otherwise the same.
  const profiles = (out: string) =>
    (JSON.parse(out) as { id: string; name: string; active: boolean }[]).map(({ id, name, active }) => ({
      id,
      name,
      active,
    }));
  expect(profiles(second.stdout)).toEqual(profiles(first.stdout));
  expect(profiles(second.stdout)).toContainEqual({
    id: 'embedded-mock',
    name: 'Embedded mock',
    active: true,
  });
  expect(cacheFiles(dir, 'profiles')).toHaveLength(1);
  expect(cacheFiles(dir, 'help')).toHaveLength(0);
}, 60_000);

test("a call's few replies stay on WebAssembly's baseline code: no TurboFan compile for it to wait for", () => {
  // undici parses HTTP with llhttp in WebAssembly. Node 20's V8 recompiled its parser with TurboFan
  // after a reply or two, 80–100 ms of CPU that the call waited for before it exited;
  // the launcher gives V8 newer V8's tiering budget. V8 names the compiler of each function it makes.
  const run = cli(['agents', '--json'], join(root, 'cache'), ['--trace-wasm-compilation-times']);
  expect(run.code, run.stderr).toBe(0);
  expect(run.stdout).toContain('"slug": "echo"');
  expect(run.stdout).toContain('using Liftoff');
  expect(run.stdout).not.toContain('using TurboFan');
}, 60_000);

test('a damaged cache file is refused by V8 and written anew; the command runs the same', () => {
  const dir = join(root, 'cache');
  const clean = cli(['--help'], dir);
  const file = join(dir, cacheFiles(dir, 'help')[0] as string);
  const garbage = Buffer.alloc(statSync(file).size, 0x5a);
  writeFileSync(file, garbage);
  const damaged = cli(['--help'], dir);
  expect(damaged).toMatchObject({ code: 0, cache: 'rejected', stdout: clean.stdout });
  expect(readFileSync(file).equals(garbage)).toBe(false);
  expect(cli(['--help'], dir)).toMatchObject({
    cache: 'accepted',
    stdout: clean.stdout,
  });
});

test('a cache folder that cannot be made, that others may write in or another user owns, is only a slower start', () => {
  const blocked = join(root, 'a-file');
  writeFileSync(blocked, 'not a folder');
  const clean = cli(['--help'], join(root, 'cache'));
  expectNotCached(join(blocked, 'cache'), clean.stdout);
  // A folder of ours that others may write in is not trusted either.
  const open = join(root, 'open');
  mkdirSync(open);
  chmodSync(open, 0o777);
  expectNotCached(open, clean.stdout);
  expect(readdirSync(open)).toEqual([]);
  // Only root can hand a folder to another user; elsewhere the ownership check is not reachable.
  if (process.getuid?.() !== 0) return;
  const theirs = join(root, 'theirs');
  mkdirSync(theirs, { mode: 0o700 });
  chownSync(theirs, 4242, 4242);
  expectNotCached(theirs, clean.stdout);
  expect(readdirSync(theirs)).toEqual([]);
});
