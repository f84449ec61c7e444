// Judged checks against the real mock's `grader` (its rules: mock/grader.ts, README "The embedded
// mock"): a reply that says what the rubric quotes passes, one that does not fails with the
// grader's reason in the result, the grader's answer is read in its other shapes, and an answer
// with no verdict fails the check in words.
import { describe, expect, test } from 'vitest';
import { checksOf, suiteHarnessForFile } from '../../support/suite-harness';

const setup = suiteHarnessForFile();

describe('judge and similar-to, graded by the mock grader', () => {
  test('a reply that says what the rubric asks passes; one that does not fails with the reason', async () => {
    const result = await setup.harness.run(`
name: Refunds
targets: { agents: [echo] }
grader: { agent: grader }
cases:
  - name: issued
    message: We have issued the refund
    assert:
      - judge: { rubric: 'Says the "refund" was "issued".' }
  - name: on its way
    message: Your refund is on its way
    assert:
      - judge: { rubric: 'Says the "refund" was "issued".', pass: 4 }
`);
    const [, passed] = checksOf(result, 'issued');
    expect(passed).toMatchObject({
      kind: 'judge',
      passed: true,
      line: 9,
      verdict: { agent: 'grader', score: 5, pass: true, reason: "Says 'refund', 'issued'; missing nothing." },
      actual: "5 of 5: Says 'refund', 'issued'; missing nothing.",
    });
    const [, failed] = checksOf(result, 'on its way');
    expect(failed).toMatchObject({
      kind: 'judge',
      passed: false,
      expected: 'scored ≥ 4 of 5 by grader against: Says the "refund" was "issued".',
      actual: "3 of 5: Says 'refund'; missing 'issued'.",
      verdict: { score: 3, pass: false },
    });
    const cells = result.suites[0]?.cells ?? [];
    expect(cells.map((c) => [c.caseName, c.status, c.stats.judgeScore])).toEqual([
      ['issued', 'passed', 1],
      ['on its way', 'failed', 0.6],
    ]);
    expect(result.rateLimited).toBe(0);
  });

  test('similar-to passes at its minimum similarity and fails below it', async () => {
    const result = await setup.harness.run(`
name: Similar
targets: { agents: [echo] }
grader: { agent: grader }
cases:
  - name: same words
    message: the refund was issued today
    assert: [{ similar-to: { text: refund issued today } }]
  - name: other words
    message: Your refund is on its way
    assert: [{ similar-to: { text: We have issued the refund, min: 0.5 } }]
`);
    expect(checksOf(result, 'same words')[1]).toMatchObject({
      passed: true,
      actual: expect.stringMatching(/^similarity 1 \(5 of 5\)/),
    });
    // we, have, issued, the, refund: the reply says "refund" → 1 + round(4 × 1/5) = 2, similarity 0.4.
    expect(checksOf(result, 'other words')[1]).toMatchObject({
      passed: false,
      expected: 'similar to "We have issued the refund" (≥ 0.5) by grader',
      actual: expect.stringMatching(/^similarity 0\.4 \(2 of 5\)/),
    });
  });

  test("a multi-turn case sends the earlier turns, through a suite's own prompt", async () => {
    // This prompt puts the conversation where the grader reads the reply: echo's second reply does
    // not say 4711, the first turn does.
    const result = await setup.harness.run(`
name: Memory
targets: { agents: [echo] }
grader:
  agent: grader
  prompt: '<rubric>{{rubric}}</rubric> <reply>{{conversation}}</reply> Reply: {{reply}} Message: {{message}}'
cases:
  - name: earlier turns
    steps:
      - message: My order is 4711.
      - message: Where is it?
        assert:
          - judge: { rubric: 'Mentions "4711".' }
`);
    expect(checksOf(result, 'earlier turns').filter((c) => c.kind === 'judge')[0]).toMatchObject({
      passed: true,
      verdict: { score: 5 },
    });
  });

  test('an answer in a fenced block or a bare score is read', async () => {
    const result = await setup.harness.run(`
name: Shapes
targets: { agents: [echo] }
grader: { agent: grader }
cases:
  - name: shapes
    message: order 4711
    assert:
      - judge: { rubric: '[fenced] Mentions "4711".' }
      - judge: { rubric: '[bare] Mentions "4711" and "refund".', pass: 3 }
`);
    const checks = checksOf(result, 'shapes').filter((c) => c.kind === 'judge');
    expect(checks.map((c) => [c.passed, c.verdict?.score, c.verdict?.pass])).toEqual([
      [true, 5, true],
      [true, 3, undefined],
    ]);
  });

  test('a grader that answers no verdict fails the check, saying what it answered', async () => {
    const result = await setup.harness.run(`
name: Garbage
targets: { agents: [echo] }
cases:
  - name: nonsense
    message: hello
    assert: [{ judge: { rubric: '[garbage] Says "hello".', agent: grader } }]
`);
    const [, check] = checksOf(result, 'nonsense');
    expect(check).toMatchObject({
      kind: 'judge',
      passed: false,
      actual: `the grader's answer is no verdict (no score 1–5, no pass): "I would rather not say how good that was."`,
    });
    expect(check?.verdict).toBeUndefined();
    expect(result.status).toBe('failed');
  });

  test('a grader that cannot be reached fails the check with the error', async () => {
    const result = await setup.harness.run(`
name: Stopped grader
targets: { agents: [echo] }
cases:
  - name: archivist grades
    message: hello
    assert: [{ judge: { rubric: 'Says "hello".', agent: archivist } }]
`);
    expect(checksOf(result, 'archivist grades')[1]).toMatchObject({
      passed: false,
      actual: expect.stringMatching(/^the grader could not be asked \(404 AGENT_NOT_FOUND/),
    });
  });
});
