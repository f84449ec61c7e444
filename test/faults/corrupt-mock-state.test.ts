// A corrupt or empty mock state file (a crash mid-write on an old version, a
// hand edit, a bad disk) stops nothing. Real processes on a real folder: the CLI's `profiles list`
// and the web host both start, the file is set aside beside itself (never wiped) and the user is
// told where it went.
import { spawn } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterEach, expect, test } from 'vitest';
import { removeDir, tempDir } from '../support/mock';
import { runNode } from '../support/run-process';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) removeDir(dir);
});

for (const [kind, content] of [
  ['corrupt', '{"agents": [ {"slug": "echo", '],
  ['empty', ''],
] as const) {
  test(`a ${kind} mock state file: the CLI lists profiles and the web host serves, the file kept aside`, async () => {
    const dataDir = tempDir(`agent-console-faults-state-${kind}-`);
    dirs.push(dataDir);
    mkdirSync(join(dataDir, 'mock'), { recursive: true });
    writeFileSync(join(dataDir, 'mock', 'mock-state.json'), content);

    const list = await runNode(['bin/agent-console.js', 'profiles', 'list'], {
      env: { AGENT_CONSOLE_DATA_DIR: dataDir },
    });
    expect(list.code, list.stderr).toBe(0);
    expect(list.stdout).toContain('Embedded mock');
    const aside = readdirSync(join(dataDir, 'mock')).filter((f) => f.startsWith('mock-state.json.corrupt'));
    expect(aside).toHaveLength(1);
    expect(list.stderr).toContain(aside[0]);
    expect(readFileSync(join(dataDir, 'mock', aside[0] as string), 'utf8')).toBe(content);

    // The web host (as `npm run web` runs it, the built bundle) on a folder whose state is broken again.
    writeFileSync(join(dataDir, 'mock', 'mock-state.json'), content);
    const web = spawn(process.execPath, ['out/node/web-host.js'], {
      env: { ...process.env, AGENT_CONSOLE_DATA_DIR: dataDir, AGENT_CONSOLE_NO_OPEN: '1' },
    });
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let stderr = '';
        web.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
        createInterface({ input: web.stdout }).on('line', (line) => {
          const match = /^Agent Console: (\S+)/.exec(line);
          if (match?.[1]) resolve(match[1]);
        });
        web.once('exit', (code) => reject(new Error(`the web host exited (${code}): ${stderr}`)));
      });
      expect((await fetch(url)).status).toBe(200);
      // The page is served while the core opens; a bridge call waits for it, and then answers.
      const call = await fetch(url.replace('/?', '/bridge/call/profiles:list?'), {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{}',
      });
      expect(await call.json()).toMatchObject({ ok: true, value: [{ name: 'Embedded mock' }] });
    } finally {
      web.kill('SIGKILL');
    }
    expect(
      readdirSync(join(dataDir, 'mock')).filter((f) => f.startsWith('mock-state.json.corrupt')),
    ).toHaveLength(2);
  }, 60_000);
}
