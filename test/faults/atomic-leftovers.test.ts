// No temp files left after crashes. write-file-atomic writes `<file>.<number>`
// and renames it over the file; a kill -9 in between leaves the temp file. The next start removes
// those nobody has written to for a minute (STALE_TEMP_MS: a write in progress, by this or another
// process, touched its file moments ago) and keeps everything else.
import { spawn } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, expect, test } from 'vitest';
import { STALE_TEMP_MS } from '../../electron/core/data-folder';
import { removeDir, tempDir } from '../support/mock';
import { runNode } from '../support/run-process';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) removeDir(dir);
});

const TEMP = /\.json\.\d+$/;

/** Kills (-9) a process in the middle of write-file-atomic writing a large `file`: its temp file stays. */
async function killMidWrite(file: string): Promise<string> {
  const dir = join(file, '..');
  const code = `const writeFileAtomic = require('write-file-atomic');
    const big = JSON.stringify({ padding: 'x'.repeat(32 * 1024 * 1024) });
    (async () => { for (;;) await writeFileAtomic(${JSON.stringify(file)}, big, { mode: 0o600 }); })();`;
  const child = spawn(process.execPath, ['-e', code], { stdio: 'ignore' });
  try {
    const until = Date.now() + 30_000;
    for (;;) {
      const temp = readdirSync(dir).find((name) => TEMP.test(name));
      if (temp) {
        child.kill('SIGKILL');
        await new Promise((resolve) => child.once('exit', resolve));
        return join(dir, temp);
      }
      if (Date.now() > until) throw new Error('No temp file appeared within 30 s.');
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  } finally {
    if (child.exitCode === null) child.kill('SIGKILL');
  }
}

/** Makes a file look untouched for longer than a write could take. */
function age(path: string): void {
  const then = (Date.now() - STALE_TEMP_MS - 5_000) / 1000;
  utimesSync(path, then, then);
}

test('a start removes temp files of writes a kill -9 interrupted, and keeps real files and fresh temp files', async () => {
  const dataDir = tempDir('agent-console-leftovers-');
  dirs.push(dataDir);
  const sessionDir = join(dataDir, 'transcripts', 'transcripts', 'profile.e.embedded_002dmock');
  mkdirSync(sessionDir, { recursive: true });
  mkdirSync(join(dataDir, 'mock'), { recursive: true });

  // A real leftover: a process killed while write-file-atomic was writing a transcript.
  const killed = await killMidWrite(join(sessionDir, 'session.e.abc.json'));
  age(killed);
  // The same shape where the settings and the mock's state are written.
  const leftovers = [
    killed,
    join(dataDir, 'settings.json.3735928559'),
    join(dataDir, 'mock', 'mock-state.json.42'),
  ];
  for (const path of leftovers.slice(1)) {
    writeFileSync(path, '{"half": ');
    age(path);
  }
  // What must stay: real files, a temp file being written right now, and names that only look alike.
  const settings = '{"profiles": [], "keys": []}\n';
  writeFileSync(join(dataDir, 'settings.json'), settings);
  const kept = {
    'settings.json.corrupt-2026-01-01T00-00-00-000Z': '{"old": ',
    'notes.json.bak': 'mine',
    'transcripts/transcripts/profile.e.embedded_002dmock/session.e.real.json': '{"kind": "session"}',
  };
  for (const [name, text] of Object.entries(kept)) {
    writeFileSync(join(dataDir, name), text);
    age(join(dataDir, name));
  }
  const inFlight = join(dataDir, 'health-history.jsonl.77');
  writeFileSync(inFlight, 'being written');

  const exists = (path: string): boolean =>
    readdirSync(join(path, '..')).includes(path.split('/').pop() as string);
  expect(leftovers.map(exists)).toEqual([true, true, true]);

  const list = await runNode(['bin/agent-console.js', 'profiles', 'list'], {
    env: { AGENT_CONSOLE_DATA_DIR: dataDir },
  });
  expect(list.code, list.stderr).toBe(0);
  for (const path of leftovers) expect(exists(path), path).toBe(false);
  expect(readFileSync(join(dataDir, 'settings.json'), 'utf8')).toBe(settings);
  for (const [name, text] of Object.entries(kept))
    expect(readFileSync(join(dataDir, name), 'utf8')).toBe(text);
  expect(readFileSync(inFlight, 'utf8')).toBe('being written');
  // And the log says what went, for whoever wonders.
  expect(readFileSync(join(dataDir, 'logs', 'agent-console.log'), 'utf8')).toMatch(
    /Removed 3 temporary file\(s\) left by an interrupted write/,
  );
}, 90_000);
