// The JUnit report with what real replies can hold (control characters, a lone surrogate, `]]>`,
// quotes, emoji) and every attempt state: still valid XML against the JUnit XSD, and what a CI
// reader gets back is what was said.
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { XMLParser } from 'fast-xml-parser';
import { afterAll, expect, test } from 'vitest';
import type { AttemptResult, CellResult, StepResult, SuiteRunResult } from '../../../shared/suite-run';
import { junitReport } from '../../../electron/core/suites/junit-report';
import { removeDir, tempDir } from '../../support/mock';

const hasXmllint = spawnSync('sh', ['-c', 'command -v xmllint'], { stdio: 'ignore' }).status === 0;
const dir = tempDir('agent-console-junit-');
afterAll(() => removeDir(dir));

const tricky = 'a\u0001b\u0008 "q" <tag> & ]]> é🚀 lone \uD800 end';

function step(partial: Partial<StepResult>): StepResult {
  return {
    index: 0,
    line: 5,
    message: tricky,
    state: 'done',
    streamed: true,
    status: 200,
    reply: tricky,
    chunks: 3,
    ttftMs: 12,
    totalMs: 40,
    frames: [],
    framesDropped: 0,
    rateLimited: 0,
    checks: [],
    ...partial,
  };
}

function cell(name: string, attempts: AttemptResult[]): CellResult {
  return {
    id: name,
    caseKey: '1',
    caseName: name,
    caseLine: 4,
    target: { key: 'p/echo', profileId: 'p', profileName: 'Embedded mock', agent: 'echo' },
    status: 'failed',
    attempts,
    stats: { runs: attempts.length, passed: 0, flaky: false },
  };
}

const attempt = (repeat: number, status: AttemptResult['status'], steps: StepResult[]): AttemptResult => ({
  repeat,
  status,
  startedAt: 0,
  durationMs: 1234,
  sessionId: 'suiteabc',
  steps,
});

const result: SuiteRunResult = {
  runId: 'r',
  status: 'failed',
  startedAt: Date.UTC(2026, 0, 15, 12),
  durationMs: 5000,
  totals: { attempts: 5, passed: 1, failed: 2, cancelled: 1, skipped: 1 },
  rateLimited: 0,
  suites: [
    {
      file: 'suites/a & b.yaml',
      name: `Suite ${tricky}`,
      cells: [
        cell(`case ${tricky}`, [
          attempt(1, 'passed', [step({})]),
          attempt(2, 'failed', [
            step({
              checks: [
                { kind: 'contains', line: 7, passed: false, expected: `contains "${tricky}"`, actual: '"x"' },
                {
                  kind: 'max-length',
                  line: 8,
                  passed: false,
                  expected: '≤ 1 characters',
                  actual: '3 characters',
                },
              ],
            }),
          ]),
          attempt(3, 'cancelled', [step({ state: 'cancelled' })]),
        ]),
        cell('broken', [
          attempt(1, 'failed', [
            step({
              status: 404,
              error: { code: 'AGENT_NOT_FOUND', message: 'gone' },
              checks: [
                {
                  kind: 'reply',
                  line: 5,
                  passed: false,
                  expected: 'a complete stream ([DONE])',
                  actual: '404 AGENT_NOT_FOUND: gone',
                },
              ],
            }),
          ]),
          attempt(2, 'skipped', [step({ state: 'skipped' })]),
        ]),
      ],
    },
  ],
};

const xml = junitReport(result);
const file = join(dir, 'report.xml');
writeFileSync(file, xml);

test('failures carry each failed check; a failed exchange is an error; cancelled and skipped are skipped', () => {
  const doc = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '' }).parse(xml);
  expect(doc.testsuites).toMatchObject({ tests: '5', failures: '1', errors: '1' });
  const suite = doc.testsuites.testsuite;
  expect(suite).toMatchObject({
    tests: '5',
    failures: '1',
    errors: '1',
    skipped: '2',
    file: 'suites/a & b.yaml',
  });
  const cases = suite.testcase as Record<string, unknown>[];
  expect(cases.map((c) => c.name)).toEqual([
    expect.stringMatching(/^case .* \[Embedded mock \/ echo\] #1$/),
    expect.stringMatching(/ #2$/),
    expect.stringMatching(/ #3$/),
    'broken [Embedded mock / echo] #1',
    'broken [Embedded mock / echo] #2',
  ]);
  expect(cases[1]?.failure).toMatchObject({ type: 'contains' });
  const failure = cases[1]?.failure as { '#text': string; message: string };
  expect(failure['#text'].split('\n')).toEqual([
    expect.stringMatching(/^line 7 contains: expected contains /),
    'line 8 max-length: expected ≤ 1 characters, actual 3 characters',
  ]);
  expect(cases[2]?.skipped).toMatchObject({ message: 'The run was cancelled.' });
  expect(cases[3]?.error).toMatchObject({
    type: 'reply',
    message: 'line 5 reply: expected a complete stream ([DONE]), actual 404 AGENT_NOT_FOUND: gone',
  });
  expect(cases[4]?.skipped).toMatchObject({ message: 'Not run: --bail stopped the run.' });
  // What XML cannot carry is replaced, the rest arrives as it was said…
  expect(cases[0]?.name).toBe(
    'case a\uFFFDb\uFFFD "q" <tag> & ]]> é🚀 lone \uFFFD end [Embedded mock / echo] #1',
  );
  // …and the log of turns quotes replies JSON-style, so control characters stay visible there.
  expect(String(cases[0]?.['system-out'])).toContain(
    'reply: "a\\u0001b\\b \\"q\\" <tag> & ]]> é🚀 lone \\ud800 end"',
  );
});

test.skipIf(!hasXmllint)(
  `it validates against the JUnit XSD${hasXmllint ? '' : ' (skipped: xmllint is not installed; apt-get install libxml2-utils)'}`,
  () => {
    const run = spawnSync('xmllint', ['--noout', '--schema', 'test/fixtures/junit.xsd', file], {
      encoding: 'utf8',
    });
    expect(`${run.stdout}${run.stderr}`).toBe(`${file} validates\n`);
  },
);
