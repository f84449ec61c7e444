// Patterns a suite file writes (regex assertions, a JSON Schema's pattern and patternProperties)
// run on a linear-time engine: a pull request cannot make a reply take minutes to check. What a
// suite author relies on: JavaScript's syntax and flags mean what they mean in JavaScript, what
// the engine cannot do is refused in words at load, and no pattern runs past its budget.
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { evaluate, type Observation } from '../../../electron/core/suites/assertions';
import { compileJsonSchema, schemaMismatch } from '../../../electron/core/suites/json-schema-check';
import { compileLinearRegex } from '../../../electron/core/suites/linear-regex';
import { parseSuite, SuiteFileError } from '../../../electron/core/suites/suite-loader';

const obs = (reply: string): Observation => ({
  reply,
  streamed: false,
  chunkTimesMs: [],
  completed: true,
  status: 200,
});

const regexCheck = (pattern: string, flags = '', reply = '') =>
  evaluate({ kind: 'regex', line: 1, pattern, flags }, obs(reply));

/** The one problem of a suite whose only assertion is `assertion` (YAML flow text). */
function loadProblem(assertion: string): string {
  try {
    parseSuite(
      `name: x\ncases:\n  - name: a\n    message: hi\n    assert:\n      - ${assertion}\n`,
      's.yaml',
      {},
    );
  } catch (error) {
    expect(error).toBeInstanceOf(SuiteFileError);
    return (error as Error).message;
  }
  throw new Error('the suite was accepted');
}

/**
 * A backtracking engine takes minutes on these inputs, a linear one milliseconds: a bound far from
 * both tells them apart on a machine busy with other tests.
 */
const FAR_FROM_MINUTES_MS = 5_000;

describe('a catastrophic pattern finishes at once', () => {
  const long = `${'a'.repeat(100_000)}b`;

  test('(a+)+$ on a long run of a’s ending in b: a regex assertion', () => {
    const started = performance.now();
    expect(regexCheck('(a+)+$', '', long).passed).toBe(false);
    expect(regexCheck('^(a|aa)+$', '', long).passed).toBe(false);
    expect(performance.now() - started).toBeLessThan(FAR_FROM_MINUTES_MS);
  });

  test('the same in a JSON Schema pattern and patternProperties', () => {
    const schema = {
      type: 'object',
      properties: { name: { type: 'string', pattern: '^(a+)+$' } },
      patternProperties: { '^(x+x+)+y$': { type: 'number' } },
    };
    const started = performance.now();
    expect(schemaMismatch(schema, { name: long })).toBe('/name must match pattern "^(a+)+$"');
    expect(schemaMismatch(schema, { [`${'x'.repeat(50_000)}`]: 'not a number' })).toBeUndefined();
    expect(performance.now() - started).toBeLessThan(FAR_FROM_MINUTES_MS);
  });

  test('a pattern too costly for the reply’s length fails in words, without running', () => {
    const costly = 'a[ab]{500}Z';
    const reply = 'ab'.repeat(500_000);
    const started = performance.now();
    const result = regexCheck(costly, '', reply);
    expect(performance.now() - started).toBeLessThan(FAR_FROM_MINUTES_MS);
    expect(result.passed).toBe(false);
    expect(result.actual).toMatch(
      /^not checked: a pattern this large on a reply of 1,000,000 characters is past the time budget of suite patterns/,
    );
  });
});

describe('what the engine cannot do is a load problem that says why', () => {
  test.each([
    [
      'regex: "^(?=.*a)b"',
      's.yaml:6:9: cases[0].assert[0].regex: lookahead is not supported: suite patterns run on a linear-time engine.',
    ],
    [
      'regex: "(?!x)y"',
      's.yaml:6:9: cases[0].assert[0].regex: lookahead is not supported: suite patterns run on a linear-time engine.',
    ],
    [
      'regex: "(?<=a)b"',
      's.yaml:6:9: cases[0].assert[0].regex: lookbehind is not supported: suite patterns run on a linear-time engine.',
    ],
    [
      'regex: "(a)\\\\1"',
      's.yaml:6:9: cases[0].assert[0].regex: backreferences (\\1) are not supported: suite patterns run on a linear-time engine.',
    ],
    [
      'regex: "(?<w>a)\\\\k<w>"',
      's.yaml:6:9: cases[0].assert[0].regex: backreferences (\\k<w>) are not supported: suite patterns run on a linear-time engine.',
    ],
    [
      'json: { schema: { type: string, pattern: "^(?!admin)" } }',
      's.yaml:6:9: cases[0].assert[0].json: The JSON Schema is not valid: pattern "^(?!admin)": lookahead is not supported: suite patterns run on a linear-time engine.',
    ],
  ])('%s', (assertion, message) => {
    expect(loadProblem(assertion)).toBe(message);
  });

  test('the v flag’s set notation is refused by the schema, with the flags that are', () => {
    expect(loadProblem('regex: { pattern: "[a--b]", flags: v }')).toMatch(
      /^s\.yaml:6:\d+: cases\[0\]\.assert\[0\]\.regex\.flags: Regex flags are letters among d, i, m, s, u and y/,
    );
  });

  test('a pattern too large for the engine', () => {
    expect(loadProblem('regex: "(?:(?:a|b|c){1000}){1000}"')).toMatch(
      /^s\.yaml:6:9: cases\[0\]\.assert\[0\]\.regex: The regex does not compile on the linear-time engine: /,
    );
  });
});

