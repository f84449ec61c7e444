// Issue 13, point 10: the data folder is its user's alone under the web host and the CLI, as under
// Electron. Real processes (the CLI's bin/agent-console.js, the web host's bundle) on a folder that
// does not exist yet, with the usual umask (022): every folder they make is 0700, and every file
// 0600 but the mock's public certificates.
import { randomBytes } from 'node:crypto';
import { mkdirSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterEach, beforeAll, expect, test } from 'vitest';
import type { HealthUpdate } from '../../shared/health';
import { removeDir, tempDir } from '../support/mock';
import { ensureWebHostBuilt, startWebHostProcess, valueOf } from '../support/web-host';
import { run } from './processes';

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
    const chat = await run(['bin/agent-console.js', 'chat', 'hello'], env);
    expect(chat.code, chat.stderr).toBe(0);
    const use = await run(['bin/agent-console.js', 'profiles', 'use', 'Embedded mock'], env);
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
    const list = await run(['bin/agent-console.js', 'profiles', 'list'], { AGENT_CONSOLE_DATA_DIR: dataDir });
    expect(list.code, list.stderr).toBe(0);
    const all = modes(dataDir);
    expect([all.logs, all.mock, all.transcripts]).toEqual(['700', '700', '700']);
  },
  60_000,
);
