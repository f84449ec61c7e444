// `agent-console test` as CI runs it: real processes, the embedded mock over HTTPS, JUnit XML checked
// by a real XSD validator (test/support/junit.ts). The CI-with-secrets runs are in
// test-command-ci.test.ts.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import type { SuiteRunResult } from '../../shared/suite-run';
import { runCli } from '../../electron/cli/main';
import { hasXmllint, junit, NO_XMLLINT, xmllint } from '../support/junit';
import { testService } from '../support/keychain';
import { removeDir, tempDir } from '../support/mock';
import { runProcess, type ProcessRun, type RunOptions } from '../support/run-process';

let dataDir: string;
/** JUnit reports the runs below wrote, for the XSD check at the end. */
const reports: string[] = [];
const service = testService('test-command');

const run = (command: string, args: string[], options: RunOptions = {}): Promise<ProcessRun> =>
  runProcess(command, args, {
    ...options,
    env: {
      AGENT_CONSOLE_DATA_DIR: dataDir,
      AGENT_CONSOLE_KEYCHAIN_SERVICE: service,
      AGENT_API_KEY: undefined,
      ...options.env,
    },
  });

const cli = (args: string[], options?: RunOptions): Promise<ProcessRun> =>
  run(process.execPath, ['bin/agent-console.js', 'test', ...args], options);

/**
 * The command in this process: checks of its input need no process of their own each (a spawned
 * CLI costs seconds of CPU, which the other tests sharing two cores feel).
 */
