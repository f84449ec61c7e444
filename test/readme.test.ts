// The README's mock instructions, run as written: `npm run -s mock`, then its curl lines.
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { findRunningEndpoint } from '../mock/endpoint-file';
import { removeDir, tempDir } from './support/mock';

const hasCurl = spawnSync('sh', ['-c', 'command -v curl'], { stdio: 'ignore' }).status === 0;
const readme = readFileSync('README.md', 'utf8');
let dataDir: string;
let mock: ReturnType<typeof spawn>;
let info: { baseUrl: string; caCertPath: string; keys: Record<string, string>; controlToken: string };

beforeAll(async () => {
  dataDir = tempDir('agent-console-readme-');
  mock = spawn('npm', ['run', '-s', 'mock', '--', '--port', '0', '--data-dir', join(dataDir, 'mock')], {
    stdio: ['ignore', 'pipe', 'ignore'],
    detached: true,
  });
  const line = await new Promise<string>((resolve) =>
    createInterface({ input: mock.stdout as NodeJS.ReadableStream }).once('line', resolve),
  );
  info = JSON.parse(line);
}, 30_000);

afterAll(async () => {
  // The mock itself (not npm above it), from the endpoint file it wrote: it saves its state as it stops.
  const mockPid = findRunningEndpoint(join(dataDir, 'mock'))?.pid;
  if (mock.pid) process.kill(-mock.pid, 'SIGTERM'); // npm and the mock under it
  const alive = (pid: number): boolean => {
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  };
  for (let waited = 0; mockPid !== undefined && alive(mockPid) && waited < 10_000; waited += 50) {
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  removeDir(dataDir);
}, 15_000);

test('`npm run -s mock` prints exactly one line of JSON with the base URL, the CA, the demo keys and the control token', () => {
  expect(info.baseUrl).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
  expect(readFileSync(info.caCertPath, 'utf8')).toContain('BEGIN CERTIFICATE');
  expect(Object.keys(info.keys).sort()).toEqual(['free', 'pro', 'revoked', 'tier30', 'ultra']);
  expect(info.controlToken).toMatch(/^[A-Za-z0-9_-]{43}$/);
  expect(readFileSync(join(dataDir, 'mock', 'control-token'), 'utf8').trim()).toBe(info.controlToken);
});

test.skipIf(!hasCurl)(
  "the README's control-path curl works as written with the token, and is refused without it (skipped where curl is not installed)",
  () => {
    const block = /### Control path[\s\S]*?```sh\n([\s\S]*?)```/.exec(readme)?.[1] ?? '';
    const script = block.replaceAll('https://127.0.0.1:8443', info.baseUrl).replace(/^TOKEN=.*$/gm, '');
    expect(script).toContain('Authorization: Bearer $TOKEN');
    const run = (token: string) =>
      spawnSync('sh', ['-c', `${script.trim()} -s -w ' %{http_code}'`], {
        env: { ...process.env, TOKEN: token, CA: info.caCertPath },
        encoding: 'utf8',
      });
    const refused = run('not-the-token');
    expect(refused.stdout).toContain('INVALID_CONTROL_TOKEN');
    expect(refused.stdout.trimEnd().endsWith(' 401')).toBe(true);
    const done = run(info.controlToken);
    expect(done.status, done.stderr).toBe(0);
    expect(done.stdout).toContain('"status":"unhealthy"');
    expect(done.stdout.trimEnd().endsWith(' 200')).toBe(true);
  },
);

test.skipIf(!hasCurl)('the README curl lines work as written (skipped where curl is not installed)', () => {
  const block = /Call it with curl[\s\S]*?```sh\n([\s\S]*?)```/.exec(readme)?.[1] ?? '';
  const script = block.replaceAll('https://127.0.0.1:8443', info.baseUrl);
  const curlLines = script.split('\n').filter((l) => l.startsWith('curl'));
  expect(curlLines.length).toBeGreaterThanOrEqual(2);
  const run = spawnSync('sh', ['-c', script.replace(/^(KEY|CA)=.*$/gm, '')], {
    env: { ...process.env, KEY: info.keys.pro, CA: info.caCertPath },
    encoding: 'utf8',
  });
  expect(run.status, run.stderr).toBe(0);
  // curl prints the agents JSON with no newline, then the event stream.
  const agentsJson = run.stdout.slice(0, run.stdout.indexOf('data: '));
  expect(JSON.parse(agentsJson).agents.length).toBeGreaterThan(0);
  expect(run.stdout).toContain('data: {"content":"Echo: hello"}');
  expect(run.stdout.trimEnd().endsWith('data: [DONE]')).toBe(true);
});