describe('JavaScript’s flags and classes mean what they mean in JavaScript', () => {
  test.each([
    // [pattern, flags, reply, JavaScript's answer]
    ['^echo', 'i', 'Echo: hi', true],
    ['^b$', '', 'a\nb', false],
    ['^b$', 'm', 'a\nb', true],
    ['a.b', '', 'a\nb', false],
    ['a.b', '', 'a\rb', false],
    ['a.b', 's', 'a\nb', true],
    ['^.$', 'u', '😀', true],
    ['^\\u{1F600}$', 'u', '😀', true],
    ['a\\sb', '', 'a\u00a0b', true],
    ['a\\sb', '', 'a\u2028b', true],
    ['a\\Sb', '', 'a\u00a0b', false],
    ['a[\\s]b', '', 'a\u00a0b', true],
    ['a[^\\s]b', '', 'a\u00a0b', false],
    ['a[\\S]b', '', 'a\u00a0b', false],
    ['\\w+', '', 'é', false],
    ['(?<year>\\d{4})-\\d{2}', '', 'in 2024-05', true],
    ['hello', 'y', 'say hello', false],
    ['say', 'y', 'say hello', true],
    ['^b', 'ym', 'a\nb', false],
    ['hello', 'd', 'say hello', true],
    ['[^]', '', '\n', true],
    ['a/b', '', 'a/b', true],
    ['\\cJ', '', '\n', true],
  ] as const)('/%s/%s on %j', (pattern, flags, reply, expected) => {
    expect(new RegExp(pattern, flags).test(reply)).toBe(expected);
    expect(regexCheck(pattern, flags, reply).passed).toBe(expected);
  });

  test('on generated patterns and replies, the linear engine agrees with JavaScript', () => {
    const atom = fc.oneof(
      fc.constantFrom(
        'a',
        'b',
        'é',
        '😀',
        ' ',
        '\\n',
        '.',
        '\\d',
        '\\w',
        '\\s',
        '\\S',
        '\\W',
        '\\b',
        '[ab]',
        '[^a]',
        '[\\s\\d]',
      ),
      fc.constantFrom('^', '$'),
    );
    const quantified = fc
      .tuple(atom, fc.constantFrom('', '', '*', '+', '?', '{1,2}', '*?'))
      .map(([a, q]) => (a === '^' || a === '$' || a === '\\b' ? a : a + q));
    const sequence = fc.array(quantified, { minLength: 1, maxLength: 5 }).map((parts) => parts.join(''));
    const pattern = fc.tuple(sequence, fc.option(sequence), fc.boolean()).map(([a, b, group]) => {
      const body = b === null ? a : `${a}|${b}`;
      return group ? `(${body})+` : body;
    });
    // Always u: the engine matches whole characters, as JavaScript does with u (README).
    const flags = fc.subarray(['i', 'm', 's']).map((f) => `${f.join('')}u`);
    const reply = fc
      .array(fc.constantFrom('a', 'b', 'A', 'é', '😀', ' ', '\n', '\r', '\u00a0', '1', '_'), {
        maxLength: 12,
      })
      .map((c) => c.join(''));
    fc.assert(
      fc.property(pattern, flags, reply, (p, f, raw) => {
        // With m, JavaScript also ends a line at \r; the engine at \n only (README).
        const text = f.includes('m') ? raw.replaceAll('\r', '') : raw;
        expect(compileLinearRegex(p, f).test(text)).toBe(new RegExp(p, f).test(text));
      }),
      { numRuns: 500 },
    );
  });

  test('a pattern is compiled once, and a schema with one is kept', () => {
    expect(compileLinearRegex('^a+$', 'i')).toBe(compileLinearRegex('^a+$', 'i'));
    const schema = { type: 'string', pattern: '^A' };
    expect(compileJsonSchema(schema)).toBe(compileJsonSchema(schema));
  });
});
