// `agent-console test` against the hostile server, as CI runs it: the key in AGENT_API_KEY with
// --base-url (and --ca for HTTPS). The reports (JUnit to a file, JSON and pretty to stdout), stderr
// and the data folder hold no 12-character run of the key. A suite file from a pull request that
// puts secrets from the environment into a case's name is refused before anything is sent, with
// the file, line and field; a secret the suite declares (`env: [CI_SECRET]`) is sent as asked and
// masked wherever the server's echo of it would otherwise land.
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { testService } from '../support/keychain';
import { removeDir, tempDir } from '../support/mock';
import { startHostileServer, type HostileServer } from './hostile-server';
import { makeTls } from './hostile-tls';
import { fileLeaks, inPool, leaks, runCli, type Run, type Secret } from './hostile-support';
import { plantKey } from './leak-check';

const KEY = plantKey('hk5');
const CI_SECRET = `ci-secret-${randomBytes(12).toString('hex')}`;
const SECRETS: Secret[] = [
  { name: 'KEY', value: KEY },
  { name: 'CI_SECRET', value: CI_SECRET },
];
const service = testService('hostile-test-command');
let dir: string;
let dataDir: string;
let http: HostileServer;
let https: HostileServer;
/** Only the pull request's suite is pointed here: it must receive nothing. */
let prServer: HostileServer;
let caFile: string;

const SUITE = `name: Hostile replies
cases:
  - name: streamed reply
    message: hello
    assert:
      - contains: pong
  - name: whole reply
    stream: false
    message: hello
    assert:
      - equals: pong
  - name: a stream that fails
    message: stream-error
    assert:
      - completes: true
  - name: a refusal
    stream: false
    message: fail
  - name: a thread
    thread: true
    steps:
      - message: hello
        assert:
          - contains: pong
      - message: again
        assert:
          - remembers: hello
`;

/** A pull request's suite: the name would carry both secrets into every report. Line 3 is the name. */
const PR_SUITE = `name: Pull request suite
cases:
  - name: 'exfil {{env.AGENT_API_KEY}} | {{env.CI_SECRET}}'
    message: '{{env.CI_SECRET}}'
`;

const DECLARED_SUITE = `name: Declared secret
env: [CI_SECRET]
cases:
  - name: sends the declared secret
    message: 'token {{env.CI_SECRET}}'
`;

function agentTest(args: string[], env: Record<string, string> = {}): Promise<Run> {
  return runCli(['test', ...args, '--data-dir', dataDir], {
    env: { AGENT_CONSOLE_KEYCHAIN_SERVICE: service, AGENT_API_KEY: KEY, CI_SECRET, ...env },
  });
}

const runLeaks = (label: string, run: Run, report?: string): string[] => [
  ...leaks(`${label} stdout`, run.stdout, SECRETS),
  ...leaks(`${label} stderr`, run.stderr, SECRETS),
  ...(report && existsSync(report) ? leaks(`${label} report`, readFileSync(report, 'utf8'), SECRETS) : []),
];

beforeAll(async () => {
  dir = tempDir('agent-console-hostile-test-');
  dataDir = join(dir, 'data');
  const tls = await makeTls();
  [http, https, prServer] = await Promise.all([
    startHostileServer(),
    startHostileServer({ tls }),
    startHostileServer(),
  ]);
  caFile = join(dir, 'hostile-ca.pem');
  writeFileSync(caFile, tls.ca);
  writeFileSync(join(dir, 'hostile.yaml'), SUITE);
  writeFileSync(join(dir, 'pr-suite.yaml'), PR_SUITE);
  writeFileSync(join(dir, 'declared.yaml'), DECLARED_SUITE);
}, 30_000);

afterAll(async () => {
  await Promise.all([http?.close(), https?.close(), prServer?.close()]);
  if (dir) removeDir(dir);
});

