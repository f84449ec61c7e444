// The data folder is its user's alone under the web host and the CLI, as under Electron. Real
// processes (the CLI's bin/agent-console.js, the web host's bundle) on a folder that does not exist
// yet, with the usual umask (022): every folder they make is 0700, and every file 0600 but the
// mock's public certificates. A folder that is not the user's alone is refused in words before
// anything is written in it, and a link where the console keeps a folder or a file of its own is
// never followed (docs/security.md, "The data folder").
import { randomBytes } from 'node:crypto';
import {
  chmodSync,
  chownSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join, relative } from 'node:path';
import { afterEach, beforeAll, expect, test } from 'vitest';
import type { HealthUpdate } from '../../shared/health';
import { removeDir, tempDir } from '../support/mock';
import { ensureWebHostBuilt, startWebHostProcess, valueOf } from '../support/web-host';
import { runNode } from '../support/run-process';

const posix = test.skipIf(process.platform === 'win32');

/** Public by nature: the certificates a client needs to trust the mock (their key is 0600). */
const PUBLIC_FILES = new Set(['mock/tls/ca.pem', 'mock/tls/server.pem']);

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) removeDir(dir);
});
beforeAll(ensureWebHostBuilt, 120_000);

/** A data folder path whose folder does not exist yet (so the process under test makes it). */
function freshDataDir(): string {
  const parent = tempDir('agent-console-modes-');
  dirs.push(parent);
  return join(parent, 'data');
}

/** `relative path -> octal mode` of the folder and everything in it. */
function modes(root: string): Record<string, string> {
  const found: Record<string, string> = {};
  const walk = (path: string): void => {
    const stat = statSync(path);
    found[relative(root, path) || '.'] = (stat.mode & 0o777).toString(8);
    if (stat.isDirectory()) for (const name of readdirSync(path)) walk(join(path, name));
  };
  walk(root);
  return found;
}

function expectPrivate(root: string, mustHold: string[]): void {
  const all = modes(root);
  for (const path of mustHold) expect(Object.keys(all), `${path} was not made`).toContain(path);
  const wrong = Object.entries(all).filter(([path, mode]) => {
    if (statSync(join(root, path)).isDirectory()) return mode !== '700';
    return !PUBLIC_FILES.has(path) && mode !== '600';
  });
  expect(wrong, JSON.stringify(all, null, 1)).toEqual([]);
}

/** What a chat and a profile switch leave in a new data folder, each private to the user. */
const AFTER_A_CHAT = [
  '.',
  'logs',
  'logs/agent-console.log',
  'mock',
  'mock/mock-state.json',
  'transcripts',
  'settings.json',
];

posix(
  'the CLI makes the data folder, logs/, mock/ and transcripts/ 0700 and its files 0600',
  async () => {
    const dataDir = freshDataDir();
    const env = { AGENT_CONSOLE_DATA_DIR: dataDir };
    const chat = await runNode(['bin/agent-console.js', 'chat', 'hello'], { env: env });
    expect(chat.code, chat.stderr).toBe(0);
    const use = await runNode(['bin/agent-console.js', 'profiles', 'use', 'Embedded mock'], { env: env });
    expect(use.code, use.stderr).toBe(0);
    expectPrivate(dataDir, AFTER_A_CHAT);
  },
  60_000,
);

posix(
  'the web host makes the data folder, logs/, mock/ and transcripts/ 0700 and its files 0600',
  async () => {
    const dataDir = freshDataDir();
    const web = await startWebHostProcess(dataDir);
    try {
      // A session id, as the Playground gives one: the exchange is recorded in a transcript.
      const session = randomBytes(16).toString('hex');
      valueOf(await web.call('chat:send', { message: 'hello', session_id: session, startedHere: true }));
      valueOf(await web.call('profiles:use', { id: 'embedded-mock' }));
      valueOf(await web.call<HealthUpdate>('health:check'));
    } finally {
      expect(await web.stop()).toBe(0);
    }
    expectPrivate(dataDir, [...AFTER_A_CHAT, 'health-history.jsonl']);
  },
  60_000,
);

posix(
  'folders of ours that an earlier version left open to others are made 0700 again',
  async () => {
    const dataDir = freshDataDir();
    for (const name of ['logs', 'mock', 'transcripts'])
      mkdirSync(join(dataDir, name), { recursive: true, mode: 0o755 });
    const list = await runNode(['bin/agent-console.js', 'profiles', 'list'], {
      env: { AGENT_CONSOLE_DATA_DIR: dataDir },
    });
    expect(list.code, list.stderr).toBe(0);
    const all = modes(dataDir);
    expect([all.logs, all.mock, all.transcripts]).toEqual(['700', '700', '700']);
  },
  60_000,
);

