// `agent-console test` in CI with secrets in the environment: the key given as AGENT_API_KEY with
// --base-url reaches that service and nothing else, and a suite file from a pull request reads
// only the variables it declares, never the key, and what it reads is masked everywhere.
import { randomUUID } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { SuiteRunResult } from '../../shared/suite-run';
import { hasXmllint, junit, NO_XMLLINT, xmllint } from '../support/junit';
import { filesContaining, testService } from '../support/keychain';
import { removeDir, startTestMock, tempDir, type TestMock } from '../support/mock';
import { runNode, type ProcessRun } from '../support/run-process';

let dataDir: string;
/** The JUnit report of the run with declared variables, for the XSD check at the end. */
let declaredReport = '';
const service = testService('test-command-ci');

const cli = (args: string[], env: NodeJS.ProcessEnv = {}): Promise<ProcessRun> =>
  runNode(['bin/agent-console.js', 'test', ...args], {
    env: {
      AGENT_CONSOLE_DATA_DIR: dataDir,
      AGENT_CONSOLE_KEYCHAIN_SERVICE: service,
      AGENT_API_KEY: undefined,
      ...env,
    },
  });

beforeAll(() => {
  dataDir = tempDir('agent-console-test-ci-');
});

afterAll(() => removeDir(dataDir));

describe('CI with AGENT_API_KEY and --base-url', () => {
  let mock: TestMock;
  beforeAll(async () => {
    mock = await startTestMock();
  });
  afterAll(async () => {
    await mock.stop();
    removeDir(mock.dataDir);
  });

  test('runs against that service with that key, which appears nowhere and is saved nowhere', async () => {
    const secret = mock.server.keys.pro;
    const result = await cli(
      [
        'examples/agent-tests/helpdesk.yaml',
        '--base-url',
        mock.server.baseUrl,
        '--ca',
        mock.server.caCertPath,
        '--reporter',
        'json',
      ],
      { AGENT_API_KEY: secret },
    );
    expect(result.code, result.stderr).toBe(0);
    const report = JSON.parse(result.stdout) as SuiteRunResult;
    expect(report.status).toBe('passed');
    expect(report.suites[0]?.cells[0]?.target).toMatchObject({
      profileName: 'AGENT_API_KEY',
      agent: 'helpdesk',
    });
    // The requests reached this mock, with this key.
    const ids = report.suites.flatMap((s) =>
      s.cells.flatMap((c) => c.attempts.flatMap((a) => a.steps.map((x) => x.requestId))),
    );
    const served = mock.server.control.requests().map((r) => r.requestId);
    expect(served).toEqual(expect.arrayContaining(ids));
    expect(`${result.stdout}${result.stderr}`).not.toContain(secret);
    // Neither the key nor the one-run profile is written anywhere in the data folder.
    expect(filesContaining(dataDir, secret)).toEqual([]);
    expect(filesContaining(dataDir, mock.server.baseUrl)).toEqual([]);
  }, 60_000);
});

// A suite file may come from a pull request and run in CI with secrets in the environment: it reads
// only what it declares, never the API key, never into a name, and what it reads is masked.
describe('a suite file from a pull request', () => {
  let mock: TestMock;
  const key = (): string => mock.server.keys.pro;
  const served = (): number => mock.server.control.requests().length;
  const ciArgs = (file: string, out: string): string[] => [
    file,
    '--base-url',
    mock.server.baseUrl,
    '--ca',
    mock.server.caCertPath,
    '--reporter',
    'junit',
    '--out',
    out,
  ];
  beforeAll(async () => {
    mock = await startTestMock();
  });
  afterAll(async () => {
    await mock.stop();
    removeDir(mock.dataDir);
  });

  test('reading AGENT_API_KEY or an undeclared variable exits 2 naming file, line and field, and sends nothing', async () => {
    const ciSecret = `ci-secret-${randomUUID()}`;
    const file = join(dataDir, 'pr-suite.yaml');
    writeFileSync(
      file,
      [
        'name: Innocent looking',
        'targets: { agents: [echo] }',
        'cases:',
        '  - name: "exfil {{env.AGENT_API_KEY}} | {{env.CI_SECRET}}"',
        '    message: "{{env.AGENT_API_KEY}} {{env.CI_SECRET}}"',
        '',
      ].join('\n'),
    );
    const out = join(dataDir, 'pr-suite.xml');
    const before = served();
    const result = await cli(ciArgs(file, out), { AGENT_API_KEY: key(), CI_SECRET: ciSecret });
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toContain(
      `${file}:4:5: cases[0].name: Names are shown in reports; they cannot read the environment ({{env.AGENT_API_KEY}}).`,
    );
    expect(result.stderr).toContain(
      `${file}:5:5: cases[0].message: AGENT_API_KEY holds the API key: a suite file cannot read it.`,
    );
    expect(result.stderr).toContain(
      `${file}:5:5: cases[0].message: {{env.CI_SECRET}} reads an environment variable the suite does not declare`,
    );
    // The report names the file as a failure, and no value it tried to read.
    const report = readFileSync(out, 'utf8');
    expect(report).toContain('AGENT_API_KEY holds the API key: a suite file cannot read it.');
    for (const secret of [key(), ciSecret]) {
      expect(`${result.stdout}${result.stderr}${report}`).not.toContain(secret);
    }
    // Nothing reached the service: a file that does not load sends nothing.
    expect(served()).toBe(before);
  }, 60_000);

  test('a declared variable is read and sent, and its value is nowhere in the output, the report or the data folder', async () => {
    const ciSecret = `ci-secret-${randomUUID()}`;
    const file = join(dataDir, 'declared.yaml');
    writeFileSync(
      file,
      [
        'name: Declared',
        'env: [CI_SECRET, CI_PIN]',
        'targets: { agents: [echo] }',
        'cases:',
        '  - name: deploys with the token',
        '    message: "deploy with {{env.CI_SECRET}} and {{env.CI_PIN}}"',
        '    assert:',
        '      - starts-with: "Echo: deploy with ***"',
        '      - contains: "{{env.CI_SECRET}}"',
        '',
      ].join('\n'),
    );
    const out = join(dataDir, 'declared.xml');
    const before = served();
    const result = await cli(ciArgs(file, out), {
      AGENT_API_KEY: key(),
      CI_SECRET: ciSecret,
      CI_PIN: '4711',
    });
    // The echo agent got the value; the reply it sent back was masked before the assertions saw it.
    expect(result.code, result.stderr).toBe(1);
    expect(served()).toBeGreaterThan(before);
    expect(result.stderr).toContain('CI_PIN is shorter than 8 characters, so it is not masked in output.');
    const { cases } = junit(out);
    expect(cases).toHaveLength(1);
    expect(JSON.stringify(cases[0])).toContain(`***…${ciSecret.slice(-4)}`);
    for (const text of [result.stdout, result.stderr, readFileSync(out, 'utf8')]) {
      expect(text).not.toContain(ciSecret);
      expect(text).not.toContain(key());
    }
    expect(filesContaining(dataDir, ciSecret)).toEqual([]);
    declaredReport = out;
  }, 60_000);
});

describe.skipIf(!hasXmllint)(
  `its JUnit report against the JUnit XSD${hasXmllint ? '' : ` (${NO_XMLLINT})`}`,
  () => {
    test('the report with masked values validates', () => {
      expect(xmllint(declaredReport)).toEqual({ ok: true, output: `${declaredReport} validates\n` });
    });
  },
);
