// Simulated conversations against the real mock: its `customer` plays the user (rules in
// mock/customer.ts, README "What it serves") and its `helpdesk` answers a refund in a known number
// of turns — "Let me check order N." after the order number, "Refund issued for order N." on the
// next message. So every number of turns and every verdict below follows from those rules.
import { describe, expect, test } from 'vitest';
import type { CellResult, SuiteRunResult } from '../../../shared/suite-run';
import { checksOf, suiteHarnessForFile } from '../../support/suite-harness';

const setup = suiteHarnessForFile();

function cell(result: SuiteRunResult, name: string): CellResult {
  const found = result.suites.flatMap((s) => s.cells).find((c) => c.caseName === name);
  if (!found) throw new Error(`no case named ${name}`);
  return found;
}

const REFUND = `
name: Refunds, simulated
targets: { agents: [helpdesk] }
grader: { agent: grader }
cases:
  - name: refund reached
    simulate:
      agent: customer
      goal: I want a refund for my broken kettle, order 4711.
      persona: A calm customer who writes short messages.
      max-turns: 5
      until: { contains: Refund issued }
    each-turn:
      - contains: in this conversation
    assert:
      - turns-at-most: 2
      - remembers: { fact: '4711', from-turn: 1 }
      - judge: { rubric: 'Says the "refund" was "issued".' }
`;

describe('simulate: an agent on the service plays the user', () => {
  test('a conversation reaches its goal in the expected number of turns, every check passing', async () => {
    const result = await setup.harness.run(REFUND);
    const reached = cell(result, 'refund reached');
    expect(reached.status).toBe('passed');
    const steps = reached.attempts[0]?.steps ?? [];
    expect(steps.map((s) => s.message)).toEqual([
      'Hello. I want a refund for my broken kettle, order 4711. My order number is 4711.',
      'Any news on my request?',
    ]);
    expect(steps[0]?.reply).toContain('Let me check order 4711.');
    expect(steps[1]?.reply).toContain('Refund issued for order 4711.');
    // Each turn is a result like any other: streamed with its frames, timed, with request ids for
    // both the agent under test and the simulated user's own exchange.
    for (const step of steps) {
      expect(step.streamed).toBe(true);
      expect(step.frames.length).toBeGreaterThan(0);
      expect(step.ttftMs).toBeGreaterThanOrEqual(0);
      expect(step.requestId).toMatch(/\S/);
      expect(step.simulated).toMatchObject({ agent: 'customer', requestId: expect.stringMatching(/\S/) });
    }
    const checks = checksOf(result, 'refund reached');
    expect(checks.filter((c) => c.kind === 'contains').map((c) => c.passed)).toEqual([true, true]);
    expect(checks.find((c) => c.kind === 'turns-at-most')).toMatchObject({
      passed: true,
      line: 16,
      actual: '2 turns',
    });
    expect(checks.find((c) => c.kind === 'remembers')).toMatchObject({
      passed: true,
      line: 17,
      actual: "said in turn 1, repeated in turn 2's reply",
    });
    expect(checks.find((c) => c.kind === 'judge')).toMatchObject({ passed: true, verdict: { score: 5 } });
    expect(result.rateLimited).toBe(0);
  });

  test('a conversation that never reaches its goal fails at max-turns, saying so', async () => {
    const result = await setup.harness.run(`
name: Never
targets: { agents: [helpdesk] }
cases:
  - name: where is it
    simulate:
      agent: customer
      goal: Find out where order 4711 is.
      max-turns: 3
      until: { contains: Refund issued }
`);
    const never = cell(result, 'where is it');
    expect(never.status).toBe('failed');
    const steps = never.attempts[0]?.steps ?? [];
    expect(steps).toHaveLength(3);
    expect(steps.map((s) => s.message).slice(1)).toEqual([
      'Any news on my request?',
      'Any news on my request?',
    ]);
    expect(steps[2]?.checks.find((c) => c.kind === 'until')).toMatchObject({
      passed: false,
      line: 10,
      expected: 'a reply that contains "Refund issued" within 3 turns',
      actual: expect.stringMatching(
        /^max-turns \(3\) reached without it; the last reply: "Thanks for your message \(#3/,
      ),
    });
  });

  test('each-turn, turns-at-most and remembers fail for their documented reasons', async () => {
    const result = await setup.harness.run(`
name: Failing
targets: { agents: [helpdesk] }
cases:
  - name: too long
    simulate:
      agent: customer
      goal: I want a refund, please.
      max-turns: 5
      until: { contains: Refund issued }
    assert:
      - turns-at-most: 2
  - name: forgets
    simulate:
      agent: customer
      goal: I want a refund for order 4711.
      max-turns: 5
      until: { contains: Refund issued }
    assert:
      - remembers: { fact: Kettle, from-turn: 1 }
      - remembers: { fact: '4711', from-turn: 2 }
  - name: rude
    simulate:
      agent: customer
      goal: I want a refund for order 4711.
      max-turns: 5
      until: { contains: Refund issued }
    each-turn:
      - not-contains: check order
`);
    // No order number in the goal: "Which order number is it?", "I do not have an order
    // number.", and the refund never comes, but the conversation is still checked when it ends.
    const tooLong = checksOf(result, 'too long');
    expect(tooLong.find((c) => c.kind === 'until')).toMatchObject({ passed: false });
    expect(tooLong.find((c) => c.kind === 'turns-at-most')).toMatchObject({
      passed: false,
      expected: 'at most 2 turns',
      actual: '5 turns',
    });
    const forgets = checksOf(result, 'forgets').filter((c) => c.kind === 'remembers');
    expect(forgets.map((c) => [c.passed, c.actual])).toEqual([
      [false, "turn 1's message does not say it"],
      [false, "turn 2's message does not say it"],
    ]);
    // each-turn runs on every reply: the first reply says "Let me check order 4711." and the
    // conversation stops there, as a failed step of fixed turns stops its case.
    const rude = cell(result, 'rude');
    expect(rude.status).toBe('failed');
    expect(rude.attempts[0]?.steps).toHaveLength(1);
    expect(checksOf(result, 'rude').find((c) => c.kind === 'not-contains')).toMatchObject({
      passed: false,
      actual: expect.stringContaining('Let me check order 4711.'),
    });
  });

  test('in thread mode the conversation is one thread, not streamed', async () => {
    const result = await setup.harness.run(
      `${REFUND.replace('cases:', 'defaults: { thread: true }\ncases:')}`,
    );
    const reached = cell(result, 'refund reached');
    expect(reached.status).toBe('passed');
    expect(reached.attempts[0]?.threadId).toMatch(/\S/);
    expect(reached.attempts[0]?.steps.map((s) => s.streamed)).toEqual([false, false]);
  });

  test('a simulating agent that cannot be reached fails the case in words, sending nothing', async () => {
    const result = await setup.harness.run(`
name: Gone
targets: { agents: [helpdesk] }
cases:
  - name: no customer
    simulate: { agent: archivist, goal: anything, max-turns: 2, until: { contains: x } }
`);
    expect(checksOf(result, 'no customer')).toEqual([
      expect.objectContaining({
        kind: 'reply',
        passed: false,
        actual: expect.stringMatching(/^archivist could not be asked \(404 AGENT_NOT_FOUND/),
      }),
    ]);
  });
});