/** Root can give a folder away (to `nobody`); nobody else can make one another user owns. */
const asRoot = process.getuid?.() === 0;
const NOBODY = 65534;

/** A CLI call and a web host start on `dataDir`: both refuse it, in words naming it, and leave it empty. */
async function expectRefused(dataDir: string, words: string): Promise<void> {
  const list = await runNode(['bin/agent-console.js', 'profiles', 'list'], {
    env: { AGENT_CONSOLE_DATA_DIR: dataDir },
  });
  expect(list.code, list.stderr).toBe(2); // a usage-class exit: the user's setup, not a failure of ours
  const lines = list.stderr.trim().split('\n');
  expect(lines, list.stderr).toHaveLength(1);
  expect(lines[0]).toContain(`agent-console: `);
  expect(lines[0]).toContain(dataDir);
  expect(lines[0]).toContain(words);
  await expect(startWebHostProcess(dataDir)).rejects.toThrow(words);
  expect(readdirSync(dataDir), 'nothing was written in the refused folder').toEqual([]);
}

test.skipIf(process.platform === 'win32' || !asRoot)(
  'a data folder another user owns is refused by the CLI (exit 2, one line) and the web host (skipped unless root: only root can give a folder to another user)',
  async () => {
    const dataDir = freshDataDir();
    mkdirSync(dataDir, { mode: 0o700 });
    chownSync(dataDir, NOBODY, NOBODY);
    await expectRefused(dataDir, `belongs to another user (uid ${NOBODY})`);
  },
  60_000,
);

posix(
  'a data folder others may write in is refused by the CLI (exit 2, one line) and the web host, its mode left alone',
  async () => {
    const dataDir = freshDataDir();
    mkdirSync(dataDir);
    chmodSync(dataDir, 0o770);
    await expectRefused(dataDir, 'Other users can write in the data folder');
    expect(statSync(dataDir).mode & 0o777).toBe(0o770);
  },
  60_000,
);

posix(
  'a link in place of logs/ is refused, and the folder it points to is neither tightened nor written',
  async () => {
    const dataDir = freshDataDir();
    mkdirSync(dataDir, { mode: 0o700 });
    const elsewhere = tempDir('agent-console-elsewhere-');
    dirs.push(elsewhere);
    chmodSync(elsewhere, 0o755);
    symlinkSync(elsewhere, join(dataDir, 'logs'));
    const list = await runNode(['bin/agent-console.js', 'profiles', 'list'], {
      env: { AGENT_CONSOLE_DATA_DIR: dataDir },
    });
    expect(list.code, list.stderr).toBe(2);
    expect(list.stderr.trim().split('\n'), list.stderr).toHaveLength(1);
    expect(list.stderr).toContain(`${join(dataDir, 'logs')} is a symbolic link`);
    await expect(startWebHostProcess(dataDir)).rejects.toThrow(`${join(dataDir, 'logs')} is a symbolic link`);
    expect(statSync(elsewhere).mode & 0o777).toBe(0o755);
    expect(readdirSync(elsewhere)).toEqual([]);
  },
  60_000,
);

posix(
  'a link in place of the health journal is never written through: the file it points to stays as it was',
  async () => {
    const dataDir = freshDataDir();
    mkdirSync(dataDir, { mode: 0o700 });
    const elsewhere = tempDir('agent-console-elsewhere-');
    dirs.push(elsewhere);
    const target = join(elsewhere, 'x');
    // A journal's header, so that a console that follows the link would take it for its own and append.
    const theirs = `${JSON.stringify({ kind: 'agent-console/health-history', v: 1 })}\n`;
    writeFileSync(target, theirs, { mode: 0o644 });
    if (asRoot) chownSync(target, NOBODY, NOBODY);
    const journal = join(dataDir, 'health-history.jsonl');
    symlinkSync(target, journal);
    const web = await startWebHostProcess(dataDir);
    try {
      valueOf(await web.call<HealthUpdate>('health:check'));
      valueOf(await web.call<HealthUpdate>('health:check'));
    } finally {
      expect(await web.stop()).toBe(0);
    }
    expect(readFileSync(target, 'utf8')).toBe(theirs);
    expect(statSync(target).mode & 0o777).toBe(0o644);
    if (asRoot) expect(statSync(target).uid).toBe(NOBODY);
    // The journal is a file of the console's own again, written where the link was.
    const replaced = lstatSync(journal);
    expect(replaced.isFile()).toBe(true);
    expect(replaced.mode & 0o777).toBe(0o600);
    expect(readFileSync(journal, 'utf8').split('\n').length).toBeGreaterThan(2);
  },
  60_000,
);
