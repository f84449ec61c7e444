// The run history and the baseline gate against the real mock, as CI runs them: `agent-console test`
// with AGENT_API_KEY and --base-url keeps every run; after one agent was switched to error and
// another's latency raised, the diff names exactly that regression and that slowdown and calls an
// unchanged case's TTFT wobble noise; `--fail-on regression` exits 1 for it, and 0 once only a
// failure that was there before remains — against a results.json, as a CI artifact gives it.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { KeptRun, RunDiff, RunListItem } from '../../shared/run-history';
import { testService } from '../support/keychain';
import { removeDir, startTestMock, tempDir, type TestMock } from '../support/mock';
import { runNode, type ProcessRun } from '../support/run-process';

let dataDir: string;
let suites: string;
let mock: TestMock;
const service = testService('test-history');

const cli = (args: string[]): Promise<ProcessRun> =>
  runNode(['bin/agent-console.js', ...args], {
    env: {
      AGENT_CONSOLE_DATA_DIR: dataDir,
      AGENT_CONSOLE_KEYCHAIN_SERVICE: service,
      AGENT_API_KEY: mock.server.keys.pro,
    },
  });

const runSuites = (...args: string[]): Promise<ProcessRun> =>
  cli(['test', suites, '--base-url', mock.server.baseUrl, '--ca', mock.server.caCertPath, ...args]);

const SUITES: Record<string, string> = {
  'echo.yaml': `name: Echo
targets: { agents: [echo] }
cases:
  - name: echoes
    message: hello
    assert: [{ starts-with: 'Echo: hello' }]
`,
  'helpdesk.yaml': `name: Helpdesk
targets: { agents: [helpdesk] }
defaults: { repeat: 4 }
cases:
  - name: answers
    message: Where is my order?
    assert: [{ completes: true }]
`,
  'archivist.yaml': `name: Archivist
targets: { agents: [archivist] }
cases:
  - name: steady
    repeat: 4
    message: Find the 1998 report
    assert: [{ completes: true }]
  - name: speaks French
    message: Bonjour
    assert: [{ contains: 'Bonjour le monde' }]
`,
};

beforeAll(async () => {
  dataDir = tempDir('agent-console-history-');
  suites = join(dataDir, 'suites');
  mkdirSync(suites);
  for (const [name, text] of Object.entries(SUITES)) writeFileSync(join(suites, name), text);
  mock = await startTestMock();
  // A third agent that answers at a steady pace in both runs: its times only wobble.
  mock.server.control.setAgent('archivist', { status: 'deployed', latencyMs: 300 });
});

afterAll(async () => {
  await mock.stop();
  removeDir(mock.dataDir);
  removeDir(dataDir);
});