describe('agent-console test against the hostile server', () => {
  test('JUnit, JSON and pretty reports, stdout and stderr hold no part of the key', async () => {
    const suite = join(dir, 'hostile.yaml');
    const runs = await inPool(
      [
        { label: 'junit plain', base: http.url('plain'), reporter: 'junit', out: join(dir, 'plain.xml') },
        { label: 'json u005f', base: http.url('u005f'), reporter: 'json' },
        {
          label: 'junit https escaped',
          base: https.url('escaped'),
          reporter: 'junit',
          out: join(dir, 'tls.xml'),
        },
        { label: 'json https plain', base: https.url('plain'), reporter: 'json', out: join(dir, 'tls.json') },
        { label: 'pretty escaped', base: http.url('escaped'), reporter: 'pretty' },
      ],
      2,
      async (r) => ({
        ...r,
        run: await agentTest([
          suite,
          '--base-url',
          r.base,
          '--reporter',
          r.reporter,
          ...(r.out ? ['--out', r.out] : []),
          ...(r.base.startsWith('https') ? ['--ca', caFile] : []),
        ]),
      }),
    );
    // The setup holds: each run reached the server, failed its cases (exit 1) and wrote its report.
    for (const { label, run, reporter, out } of runs) {
      expect.soft(run.code, `${label}: ${run.stderr.slice(0, 300)}`).toBe(1);
      const report = out ? readFileSync(out, 'utf8') : run.stdout;
      if (reporter === 'junit') expect.soft(report, label).toContain('<testcase');
      if (reporter === 'json') expect.soft(() => JSON.parse(report), label).not.toThrow();
    }
    // Five cases a run (a thread's second turn is not sent once its first has failed).
    expect.soft(http.requests.filter((r) => r.bearer === KEY).length).toBeGreaterThanOrEqual(15);
    expect.soft(https.requests.filter((r) => r.bearer === KEY).length).toBeGreaterThanOrEqual(10);
    expect(runs.flatMap(({ label, run, out }) => runLeaks(label, run, out))).toEqual([]);
  }, 90_000);

  test('the data folder afterwards holds no part of the key', () => {
    expect(fileLeaks(dataDir, SECRETS)).toEqual([]);
  });
});

describe("a suite file from someone else's pull request", () => {
  test('secrets from the environment in a case name: refused with file, line and field, nothing sent', async () => {
    const file = join(dir, 'pr-suite.yaml');
    const report = join(dir, 'pr.xml');
    const run = await agentTest([
      file,
      '--base-url',
      prServer.url('plain'),
      '--reporter',
      'junit',
      '--out',
      report,
    ]);
    expect.soft(prServer.requests.map((r) => `${r.method} ${r.path}`)).toEqual([]);
    expect.soft(runLeaks('pr', run, report)).toEqual([]);
    expect.soft(run.stderr).toContain(`${file}:3`);
    expect.soft(run.stderr).toMatch(/\bname\b/);
    expect(run.code, run.stderr.slice(0, 300)).toBe(2);
  }, 60_000);

  test('a secret the suite declares (env: [CI_SECRET]) is sent, and masked in every output and file', async () => {
    const report = join(dir, 'declared.xml');
    const before = http.requests.length;
    const run = await agentTest([
      join(dir, 'declared.yaml'),
      '--base-url',
      http.url('plain'),
      '--reporter',
      'junit',
      '--out',
      report,
    ]);
    const json = await agentTest([
      join(dir, 'declared.yaml'),
      '--base-url',
      http.url('plain'),
      '--reporter',
      'json',
    ]);
    expect.soft(run.code, run.stderr.slice(0, 300)).toBe(0);
    expect.soft(json.code, json.stderr.slice(0, 300)).toBe(0);
    // The server was asked with the secret, and its reply says it back.
    expect.soft(http.requests.slice(before).some((r) => r.body.includes(CI_SECRET))).toBe(true);
    expect([
      ...runLeaks('declared junit', run, report),
      ...runLeaks('declared json', json),
      ...fileLeaks(dataDir, SECRETS),
    ]).toEqual([]);
  }, 60_000);
});
