// The CLI against the hostile server, as a user runs it: `node bin/agent-console.js --data-dir D …`
// with the key added through `keys add` (stdin) into the real keychain and a profile per mode of
// the server (`profiles add`, `--ca FILE` for HTTPS). Every command that reaches the server, plain
// and `--json`, prints no 12-character run of the key on stdout or stderr; `--json` is JSON; the
// server's terminal control sequences reach the terminal escaped, never raw; a reply nested
// 100,000 deep and a 429 asking for a day's wait each end in words a user can read. (The 300 MB
// reply is the web host's and the monitor's: printed whole, it cost the CLI's run a minute.)
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { clearService, openRealKeychain, testService } from '../support/keychain';
import { removeDir, tempDir } from '../support/mock';
import { startHostileServer, type HostileServer } from './hostile-server';
import { makeTls } from './hostile-tls';
import { inPool, leaks, runCli, shown, type Run, type Secret } from './hostile-support';
import { plantKey } from './leak-check';

const KEY = plantKey('hk3');
const RATE_KEY = plantKey('hk4');
const SECRETS: Secret[] = [
  { name: 'KEY', value: KEY },
  { name: 'RATE_KEY', value: RATE_KEY },
];
const service = testService('hostile-cli');
const keychain = await openRealKeychain(testService('hostile-cli-probe'));
let dataDir: string;
let http: HostileServer;
let https: HostileServer;

const cli = (args: string[], options: Parameters<typeof runCli>[1] = {}): Promise<Run> =>
  runCli(['--data-dir', dataDir, ...args], {
    ...options,
    env: { AGENT_CONSOLE_KEYCHAIN_SERVICE: service, AGENT_API_KEY: undefined, ...options.env },
  });

/** Every command the brief names that reaches the server; `ok` when it must succeed. */
const COMMANDS: { args: string[]; ok: boolean }[] = [
  { args: ['agents'], ok: true },
  { args: ['conversations'], ok: true },
  { args: ['threads', 'list'], ok: true },
  { args: ['threads', 'create', '--message', 'hello', '--title', 'A thread'], ok: true },
  { args: ['threads', 'send', 'thr_hostile1', 'again'], ok: true },
  { args: ['usage'], ok: true },
  { args: ['health'], ok: true },
  { args: ['chat', 'hello'], ok: true },
  { args: ['chat', '--no-stream', 'hello'], ok: true },
  { args: ['chat', 'stream-error'], ok: false },
  { args: ['chat', '--no-stream', 'fail'], ok: false },
];

interface Ran {
  label: string;
  json: boolean;
  ok: boolean;
  run: Run;
}

/**
 * Each command, plain and `--json` as asked, on `profile` (`--json` only for the commands
 * `jsonOnly` names, when given); two processes at a time (two cores).
 */
function runAll(profile: string, outputs: ('plain' | 'json')[], jsonOnly?: string[]): Promise<Ran[]> {
  const jobs = COMMANDS.flatMap((c) =>
    outputs
      .filter((output) => output === 'plain' || !jsonOnly || jsonOnly.includes(c.args.join(' ')))
      .map((output) => ({ ...c, json: output === 'json' })),
  );
  return inPool(jobs, 2, async ({ args, ok, json }) => ({
    label: `${json ? '--json ' : ''}${args.join(' ')}`,
    json,
    ok,
    run: await cli([...args, '--profile', profile, ...(json ? ['--json'] : [])]),
  }));
}

/** What went wrong with the setup rather than the product: a command that must work, did not. */
function setupProblems(ran: Ran[]): string[] {
  return ran.flatMap(({ label, ok, json, run }) => {
    if (!ok) return run.code !== 0 ? [] : [`${label}: exit 0 for a refusal`];
    if (run.code !== 0) return [`${label}: exit ${run.code}: ${run.stderr.slice(0, 300)}`];
    if (!json) return [];
    try {
      JSON.parse(run.stdout);
      return [];
    } catch (error) {
      return [`${label}: --json printed no JSON (${(error as Error).message}): ${run.stdout.slice(0, 200)}`];
    }
  });
}

const outputLeaks = (ran: Ran[]): string[] =>
  ran.flatMap(({ label, run }) => [
    ...leaks(`${label} stdout`, run.stdout, SECRETS),
    ...leaks(`${label} stderr`, run.stderr, SECRETS),
  ]);

