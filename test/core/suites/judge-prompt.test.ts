// How a grader's answer is read (tolerantly: JSON, a fenced block, JSON inside prose, a bare
// score) and how a suite file's judges are checked before anything is sent.
import { describe, expect, test } from 'vitest';
import {
  DEFAULT_JUDGE_PROMPT,
  fillPrompt,
  readVerdict,
  templateProblem,
} from '../../../electron/core/suites/judge-prompt';
import { parseSuite, SuiteFileError } from '../../../electron/core/suites/suite-loader';

describe('a grader answer', () => {
  test.each([
    ['{"score": 4, "pass": true, "reason": "ok"}', { score: 4, pass: true, reason: 'ok' }],
    [
      'Verdict:\n```json\n{"score": 2, "pass": false, "reason": "off topic"}\n```\nBye.',
      { score: 2, pass: false },
    ],
    ['I think {"score": "5", "reason": "spot on"} is fair.', { score: 5, reason: 'spot on' }],
    ['{"pass": false, "reason": "rude"}', { pass: false, reason: 'rude' }],
    ['4', { score: 4, reason: '' }],
    ['Score: 3/5.', { score: 3 }],
  ])('%j is read as a verdict', (answer, verdict) => {
    expect(readVerdict(answer, 'grader')).toMatchObject({ agent: 'grader', ...verdict });
  });

  test.each([['I would rather not say.'], ['{"score": 9}'], ['{"reason": "no score"}'], ['7'], ['']])(
    '%j is no verdict',
    (answer) => {
      expect(readVerdict(answer, 'grader')).toBeUndefined();
    },
  );
});

describe('the grader prompt', () => {
  test('the default fills every placeholder, once, leaving a reply that quotes one as said', () => {
    const filled = fillPrompt(DEFAULT_JUDGE_PROMPT, {
      rubric: 'Is polite.',
      message: 'hi',
      reply: 'say {{rubric}}',
      conversation: '(none)',
    });
    expect(filled).toContain('<rubric>\nIs polite.\n</rubric>');
    expect(filled).toContain('<reply>\nsay {{rubric}}\n</reply>');
    expect(templateProblem(DEFAULT_JUDGE_PROMPT)).toBeUndefined();
  });

  test('a template without the rubric or the reply, or with an unknown placeholder, is refused', () => {
    expect(templateProblem('Grade {{reply}}')).toBe(
      'A grader prompt needs {{rubric}}: the grader cannot judge without it.',
    );
    expect(templateProblem('{{rubric}} {{reply}} {{answer}}')).toMatch(/^Unknown placeholder \{\{answer\}\}/);
  });
});

function problems(text: string): string {
  try {
    parseSuite(text, 'suite.yaml', {});
  } catch (error) {
    expect(error).toBeInstanceOf(SuiteFileError);
    return (error as Error).message;
  }
  throw new Error('the suite was accepted');
}

/** A suite whose prompt lacks {{rubric}}, with a judge that names no grader: zod lets both through. */
const JUDGED_CASE = [
  'name: Judged',
  'grader:',
  '  prompt: "Grade {{reply}}"',
  'cases:',
  '  - name: a',
  '    message: hi',
  '    assert:',
  '      - judge: { rubric: Polite }',
];

describe('judges in a suite file', () => {
  test('a judge with no grading agent, a bad pass score and a bad prompt, each at its line and field', () => {
    expect(
      problems(
        [
          ...JUDGED_CASE,
          '      - similar-to: { text: hello, min: 1.5, agent: grader }',
          '      - judge: { rubric: Polite, agent: grader, pass: 6 }',
        ].join('\n'),
      ),
    ).toBe(
      [
        'suite.yaml:9:41: cases[0].assert[1].similar-to.min: Too big: expected number to be <=1',
        'suite.yaml:10:55: cases[0].assert[2].judge.pass: Too big: expected number to be <=5',
      ].join('\n'),
    );
    expect(problems([...JUDGED_CASE].join('\n'))).toBe(
      [
        'suite.yaml:3:3: grader.prompt: A grader prompt needs {{rubric}}: the grader cannot judge without it.',
        'suite.yaml:8:9: cases[0].assert[0].judge: judge needs a grading agent: give it `agent:`, or the suite `grader: { agent: … }`.',
      ].join('\n'),
    );
  });

  test("the suite's grader is every judge's unless it names its own; variables fill the rubric", () => {
    const suite = parseSuite(
      [
        'name: Judged',
        'grader: { agent: grader, profile: Staging }',
        'vars: { topic: refunds }',
        'cases:',
        '  - name: a',
        '    message: hi',
        '    assert:',
        '      - judge: { rubric: "Talks about {{topic}}" }',
        '      - similar-to: { text: hello, agent: other }',
      ].join('\n'),
      'suite.yaml',
      {},
    );
    expect(suite.cases[0]?.steps[0]?.checks).toEqual([
      expect.objectContaining({
        kind: 'judge',
        rubric: 'Talks about refunds',
        agent: 'grader',
        profile: 'Staging',
        pass: 4,
      }),
      expect.objectContaining({
        kind: 'similar-to',
        text: 'hello',
        rubric: 'The reply means the same as "hello".',
        agent: 'other',
        min: 0.8,
        prompt: DEFAULT_JUDGE_PROMPT,
      }),
    ]);
  });
});
