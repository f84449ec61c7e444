// A `simulate:` case as a user writes it: what it plans, and every mistake in its new fields
// named with the file, the line and the field.
import { describe, expect, test } from 'vitest';
import { parseSuite, SuiteFileError } from '../../../electron/core/suites/suite-loader';
import { DEFAULT_SIMULATE_PROMPT } from '../../../electron/core/suites/simulate-prompt';

function problems(text: string): string[] {
  try {
    parseSuite(text, 'suite.yaml', {});
  } catch (error) {
    expect(error).toBeInstanceOf(SuiteFileError);
    return (error as Error).message.split('\n');
  }
  throw new Error('the suite was accepted');
}

const head = ['name: x', 'vars: { order: "4711" }', 'cases:', '  - name: a'];

describe('simulate', () => {
  test('plans the simulating agent, goal, until and both kinds of checks', () => {
    const suite = parseSuite(
      [
        ...head,
        '    simulate:',
        '      agent: customer',
        '      profile: Staging',
        '      goal: A refund for order {{order}}',
        '      persona: Calm',
        '      max-turns: 4',
        '      until: { regex: "refund (issued|sent)" }',
        '    each-turn: [{ not-contains: sorry }]',
        '    assert:',
        "      - remembers: { fact: '{{order}}', from-turn: 1 }",
        '      - turns-at-most: 3',
      ].join('\n'),
      'suite.yaml',
      {},
    );
    expect(suite.cases[0]).toMatchObject({
      steps: [],
      stream: true,
      simulate: {
        line: 5,
        agent: 'customer',
        profile: 'Staging',
        goal: 'A refund for order 4711',
        persona: 'Calm',
        maxTurns: 4,
        prompt: DEFAULT_SIMULATE_PROMPT,
        until: { kind: 'regex', pattern: 'refund (issued|sent)', line: 11 },
        eachTurn: [{ kind: 'not-contains', text: 'sorry', line: 12 }],
        conversation: [
          { kind: 'remembers', fact: '4711', fromTurn: 1, line: 14 },
          { kind: 'turns-at-most', turns: 3, line: 15 },
        ],
      },
    });
  });

  test('missing and wrong fields of the block, and an unknown assertion in each-turn', () => {
    expect(
      problems(
        [...head, '    simulate: { agent: customer, goal: g, until: { contains: x, regex: y } }'].join('\n'),
      ),
    ).toEqual([
      expect.stringMatching(/^suite\.yaml:5:\d+: cases\[0\]\.simulate(\.max-turns)?: .*max-turns/i),
      expect.stringMatching(
        /^suite\.yaml:5:\d+: cases\[0\]\.simulate\.until: until names one of: contains, regex\./,
      ),
    ]);
    expect(
      problems(
        [...head, '    simulate: { agent: customer, goal: g, max-turns: 0, until: { contians: x } }'].join(
          '\n',
        ),
      ),
    ).toEqual([
      expect.stringMatching(/^suite\.yaml:5:\d+: cases\[0\]\.simulate\.max-turns: /),
      expect.stringMatching(
        /^suite\.yaml:5:\d+: cases\[0\]\.simulate\.until\.contians: Unknown field "contians"\./,
      ),
    ]);
    expect(
      problems(
        [
          ...head,
          '    simulate: { agent: c, goal: g, max-turns: 2, until: { contains: x } }',
          '    each-turn: [{ contain: x }]',
        ].join('\n'),
      ),
    ).toEqual([
      expect.stringMatching(
        /^suite\.yaml:6:\d+: cases\[0\]\.each-turn\[0\]\.contain: Unknown assertion "contain": use one of contains/,
      ),
    ]);
  });

  test('a message beside it, a bad prompt, a regex that does not compile', () => {
    expect(
      problems(
        [
          ...head,
          '    message: hi',
          '    simulate:',
          '      agent: customer',
          '      goal: g',
          '      max-turns: 2',
          '      until: { regex: "((" }',
          '      prompt: "Play {{persona}} and {{mood}}"',
        ].join('\n'),
      ),
    ).toEqual([
      expect.stringMatching(
        /^suite\.yaml:5:\d+: cases\[0\]\.message: A simulated conversation writes its own messages/,
      ),
      expect.stringMatching(
        /^suite\.yaml:10:\d+: cases\[0\]\.simulate\.until\.regex: The regex does not compile/,
      ),
      expect.stringMatching(
        /^suite\.yaml:11:\d+: cases\[0\]\.simulate\.prompt: Unknown placeholder \{\{mood\}\}/,
      ),
    ]);
  });

  test('each checks where it belongs, and no check that can never fail', () => {
    expect(
      problems(
        [
          ...head,
          '    simulate: { agent: customer, goal: g, max-turns: 3, until: { contains: done } }',
          '    each-turn:',
          '      - turns-at-most: 2',
          '    assert:',
          '      - contains: done',
          '      - remembers: "4711"',
          '      - turns-at-most: 5',
          '      - remembers: { fact: "4711", from-turn: 3 }',
        ].join('\n'),
      ),
    ).toEqual([
      expect.stringMatching(
        /^suite\.yaml:7:\d+: cases\[0\]\.each-turn\[0\]\.turns-at-most: .*goes in the case's `assert`/,
      ),
      expect.stringMatching(
        /^suite\.yaml:9:\d+: cases\[0\]\.assert\[0\]\.contains: .*put checks of each reply under `each-turn`/,
      ),
      expect.stringMatching(
        /^suite\.yaml:10:\d+: cases\[0\]\.assert\[1\]\.remembers: .*\{ fact: "4711", from-turn: 1 \}/,
      ),
      expect.stringMatching(
        /^suite\.yaml:11:\d+: cases\[0\]\.assert\[2\]\.turns-at-most: .*more than max-turns \(3\)/,
      ),
      expect.stringMatching(
        /^suite\.yaml:12:\d+: cases\[0\]\.assert\[3\]\.remembers: remembers from turn 3: a later reply must come/,
      ),
    ]);
  });

  test('conversation checks and each-turn outside a simulated conversation', () => {
    expect(
      problems(
        [
          ...head,
          '    message: hi',
          '    each-turn: [{ contains: x }]',
          '    assert: [{ turns-at-most: 2 }, { remembers: { fact: hi } }]',
        ].join('\n'),
      ),
    ).toEqual([
      expect.stringMatching(
        /^suite\.yaml:6:\d+: cases\[0\]\.each-turn: `each-turn` checks every reply of a simulated conversation/,
      ),
      expect.stringMatching(
        /^suite\.yaml:7:\d+: cases\[0\]\.assert\[0\]\.turns-at-most: turns-at-most and remembers \{ fact \} judge a whole simulated conversation/,
      ),
      expect.stringMatching(
        /^suite\.yaml:7:\d+: cases\[0\]\.assert\[1\]\.remembers: turns-at-most and remembers/,
      ),
    ]);
  });
});