async function inProcess(args: string[], env: Record<string, string> = {}): Promise<ProcessRun> {
  const vars: Record<string, string | undefined> = {
    AGENT_CONSOLE_DATA_DIR: dataDir,
    AGENT_CONSOLE_KEYCHAIN_SERVICE: service,
    AGENT_API_KEY: undefined,
    ...env,
  };
  const saved = Object.fromEntries(Object.keys(vars).map((k) => [k, process.env[k]]));
  const setEnv = (values: Record<string, string | undefined>): void => {
    for (const [k, v] of Object.entries(values)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  };
  setEnv(vars);
  const out = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
  const err = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
  try {
    const code = await runCli(['test', ...args]);
    const text = (spy: typeof out): string => spy.mock.calls.map((c) => String(c[0])).join('');
    return { code, stdout: text(out), stderr: text(err) };
  } finally {
    out.mockRestore();
    err.mockRestore();
    setEnv(saved);
  }
}

beforeAll(() => {
  dataDir = tempDir('agent-console-test-cmd-');
});

afterAll(() => removeDir(dataDir));

describe('the examples against the embedded mock', () => {
  test('`npm run -s cli -- test examples/agent-tests --reporter junit --out r.xml` passes: a testsuite per file, a testcase per case × target × repeat', async () => {
    const out = join(dataDir, 'r.xml');
    const result = await run('npm', [
      'run',
      '-s',
      'cli',
      '--',
      'test',
      'examples/agent-tests',
      '--reporter',
      'junit',
      '--out',
      out,
    ]);
    expect(result.code, result.stderr + result.stdout).toBe(0);
    expect(result.stdout).toMatch(/^23 passed, 0 failed — 23 attempts in [\d.]+ s$/m);
    expect(result.stdout).toContain(`Wrote the junit report to ${out}.`);
    const { suites, cases } = junit(out);
    // One testsuite per suite file, one testcase per case × target × repeat (storyteller repeats twice).
    expect(suites.map((s) => s.file).sort()).toEqual([
      'examples/agent-tests/echo.yaml',
      'examples/agent-tests/failed-deployment.yaml',
      'examples/agent-tests/glitch.yaml',
      'examples/agent-tests/helpdesk.yaml',
      'examples/agent-tests/judged.yaml',
      'examples/agent-tests/limits.yaml',
      'examples/agent-tests/refunds.yaml',
      'examples/agent-tests/simulated.yaml',
      'examples/agent-tests/storyteller.yaml',
      'examples/agent-tests/unavailable-agents.yaml',
    ]);
    expect(cases).toHaveLength(23);
    expect(cases.filter((c) => 'failure' in c || 'error' in c)).toEqual([]);
    expect(cases.map((c) => c.name)).toContain('streams many paced chunks [Embedded mock / storyteller] #2');
    reports.push(out);
  }, 90_000);
});

describe('a simulated conversation', () => {
  test('is a run result like any other: its turns in the pretty and JSON reports, JUnit and the kept runs', async () => {
    const json = join(dataDir, 'simulated.json');
    const xml = join(dataDir, 'simulated.xml');
    const result = await inProcess([
      'examples/agent-tests/simulated.yaml',
      '--reporter',
      'pretty',
      '--reporter',
      `json:${json}`,
      '--reporter',
      `junit:${xml}`,
    ]);
    expect(result.code, result.stderr + result.stdout).toBe(0);
    expect(result.stdout).toContain(
      '✓ Refunds, simulated › a customer gets a refund [Embedded mock / helpdesk]',
    );
    const run = JSON.parse(readFileSync(json, 'utf8')) as SuiteRunResult;
    const attempt = run.suites[0]?.cells[0]?.attempts[0];
    expect(attempt?.sessionId).toMatch(/^suite/);
    expect(
      attempt?.steps.map((s) => [
        s.message,
        s.simulated?.agent,
        s.reply.endsWith('Refund issued for order 4711.'),
      ]),
    ).toEqual([
      [
        'Hello. I want a refund for my broken kettle, order 4711. My order number is 4711.',
        'customer',
        false,
      ],
      ['Any news on my request?', 'customer', true],
    ]);
    expect(attempt?.steps.every((s) => s.requestId && s.frames.length > 0 && s.ttftMs !== undefined)).toBe(
      true,
    );
    expect(junit(xml).cases.map((c) => c.name)).toEqual([
      'a customer gets a refund [Embedded mock / helpdesk]',
      'the same in a thread [Embedded mock / helpdesk]',
    ]);
    reports.push(xml);
    const kept = await inProcess(['runs', '--json']);
    expect(kept.stdout).toContain(run.runId);
  }, 60_000);
});

describe('a failing suite', () => {
  test('exits 1 naming the case, the target, the assertion, the expected and the actual', async () => {
    const out = join(dataDir, 'failing.xml');
    const result = await cli(['examples/agent-tests/failing', '--reporter', 'junit', '--out', out]);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('✗ Deliberately failing › echo answers in French [Embedded mock / echo]');
    expect(result.stdout).toContain(
      '    line 12 contains: expected contains "Bonjour", actual "Echo: hello"\n',
    );
    expect(result.stdout).toMatch(/^0 passed, 1 failed/m);
    const { cases } = junit(out);
    expect(cases).toHaveLength(1);
    expect(cases[0]).toMatchObject({
      name: 'echo answers in French [Embedded mock / echo]',
      classname: 'Deliberately failing',
      failure: {
        type: 'contains',
        message: 'line 12 contains: expected contains "Bonjour", actual "Echo: hello"',
      },
    });
    reports.push(out);
  }, 60_000);

  test('--agent replaces the suite’s agents, one cell per agent', async () => {
    const result = await cli([
      'examples/agent-tests/failing',
      '--agent',
      'echo',
      '--agent',
      'helpdesk',
      '--reporter',
      'json',
    ]);
    expect(result.code).toBe(1);
    const report = JSON.parse(result.stdout) as SuiteRunResult;
    expect(report.suites[0]?.cells.map((c) => [c.target.agent, c.status])).toEqual([
      ['echo', 'failed'],
      ['helpdesk', 'failed'],
    ]);
    // The report is on stdout; the progress went to stderr.
    expect(result.stderr).toContain(
      '✗ Deliberately failing › echo answers in French [Embedded mock / helpdesk]',
    );
  }, 60_000);
});

describe('a suite file that does not load', () => {
  test('is said with its line and exits 2, and the files beside it run', async () => {
    const file = join(dataDir, 'malformed.yaml');
    writeFileSync(
      file,
      'name: Broken\ncases:\n  - name: a\n    message: hi\n    assert:\n      - contain: hi\n',
    );
    const out = join(dataDir, 'malformed.xml');
    const result = await cli([file, 'examples/agent-tests/echo.yaml', '--reporter', 'junit', '--out', out]);
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toContain(`✗ ${file}:6:9: cases[0].assert[0].contain: Unknown assertion "contain"`);
    // echo.yaml ran: its cases passed.
    expect(result.stdout).toMatch(/^\d+ passed, 0 failed/m);
    expect(result.stdout).toContain('1 suite file did not load (problems above): the run exits 2.');
    const { suites, cases } = junit(out);
    expect(suites.map((s) => s.file)).toEqual([file, 'examples/agent-tests/echo.yaml']);
    expect(cases[0]).toMatchObject({
      classname: file,
      error: {
        type: 'suite-file',
        message: expect.stringContaining(`${file}:6:9: cases[0].assert[0].contain`),
      },
    });
    reports.push(out);
  }, 60_000);

  test('YAML that does not parse names its line and column', async () => {
    const file = join(dataDir, 'syntax.yaml');
    writeFileSync(file, 'name: Broken\ncases:\n  - name: [a\n');
    const result = await inProcess([file]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(new RegExp(`${file.replaceAll('.', '\\.')}:\\d+:\\d+: `));
  }, 30_000);
});

describe('bad input exits 2 and says why', () => {
  test.each([
    [
      ['examples/agent-tests', '--reporter', 'xml'],
      {},
      '--reporter must be one of pretty, junit, json, markdown, html, alone or as NAME:FILE (got "xml").',
    ],
    [[], {}, 'Name the suite files or folders to run.'],
    [
      ['examples/agent-tests', '--reporter', 'markdown:s.md', '--report-url', 'javascript:alert(1)'],
      {},
      '--report-url must be an http(s) address',
    ],
    [
      ['examples/agent-tests', '--reporter', 'junit', '--reporter', 'json'],
      {},
      'Only one report can go to stdout',
    ],
    [
      ['examples/agent-tests', '--repeat', '0'],
      {},
      '--repeat must be a whole number from 1 to 1000 (got "0").',
    ],
    [['examples/nope'], {}, 'examples/nope: No such file or folder.'],
    [['examples/agent-tests', '--bogus'], {}, 'unknown option --bogus'],
    [
      ['examples/agent-tests', '--base-url', 'https://example.com'],
      {},
      '--base-url needs the key in the AGENT_API_KEY',
    ],
    [
      ['examples/agent-tests'],
      { AGENT_API_KEY: 'abc_0123456789abcdef0123456789abcdef' },
      'AGENT_API_KEY is set but --base-url is not',
    ],
    [['examples/agent-tests', '--profile', 'Nowhere'], {}, 'No profile named "Nowhere".'],
    [
      ['examples/agent-tests', '--shard', '3/2'],
      {},
      '--shard is i/n, 1 ≤ i ≤ n ≤ 1000, e.g. 2/4 (got "3/2").',
    ],
    [['examples/agent-tests', '--seed', '7'], {}, '--seed goes with --sample.'],
  ])(
    '%j',
    async (args, env, message) => {
      const result = await inProcess(args, env);
      expect(result.code).toBe(2);
      expect(result.stderr).toContain(message);
    },
    30_000,
  );
});

test('--repeat gives p50/p95 timings and how many passed', async () => {
  const result = await cli(['examples/agent-tests/echo.yaml', '--repeat', '3']);
  expect(result.code).toBe(0);
  expect(result.stdout).toMatch(
    /^ {2}Echo replies › says the message back \[Embedded mock \/ echo\]: 3\/3 passed; first chunk p50 \d+ ms, p95 \d+ ms; total p50 \d+ ms, p95 \d+ ms$/m,
  );
  expect(result.stdout).toMatch(/^18 passed, 0 failed — 18 attempts/m);
}, 60_000);

test('Ctrl+C stops the run: exit 130, what was running cancelled', async () => {
  const result = await cli(['examples/agent-tests/storyteller.yaml', '--repeat', '4'], {
    onStdout: (text, kill) => {
      if (text.includes('Running ')) setTimeout(kill, 500);
    },
  });
  expect(result.code).toBe(130);
  expect(result.stdout).toMatch(/^0 passed, 0 failed, 4 cancelled/m);
}, 60_000);

test('the README’s GitHub Actions step for the embedded mock runs as written', async () => {
  const readme = readFileSync('README.md', 'utf8');
  const step = /- name: Agent tests against the embedded mock\n\s+run: (.*)\n/.exec(readme)?.[1];
  expect(step).toMatch(/^npx agent-console test /);
  const args = (step as string).replace(/^npx agent-console test /, '').split(' ');
  const out = args[args.indexOf('--out') + 1] as string;
  args[args.indexOf('--out') + 1] = join(dataDir, out);
  const result = await cli(args);
  expect(result.code, result.stderr).toBe(0);
  expect(junit(join(dataDir, out)).cases).toHaveLength(23);
  reports.push(join(dataDir, out));
}, 90_000);

test('two --shard runs on two "machines", joined by `test merge`: one run, kept, one JUnit report', async () => {
  const files = ['examples/agent-tests/echo.yaml', 'examples/agent-tests/judged.yaml'];
  const whole = await cli([...files, '--reporter', `json:${join(dataDir, 'whole.json')}`]);
  expect(whole.code, whole.stderr).toBe(0);
  for (const i of [1, 2]) {
    const shard = await cli([
      ...files,
      '--shard',
      `${i}/2`,
      '--reporter',
      `json:${join(dataDir, `s${i}.json`)}`,
    ]);
    expect(shard.code, shard.stderr).toBe(0);
  }
  const out = join(dataDir, 'merged.xml');
  const shards = [join(dataDir, 's2.json'), join(dataDir, 's1.json')];
  const merged = await cli(['merge', ...shards, '--reporter', `junit:${out}`]);
  expect(merged.code, merged.stderr).toBe(0);
  expect(merged.stdout).toMatch(/^2 shards kept as run [0-9a-f-]{36} \(`agent-console test runs`\)\.$/m);
  const cases = junit(out).cases.map((c) => c.name);
  const one = JSON.parse(readFileSync(join(dataDir, 'whole.json'), 'utf8')) as SuiteRunResult;
  expect(cases).toEqual(
    one.suites.flatMap((s) => s.cells.map((c) => `${c.caseName} [Embedded mock / ${c.target.agent}]`)),
  );
  reports.push(out);
  const missing = await cli(['merge', join(dataDir, 's1.json')]);
  expect(missing.code).toBe(2);
  expect(missing.stderr).toContain("Missing shard 2/2: every shard's results are needed to make the run.");
}, 90_000);

test('--labels: each judge against people’s labels, and a judge below min-kappa fails the run', async () => {
  const suite = join(dataDir, 'calibrated.yaml');
  writeFileSync(
    suite,
    [
      'name: Calibrated',
      'targets: { agents: [echo] }',
      'grader: { agent: grader }',
      'min-kappa: 0.5',
      'cases:',
      '  - name: says {{msg}}',
      "    message: '{{msg}}'",
      '    vars: [{ msg: the refund was issued }, { msg: your refund is on its way }]',
      '    assert: [{ judge: { rubric: \'Says "refund" "issued"\' } }]',
    ].join('\n'),
  );
  const labels = join(dataDir, 'labels.csv');
  // The person disagrees with the judge on both: κ = −1.
  writeFileSync(
    labels,
    'case,agent,repeat,label,note\nsays the refund was issued,echo,1,fail,too curt\nsays your refund is on its way,echo,1,pass\n',
  );
  const result = await cli([suite, '--labels', labels]);
  expect(result.code, result.stderr).toBe(1);
  expect(result.stdout).toContain(
    'Calibrated › judge line 9 (grader): 2 labelled, agreement 0%, κ -1.00, min-kappa 0.5: NOT TRUSTWORTHY',
  );
  expect(result.stdout).toContain('    ≠ says the refund was issued [echo] #1: human fail, judge pass');
  expect(result.stdout).toContain('        note: too curt');
  expect(result.stdout).toContain('A judge is below its suite’s min-kappa: the run is not trustworthy.');
}, 60_000);

describe.skipIf(!hasXmllint)(`JUnit XML against the JUnit XSD${hasXmllint ? '' : ` (${NO_XMLLINT})`}`, () => {
  test('every report written above validates: passing, failing, and with a file that does not load', () => {
    expect(reports).toHaveLength(6);
    for (const file of reports) expect(xmllint(file)).toEqual({ ok: true, output: `${file} validates\n` });
  });

  test('and the check can fail: a report the schema refuses', () => {
    const bad = join(dataDir, 'bad.xml');
    writeFileSync(bad, '<testsuites skipped="0"><testsuite name="x" tests="1"/></testsuites>');
    expect(xmllint(bad).ok).toBe(false);
  });
});