describe.skipIf(keychain.skipReason !== undefined)(
  `the CLI against the hostile server ${keychain.skipReason ?? ''}`,
  () => {
    beforeAll(async () => {
      dataDir = tempDir('agent-console-hostile-cli-');
      const tls = await makeTls();
      [http, https] = await Promise.all([startHostileServer(), startHostileServer({ tls })]);
      const caFile = join(dataDir, 'hostile-ca.pem');
      writeFileSync(caFile, tls.ca);
      for (const [name, secret] of [
        ['hostile', KEY],
        ['rate', RATE_KEY],
      ] as const) {
        const added = await cli(['keys', 'add', '--name', name], { stdin: `${secret}\n` });
        if (added.code !== 0) throw new Error(`keys add: ${added.stderr}`);
      }
      const profiles: string[][] = [
        ...['plain', 'u005f', 'escaped', 'escapes', 'nested'].map((mode) => [
          '--name',
          mode,
          '--base-url',
          http.url(mode),
          '--key',
          'hostile',
        ]),
        ['--name', 'rate', '--base-url', http.url('retry-after'), '--key', 'rate'],
        [
          '--name',
          'https',
          '--base-url',
          https.url('plain'),
          '--key',
          'hostile',
          '--ca',
          caFile,
          '--allow-new-origin',
        ],
      ];
      for (const args of profiles) {
        const added = await cli(['profiles', 'add', ...args]);
        if (added.code !== 0) throw new Error(`profiles add ${args[1]}: ${added.stderr}`);
      }
    }, 60_000);

    afterAll(async () => {
      await Promise.all([http?.close(), https?.close()]);
      await clearService(service).catch(() => undefined);
      if (dataDir) removeDir(dataDir);
    });

    test.each([
      ['plain', 'plain', ['plain', 'json']],
      ['u005f', 'u005f', ['plain']],
      ['escaped', 'escaped', ['json']],
      ['https', 'https', ['json']],
    ] as const)(
      '%s: agents, conversations, threads, usage, health and chat print no part of the key',
      async (_label, profile, outputs) => {
        const ran = await runAll(profile, [...outputs]);
        expect.soft(setupProblems(ran)).toEqual([]);
        const server = profile === 'https' ? https : http;
        expect.soft(server.requests.filter((r) => r.bearer === KEY).length).toBeGreaterThan(0);
        expect(outputLeaks(ran)).toEqual([]);
      },
      90_000,
    );

    test('a 401 body that echoes the key is masked on stderr (as it is today)', async () => {
      const run = await cli(['chat', '--no-stream', '--profile', 'plain', 'unauthorized']);
      expect(run.code).toBe(3);
      expect(run.stderr).toContain(`***…${KEY.slice(-4)}`);
      expect(outputLeaks([{ label: '401', json: false, ok: false, run }])).toEqual([]);
    });

    test('terminal control sequences from the server reach stdout and stderr escaped, never raw', async () => {
      // JSON.stringify escapes C0 controls but passes C1 through: a few `--json` commands show it.
      const ran = await runAll('escapes', ['plain', 'json'], ['agents', 'health', 'chat --no-stream hello']);
      expect.soft(setupProblems(ran)).toEqual([]);
      // eslint-disable-next-line no-control-regex
      const raw = /[\u0007\u001b\u0080-\u009f]/;
      const problems = ran.flatMap(({ label, run }) => {
        const found: string[] = [];
        for (const stream of ['stdout', 'stderr'] as const) {
          let text: string;
          try {
            text = new TextDecoder('utf-8', { fatal: true }).decode(
              stream === 'stdout' ? run.stdoutBytes : run.stderrBytes,
            );
          } catch {
            found.push(`${label} ${stream}: not UTF-8`);
            continue;
          }
          const at = text.search(raw);
          if (at !== -1)
            found.push(
              `${label} ${stream}: raw control character in "${shown(text.slice(Math.max(0, at - 30), at + 50), SECRETS)}"`,
            );
        }
        // Shown, not dropped: what the server sent is there for the user to see, escaped (\x1b,
        // \u001b, \033, \e, ^[ or ␛ — any of the usual ways of writing ESC).
        if (found.length === 0 && !/\\(x1b|u001b|033|e)|\^\[|␛/i.test(`${run.stdout}${run.stderr}`)) {
          found.push(
            `${label}: no escaped ESC shown: "${shown(`${run.stdout}${run.stderr}`.slice(0, 120), SECRETS)}"`,
          );
        }
        return found;
      });
      expect(problems).toEqual([]);
    }, 90_000);

    test('a health report and an agents list nested 100,000 deep end in an error that says so', async () => {
      const runs = await inPool(
        [['health'], ['health', '--json'], ['agents'], ['agents', '--json']],
        2,
        (args) => cli([...args, '--profile', 'nested']),
      );
      const said = runs.map((run, i) => ({
        i,
        code: run.code,
        stderr: run.stderr.slice(0, 300),
        out: run.stdout.slice(0, 100),
      }));
      for (const run of said) {
        expect.soft(run.code, JSON.stringify(run)).not.toBe(0);
        expect.soft(run.stderr, JSON.stringify(run)).toMatch(/nested/i);
        expect.soft(run.stderr, 'no stack trace').not.toMatch(/^\s+at /m);
      }
    }, 60_000);

    test('a 429 asking to wait a day (Retry-After: 86400) says the wait is capped at 10 minutes', async () => {
      const run = await cli(['chat', '--no-stream', '--profile', 'rate', 'hello'], { timeoutMs: 30_000 });
      expect.soft(run.timedOut).toBe(false);
      expect.soft(run.code).toBe(6);
      expect.soft(outputLeaks([{ label: '429', json: false, ok: false, run }])).toEqual([]);
      expect(run.stderr).toMatch(/10 minutes/);
    }, 60_000);
  },
);
