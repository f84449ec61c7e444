// How the CLI reads its command line and speaks, as a user runs it: global options before or after
// any command, usage errors in one line, output into a pipe that closes early, and the shell
// completions, run in real shells. Real processes against a standalone mock.
import { spawn, spawnSync, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ApiError, describeError } from '../../electron/core/api-error';
import { runNode, type ProcessRun } from '../support/run-process';
import { removeDir, standaloneMockArgs, tempDir } from '../support/mock';

const CLI = resolve('bin/agent-console.js');
const has = (shell: string): boolean =>
  spawnSync('sh', ['-c', `command -v ${shell}`], { stdio: 'ignore' }).status === 0;

let dataDir: string;
/** Where the CLI would look when --data-dir were not read: empty, with no mock running. */
let elsewhere: string;
/** A folder with an `agent-console` on it, as an installed CLI is on PATH. */
let binDir: string;
let mockProcess: ChildProcessWithoutNullStreams;
let mockInfo: { baseUrl: string; caCertPath: string; controlToken: string };

const env = (): NodeJS.ProcessEnv => ({
  AGENT_CONSOLE_DATA_DIR: elsewhere,
  PATH: `${binDir}:${process.env.PATH ?? ''}`,
});

const cli = (args: string[], stdin?: string): Promise<ProcessRun> =>
  runNode([CLI, ...args], { env: env(), ...(stdin !== undefined ? { stdin } : {}) });

/** A shell command line, as typed (with `agent-console` on PATH). */
function shell(name: string, script: string): ProcessRun {
  const run = spawnSync(name, ['-c', script], { env: { ...process.env, ...env() }, encoding: 'utf8' });
  return { code: run.status, stdout: run.stdout, stderr: run.stderr };
}