describe('a regression and a slowdown between two runs', () => {
  let first: KeptRun;
  let diff: RunDiff;
  const results = (): string => join(dataDir, 'results-1.json');

  test('the first run is kept, with where and what; its pre-existing failure exits 1 without a gate', async () => {
    const run = await runSuites('--reporter', `json:${results()}`);
    expect(run.code, run.stderr + run.stdout).toBe(1);
    first = JSON.parse(readFileSync(results(), 'utf8')) as KeptRun;
    expect(first.where.profiles).toEqual([
      { name: 'AGENT_API_KEY', host: new URL(mock.server.baseUrl).host },
    ]);
    // A folder that is no git checkout has no commit, and that is no error.
    expect(first.what.files.map((f) => [f.name, f.commit])).toEqual([
      ['Archivist', undefined],
      ['Echo', undefined],
      ['Helpdesk', undefined],
    ]);
    const listed = await cli(['test', 'runs', '--json']);
    expect(listed.code, listed.stderr).toBe(0);
    const runs = JSON.parse(listed.stdout) as RunListItem[];
    expect(runs.map((r) => r.runId)).toEqual([first.runId]);
    expect(runs[0]?.totals).toEqual(first.totals);
  }, 120_000);

  test('echo in error and helpdesk slower: the gate exits 1 naming that regression first, and that slowdown', async () => {
    mock.server.control.setAgent('echo', { status: 'error' });
    mock.server.control.setAgent('helpdesk', { latencyMs: 1_200 });
    const out = join(dataDir, 'results-2.json');
    const markdown = join(dataDir, 'summary.md');
    try {
      const run = await runSuites(
        '--baseline',
        first.runId,
        '--fail-on',
        'regression',
        '--reporter',
        'pretty',
        '--reporter',
        `json:${out}`,
        '--reporter',
        `markdown:${markdown}`,
      );
      expect(run.code, run.stderr + run.stdout).toBe(1);
      // The summary starts with what changed, the regression first.
      expect(run.stdout).toMatch(
        /Against the baseline:\n[\w-]+ \([^)]+\) → [\w-]+ \([^)]+\)\nREGRESSION: Echo › echoes \[AGENT_API_KEY \/ echo\]/,
      );
      const second = JSON.parse(readFileSync(out, 'utf8')) as KeptRun & { diff: RunDiff };
      diff = second.diff;
      // Regressions first in the report too: the Echo suite leads.
      expect(second.suites[0]?.name).toBe('Echo');
      expect(readFileSync(markdown, 'utf8')).toMatch(
        /^## ❌ Agent tests: 1 regression\n\n### Regressions\n\n- \*\*Echo › echoes\*\*/,
      );
    } finally {
      mock.server.control.setAgent('echo', { status: 'deployed' });
      mock.server.control.setAgent('helpdesk', { latencyMs: 150 });
    }
    const named = (change: string): string[] =>
      diff.cells.filter((c) => c.change === change).map((c) => `${c.suite} › ${c.caseName}`);
    expect(named('regression')).toEqual(['Echo › echoes']);
    expect(named('still-failing')).toEqual(['Archivist › speaks French']);
    const slower = diff.cells.filter(
      (c) => c.ttftMs?.verdict === 'slower' || c.totalMs?.verdict === 'slower',
    );
    expect(slower.map((c) => c.caseName)).toEqual(['answers']);
    expect(slower[0]?.ttftMs).toMatchObject({
      verdict: 'slower',
      before: { samples: 4 },
      after: { samples: 4 },
    });
    const steady = diff.cells.find((c) => c.caseName === 'steady');
    expect(steady?.ttftMs).toMatchObject({ verdict: 'noise', before: { samples: 4 }, after: { samples: 4 } });
    expect(steady?.changed).toBe(false);
    expect(diff.counts).toMatchObject({ regression: 1, slower: 1, 'still-failing': 1, fixed: 0 });
  }, 120_000);

  test('`test diff` of the two kept runs says the same; --all adds the unchanged', async () => {
    const listed = JSON.parse((await cli(['test', 'runs', '--json'])).stdout) as RunListItem[];
    expect(listed).toHaveLength(2);
    const [second] = listed;
    const shown = await cli(['test', 'diff', first.runId, second?.runId.slice(0, 8) ?? '', '--json']);
    expect(shown.code, shown.stderr).toBe(0);
    const again = JSON.parse(shown.stdout) as RunDiff;
    expect(again.cells.map((c) => [c.caseName, c.change])).toEqual(
      diff.cells.filter((c) => c.changed).map((c) => [c.caseName, c.change]),
    );
    const text = await cli(['test', 'diff', first.runId, second?.runId ?? '', '--all']);
    expect(text.stdout).toMatch(/^REGRESSION: Echo › echoes/m);
    expect(text.stdout).toMatch(
      /^unchanged: Archivist › steady .*\n {4}first chunk p50 .* samples 4\/4: noise/m,
    );
    expect(text.stdout).toMatch(/^SLOWER: Helpdesk › answers .*\n {4}first chunk p50 .* SLOWER/m);
  }, 60_000);

  test('with only the pre-existing failure left, `--fail-on regression` against the results.json exits 0', async () => {
    const run = await runSuites('--baseline', results(), '--fail-on', 'regression');
    expect(run.code, run.stderr + run.stdout).toBe(0);
    expect(run.stdout).toMatch(/^0 regressions, 0 new failing, 0 fixed, 1 still failing/m);
    // Without the gate, the same run fails on that failure.
    const plain = await runSuites();
    expect(plain.code).toBe(1);
  }, 120_000);

  test('a baseline that cannot be read sends nothing and exits 2', async () => {
    const before = mock.server.control.requests().length;
    const hostile = join(dataDir, 'hostile.json');
    writeFileSync(hostile, JSON.stringify({ runId: 'x', suites: 'not a list' }));
    for (const baseline of [hostile, join(dataDir, 'missing.json'), 'no-such-run']) {
      const run = await runSuites('--baseline', baseline, '--fail-on', 'regression');
      expect(run.code, run.stderr).toBe(2);
      expect(run.stderr).toMatch(/results file|No kept run/);
    }
    expect(mock.server.control.requests().length).toBe(before);
    const gateless = await runSuites('--fail-on', 'regression');
    expect(gateless.code).toBe(2);
    expect(gateless.stderr).toContain('--fail-on regression needs --baseline');
  }, 120_000);
});