async function control(path: string, body: unknown): Promise<void> {
  const { Agent, request } = await import('undici');
  const dispatcher = new Agent({
    connect: { ca: (await import('node:fs')).readFileSync(mockInfo.caCertPath) },
  });
  const res = await request(`${mockInfo.baseUrl}/__control${path}`, {
    method: 'PATCH',
    dispatcher,
    headers: { authorization: `Bearer ${mockInfo.controlToken}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  await res.body.text();
  await dispatcher.close();
  expect(res.statusCode).toBe(200);
}

beforeAll(async () => {
  dataDir = tempDir('agent-console-cmdline-');
  elsewhere = tempDir('agent-console-elsewhere-');
  binDir = join(tempDir('agent-console-bin-'), 'bin');
  mkdirSync(binDir);
  writeFileSync(join(binDir, 'agent-console'), `#!/bin/sh\nexec "${process.execPath}" "${CLI}" "$@"\n`);
  chmodSync(join(binDir, 'agent-console'), 0o755);
  mockProcess = spawn(process.execPath, standaloneMockArgs(join(dataDir, 'mock')));
  const line = await new Promise<string>((done) =>
    createInterface({ input: mockProcess.stdout }).once('line', done),
  );
  mockInfo = JSON.parse(line);
}, 30_000);

afterAll(() => {
  mockProcess.kill('SIGTERM');
  removeDir(dataDir);
  removeDir(elsewhere);
  removeDir(resolve(binDir, '..'));
});

describe('--profile, --data-dir and --json before or after any command', () => {
  const globals = (): string[] => ['--profile', 'Embedded mock', '--data-dir', dataDir, '--json'];
  // Each command with options of its own where it has any: the case that failed before.
  test.each([
    ['keys', ['keys', 'list']],
    ['profiles', ['profiles', 'list']],
    ['agents', ['agents', '--limit', '2']],
    ['conversations', ['conversations', '--agent', 'echo', '--limit', '1']],
    ['usage', ['usage', '--days', '1']],
    ['health', ['health']],
    ['threads', ['threads', 'list']],
    ['chat', ['chat', '--agent', 'echo', '--no-stream', '--session', 'globalOpts1', 'hi']],
    ['test', ['test', 'examples/agent-tests/echo.yaml', '--reporter', 'json']],
    ['monitor', ['monitor', '--metrics', '127.0.0.1:0']],
    ['mock', ['mock', 'state']],
    ['search', ['search', 'refund', '4711']],
    ['completion', ['completion', 'bash']],
  ])(
    '%s',
    async (_name, command) => {
      const before = await cli([...globals(), ...command]);
      const after = await cli([...command, ...globals()]);
      for (const run of [before, after]) {
        expect(run.stderr).not.toMatch(/unknown option/i);
        expect(run.code, run.stderr).toBe(before.code);
      }
      if (command[0] === 'monitor') {
        // The data folder read was the one given: it has no monitors.
        expect(after.stderr).toContain('No monitors to run');
        return;
      }
      expect(before.code, before.stderr).toBe(0);
      if (command[0] !== 'completion') {
        // --json was read both times (and --data-dir: elsewhere has no mock for `mock state`).
        expect(() => JSON.parse(after.stdout)).not.toThrow();
        expect(Object.keys(JSON.parse(after.stdout))).toEqual(Object.keys(JSON.parse(before.stdout)));
      }
    },
    60_000,
  );
});

describe('messages', () => {
  test('an unknown option is one line naming the closest option and where the help is; exit 2', async () => {
    const run = await cli(['--data-dir', dataDir, 'conversations', '--agnet', 'echo']);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(
      'agent-console: unknown option --agnet; did you mean --agent?\nSee `agent-console conversations --help`.\n',
    );
  });

  test('a word that names no subcommand of a group is said as such', async () => {
    const run = await cli(['--data-dir', dataDir, 'keys', 'lsit']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('unknown keys command lsit: use list, add or remove.');
  });

  test('a 429 says once when to retry', () => {
    const error = new ApiError({
      status: 429,
      code: 'RATE_LIMITED',
      message: 'Rate limit of 30 requests per minute exceeded. Retry after 2 seconds.',
      retryAfterS: 2,
    });
    expect(describeError(error).match(/retry after/gi)).toHaveLength(1);
    const silent = new ApiError({ status: 429, code: 'RATE_LIMITED', message: 'Slow down.', retryAfterS: 2 });
    expect(describeError(silent)).toContain('Slow down. Retry after 2 s.');
  });

  test('profiles add --key takes a key name; a key-shaped value is refused without being shown', async () => {
    const help = await cli(['profiles', 'add', '--help']);
    expect(help.stdout).toMatch(/--key <key-name>\s+the NAME of a key stored with `keys add`/);
    const secret = `ams_${'a1B2c3D4'.repeat(4)}`;
    const run = await cli([
      '--data-dir',
      dataDir,
      'profiles',
      'add',
      '--name',
      'pasted',
      '--base-url',
      'https://agents.example.com',
      '--key',
      secret,
    ]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--key takes the name of a key stored with `keys add`');
    expect(`${run.stdout}${run.stderr}`).not.toContain(secret.slice(-4));
  });

  test('tables have headers for people', async () => {
    const run = await cli(['--data-dir', dataDir, 'profiles']);
    expect(run.stdout.split('\n')[0]).toMatch(
      /^Active\s+Name\s+Base URL\s+Key\s+CA certificate\s+Proxy\s+Client certificate$/,
    );
  });
});

describe('output into a pipe that closes early', () => {
  beforeAll(async () => {
    await control('/agents/storyteller', { chunkCount: 400, chunkDelayMs: 2, latencyMs: 0 });
  });

  // `true` reads nothing and quits, as less does when q is pressed at once.
  test.each([
    ['head -c 100', 100],
    ['true', 0],
  ])(
    '| %s ends the CLI quietly with exit 0',
    (reader, bytes) => {
      const run = shell(
        'bash',
        `set -o pipefail; agent-console --data-dir '${dataDir}' chat --agent storyteller 'a long story' | ${reader}`,
      );
      expect(run.stderr).toBe('');
      expect(run.code).toBe(0);
      expect(Buffer.byteLength(run.stdout)).toBe(bytes);
    },
    30_000,
  );
});

describe('shell completion', () => {
  test('bash: the script registers, completes commands, options and their values, and profile names', () => {
    const complete = (words: string[]): string[] => {
      const run = shell(
        'bash',
        `eval "$(agent-console completion bash)"; COMP_WORDS=(${words.map((w) => `'${w}'`).join(' ')}); ` +
          `COMP_CWORD=${words.length - 1}; _agent_console; printf '%s\\n' "\${COMPREPLY[@]}"`,
      );
      expect(run.stderr).toBe('');
      return run.stdout.split('\n').filter(Boolean);
    };
    const registered = shell('bash', 'eval "$(agent-console completion bash)"; complete -p agent-console');
    expect(registered.stdout.trim()).toBe('complete -F _agent_console agent-console');
    expect(complete(['agent-console', 'pro'])).toEqual(['profiles']);
    expect(complete(['agent-console', '--json', 'profiles', ''])).toEqual(
      expect.arrayContaining(['list', 'add', 'use', 'remove']),
    );
    expect(complete(['agent-console', 'test', '--rep'])).toEqual(['--reporter', '--report-url', '--repeat']);
    // The history's subcommands and their options come from the same tree.
    expect(complete(['agent-console', 'test', 'r'])).toEqual(expect.arrayContaining(['runs']));
    expect(complete(['agent-console', 'test', 'd'])).toEqual(expect.arrayContaining(['diff']));
    expect(complete(['agent-console', 'test', 'diff', '--a'])).toEqual(['--all']);
    expect(complete(['agent-console', 'test', '--fail-on', ''])).toEqual(['any-failure', 'regression']);
    expect(complete(['agent-console', 'test', '--reporter', 'j'])).toEqual(['junit', 'json']);
    expect(complete(['agent-console', 'sea'])).toEqual(['search']);
    expect(complete(['agent-console', 'search', '--s'])).toEqual(['--since']);
    // From the data folder, through the CLI: the built-in profile's name, escaped for the shell.
    expect(complete(['agent-console', '--data-dir', dataDir, 'profiles', 'use', 'Emb'])).toEqual([
      'Embedded\\ mock',
    ]);
    // The agents of the active profile, from the running mock.
    expect(complete(['agent-console', 'chat', '--data-dir', dataDir, '--agent', 'ec'])).toEqual(['echo']);
  }, 60_000);

  test.skipIf(!has('zsh'))(
    'zsh: the script registers its completion and completes profile names (skipped without zsh)',
    () => {
      const registered = shell(
        'zsh',
        'eval "$(agent-console completion zsh)"; print -r -- "$_comps[agent-console]"',
      );
      expect(registered.stderr).toBe('');
      expect(registered.stdout.trim()).toBe('_bash_complete -F _agent_console');
      // As zsh's bash-completion layer calls it (its _bash_complete), for a profile name.
      const named = shell(
        'zsh',
        'eval "$(agent-console completion zsh)"; ' +
          't() { emulate -L sh; setopt kshglob noshglob braceexpand; ' +
          `COMP_WORDS=(agent-console --data-dir '${dataDir}' profiles use Emb); COMP_CWORD=5; ` +
          '_agent_console; print -rl -- "${COMPREPLY[@]}"; }; t',
      );
      expect(named.stderr).toBe('');
      expect(named.stdout.split('\n')).toContain('Embedded\\ mock');
    },
    30_000,
  );

  test.skipIf(!has('fish'))(
    'fish: completes commands, option values and profile names (skipped without fish)',
    () => {
      const complete = (line: string): string[] => {
        const run = shell('fish', `agent-console completion fish | source; complete -C '${line}'`);
        expect(run.stderr).toBe('');
        return run.stdout
          .split('\n')
          .map((l) => l.split('\t')[0] as string)
          .filter(Boolean);
      };
      expect(complete('agent-console pro')).toEqual(['profiles']);
      expect(complete('agent-console test --reporter ')).toEqual([
        'html',
        'json',
        'junit',
        'markdown',
        'pretty',
      ]);
      expect(complete(`agent-console --data-dir ${dataDir} profiles use Emb`)).toEqual(['Embedded mock']);
    },
    60_000,
  );

  test('__complete says nothing and exits 0 when the names cannot be had', async () => {
    const run = await cli(['--data-dir', elsewhere, '--profile', 'nowhere', '__complete', 'agents']);
    expect(run).toMatchObject({ code: 0, stdout: '', stderr: '' });
  });
});
