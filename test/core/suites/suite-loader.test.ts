// Suite files as a user writes them: what a valid one plans, and for every kind of mistake, a
// message that names the file, the line and the field.
import { randomUUID } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import {
  findSuiteFiles,
  loadSuiteFile,
  parseSuite,
  SuiteFileError,
} from '../../../electron/core/suites/suite-loader';
import { redactSecrets } from '../../../electron/core/redact';
import { removeDir, tempDir } from '../../support/mock';

const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));

/** The one problem `text` has, as the user reads it. */
function problem(text: string, env: Record<string, string> = {}): string {
  try {
    parseSuite(text, 'suite.yaml', env);
  } catch (error) {
    expect(error).toBeInstanceOf(SuiteFileError);
    return (error as Error).message;
  }
  throw new Error('the suite was accepted');
}

describe('a valid suite', () => {
  test('plans one case per vars row, with variables from the row, the suite and the environment', () => {
    const suite = parseSuite(
      [
        'name: Greetings',
        'env: [TEAM]',
        'targets: { agents: [echo, helpdesk], profiles: [Staging] }',
        'vars: { punctuation: "!" }',
        'cases:',
        '  - name: greets {{who}}',
        '    message: "Hello {{who}}{{punctuation}} from {{env.TEAM}}"',
        '    vars:',
        '      - { who: Ada }',
        '      - { who: 42 }',
        '    assert:',
        '      - equals: "Echo: Hello {{who}}{{punctuation}} from {{env.TEAM}}"',
        '  - name: plain',
        '    message: hi',
        '    vars: [{ x: "1" }]',
      ].join('\n'),
      'greetings.yaml',
      { TEAM: 'QA' },
    );
    expect(suite.targets).toEqual({ agents: ['echo', 'helpdesk'], profiles: ['Staging'] });
    expect(suite.cases.map((c) => [c.key, c.name, c.line, c.steps[0]?.message])).toEqual([
      ['1.1', 'greets Ada', 6, 'Hello Ada! from QA'],
      ['1.2', 'greets 42', 6, 'Hello 42! from QA'],
      ['2.1', 'plain [x=1]', 13, 'hi'],
    ]);
    expect(suite.cases[1]?.steps[0]?.checks).toEqual([
      { kind: 'equals', line: 12, text: 'Echo: Hello 42! from QA' },
    ]);
  });

  test('applies defaults, and a thread is never streamed', () => {
    const suite = parseSuite(
      [
        'name: D',
        'defaults: { stream: false, repeat: 3 }',
        'cases:',
        '  - { name: a, message: x }',
        '  - { name: b, message: x, stream: true, repeat: 1 }',
        '  - { name: c, message: x, thread: true, title: "T {{n}}", vars: [{ n: 1 }] }',
      ].join('\n'),
      'd.yaml',
    );
    expect(suite.cases.map((c) => [c.name, c.stream, c.thread, c.repeat, c.title])).toEqual([
      ['a', false, false, 3, undefined],
      ['b', true, false, 1, undefined],
      ['c [n=1]', false, true, 3, 'T 1'],
    ]);
  });

  test('builds a message of an exact byte size without splitting a character', () => {
    const suite = parseSuite(
      [
        'name: Sizes',
        'cases:',
        '  - { name: ascii, message: { fill: a, bytes: 102401 } }',
        '  - { name: multibyte, message: { fill: "é🚀", bytes: 9 } }',
      ].join('\n'),
      's.yaml',
    );
    expect(Buffer.byteLength(suite.cases[0]?.steps[0]?.message ?? '')).toBe(102_401);
    // é is 2 bytes and 🚀 4: 6 + é = 8 bytes; the next 🚀 would pass 9.
    expect(suite.cases[1]?.steps[0]?.message).toBe('é🚀é');
  });

  test('resolves remembers {turn: N} to that turn’s message', () => {
    const suite = parseSuite(
      [
        'name: M',
        'cases:',
        '  - name: memory',
        '    steps:',
        '      - message: my order is 4711',
        '      - message: which order?',
        '        assert: [{ remembers: { turn: 1 } }, { remembers: 4711 }]',
      ].join('\n'),
      'm.yaml',
    );
    expect(suite.cases[0]?.steps[1]?.checks).toEqual([
      { kind: 'remembers', line: 7, text: 'my order is 4711', turn: 1 },
      { kind: 'remembers', line: 7, text: '4711' },
    ]);
  });

  test('the README’s example suite loads as written', () => {
    const readme = readFileSync('README.md', 'utf8');
    const section = readme.slice(readme.indexOf('## Agent test suites'));
    const yaml = /```yaml\n([\s\S]*?)```/.exec(section)?.[1] ?? '';
    const suite = parseSuite(yaml, 'README.md');
    expect(suite.cases.map((c) => c.name)).toEqual(['remembers the order', 'greets Ada', 'greets Grace']);
    expect(suite.cases[0]?.steps[1]?.checks[0]).toMatchObject({ kind: 'remembers', text: '4711' });
  });

  test('every example suite loads', async () => {
    const files = await findSuiteFiles(['examples/agent-tests', 'examples/agent-tests/failing']);
    expect(files.length).toBeGreaterThanOrEqual(7);
    for (const file of files) await expect(loadSuiteFile(file)).resolves.toMatchObject({ file });
  });
});

describe('a broken suite names the file, line and field', () => {
  test('YAML syntax', () => {
    expect(problem('name: x\ncases:\n  - name: "unclosed\n')).toBe('suite.yaml:4:1: Missing closing "quote.');
  });

  test('a duplicate key', () => {
    expect(problem('name: x\nname: y\ncases: []\n')).toMatch(
      /^suite\.yaml:2:1: .*[Uu]nique|^suite\.yaml:2:1: .*[Dd]uplicate/,
    );
  });

  test('two documents in one file', () => {
    expect(problem('name: a\ncases: [{name: a, message: x}]\n---\nname: b\n')).toMatch(
      /^suite\.yaml:3:1: One suite per file/,
    );
  });

  test('an empty file', () => {
    expect(problem('')).toBe('suite.yaml:1:1: The file is empty: a suite needs a name and cases.');
  });

  test('an unknown assertion points at its key and lists the known ones', () => {
    const text = [
      'name: x',
      'cases:',
      '  - name: a',
      '    message: hi',
      '    assert:',
      '      - contain: hi',
    ].join('\n');
    expect(problem(text)).toBe(
      'suite.yaml:6:9: cases[0].assert[0].contain: Unknown assertion "contain": use one of contains, not-contains, ' +
        'equals, regex, starts-with, json, max-length, min-length, ttft-ms, total-ms, min-chunks, max-gap-ms, ' +
        'completes, status, code, remembers, turns-at-most, judge, similar-to.',
    );
  });

  test('a wrong type points at the value', () => {
    const text = [
      'name: x',
      'cases:',
      '  - name: a',
      '    message: hi',
      '    assert:',
      '      - max-length: ten',
    ].join('\n');
    expect(problem(text)).toMatch(
      /^suite\.yaml:6:21: cases\[0\]\.assert\[0\]\.max-length: Invalid input: expected number, received string$/,
    );
  });

  test('a missing field points at the map it is missing from', () => {
    expect(problem('name: x\ncases:\n  - message: hi\n')).toBe(
      'suite.yaml:3:5: cases[0]: Missing the required field "name".',
    );
  });

  test('a generated message without its size names the missing field', () => {
    expect(problem('name: x\ncases:\n  - name: a\n    message: { fill: a }\n')).toBe(
      'suite.yaml:4:14: cases[0].message: Missing the required field "bytes".',
    );
  });

  test('every problem of a file at once', () => {
    const text = [
      'name: x',
      'colour: blue',
      'cases:',
      '  - name: a',
      '    message: hi',
      '    repeat: 0',
    ].join('\n');
    const lines = problem(text).split('\n');
    expect(lines).toEqual([
      'suite.yaml:2:1: colour: Unknown field "colour".',
      'suite.yaml:6:13: cases[0].repeat: Too small: expected number to be >=1',
    ]);
  });

  test('a stream assertion in a case that is not streamed', () => {
    const text = [
      'name: x',
      'cases:',
      '  - name: a',
      '    stream: false',
      '    message: hi',
      '    assert:',
      '      - ttft-ms: 100',
    ].join('\n');
    expect(problem(text)).toBe(
      'suite.yaml:7:9: cases[0].assert[0].ttft-ms: ttft-ms needs a streamed reply, and this case is not streamed (stream: false).',
    );
  });

  test('a streamed thread', () => {
    expect(problem('name: x\ncases:\n  - { name: a, message: hi, thread: true, stream: true }\n')).toMatch(
      /^suite\.yaml:3:\d+: cases\[0\]\.stream: Thread replies are not streamed/,
    );
  });

  test('remembers in a first turn, of a later turn, or of something never said', () => {
    const first = [
      'name: x',
      'cases:',
      '  - name: a',
      '    message: hi',
      '    assert: [{ remembers: hi }]',
    ].join('\n');
    expect(problem(first)).toMatch(/^suite\.yaml:5:\d+: .*cannot be in the first turn/);
    const later = [
      'name: x',
      'cases:',
      '  - name: a',
      '    steps:',
      '      - message: one',
      '      - message: two',
      '        assert: [{ remembers: { turn: 2 } }, { remembers: three }]',
    ].join('\n');
    expect(problem(later).split('\n')).toEqual([
      expect.stringMatching(
        /^suite\.yaml:7:\d+: cases\[0\]\.steps\[1\]\.assert\[0\]\.remembers: remembers turn 2: only turn 1 comes before this one\./,
      ),
      expect.stringMatching(
        /^suite\.yaml:7:\d+: cases\[0\]\.steps\[1\]\.assert\[1\]\.remembers: remembers "three": no earlier turn/,
      ),
    ]);
  });

  test('a regex or JSON Schema that does not compile', () => {
    const text = [
      'name: x',
      'cases:',
      '  - name: a',
      '    message: hi',
      '    assert:',
      '      - regex: "(("',
      '      - json: { schema: { type: objekt } }',
    ].join('\n');
    expect(problem(text).split('\n')).toEqual([
      expect.stringMatching(/^suite\.yaml:6:9: cases\[0\]\.assert\[0\]\.regex: The regex does not compile/),
      expect.stringMatching(/^suite\.yaml:7:9: cases\[0\]\.assert\[1\]\.json: The JSON Schema is not valid/),
    ]);
  });

  test('an unknown variable, an unset environment variable', () => {
    const text = [
      'name: x',
      'env: [NOT_SET_HERE]',
      'cases:',
      '  - name: a',
      '    message: "{{who}} {{env.NOT_SET_HERE}}"',
    ].join('\n');
    expect(problem(text).split('\n')).toEqual([
      expect.stringMatching(/^suite\.yaml:5:5: cases\[0\]\.message: Unknown variable \{\{who\}\}/),
      'suite.yaml:5:5: cases[0].message: The environment variable NOT_SET_HERE is not set (used as {{env.NOT_SET_HERE}}).',
    ]);
  });

  test('two cases with one name', () => {
    expect(problem('name: x\ncases:\n  - { name: a, message: x }\n  - { name: a, message: y }\n')).toMatch(
      /^suite\.yaml:4:\d+: cases\[1\]\.name: Two cases are named "a" \(the other is on line 3\)\./,
    );
  });

  test('both message and steps, or neither', () => {
    expect(problem('name: x\ncases:\n  - name: a\n    message: hi\n    steps: [{ message: x }]\n')).toMatch(
      /^suite\.yaml:4:5: cases\[0\]\.message: A case has either/,
    );
    expect(problem('name: x\ncases:\n  - name: a\n')).toMatch(
      /^suite\.yaml:3:5: cases\[0\]: A case needs a `message`/,
    );
  });
});

// A suite file may come from a pull request: it reads the environment variables it lists under
// `env:` and no others, never the one that holds the API key, and never into a name that reports show.
describe('the environment a suite file may read', () => {
  /** A value never seen before: remembered secrets stay remembered for the rest of the process. */
  const fresh = (): string => `ci-${randomUUID()}`;
  const secret = fresh();

  test('an undeclared variable is a problem at its line, and its value is nowhere in the message', () => {
    const text = ['name: x', 'cases:', '  - name: a', '    message: "send {{env.CI_SECRET}}"'].join('\n');
    expect(problem(text, { CI_SECRET: secret })).toBe(
      'suite.yaml:4:5: cases[0].message: {{env.CI_SECRET}} reads an environment variable the suite does not declare: list it under `env:` at the top of the file (env: [CI_SECRET]).',
    );
  });

  test('AGENT_API_KEY may be neither declared nor used', () => {
    const text = [
      'name: x',
      'env: [CI_SECRET, AGENT_API_KEY]',
      'cases:',
      '  - name: a',
      '    message: "{{env.AGENT_API_KEY}}"',
    ].join('\n');
    expect(problem(text, { AGENT_API_KEY: `abc_${'k'.repeat(32)}` }).split('\n')).toEqual([
      'suite.yaml:2:18: env[1]: AGENT_API_KEY holds the API key: a suite file cannot read it.',
      'suite.yaml:5:5: cases[0].message: AGENT_API_KEY holds the API key: a suite file cannot read it.',
    ]);
  });

  test('nor, in any case of letters, the variable a monitor takes its key from', () => {
    const text = ['name: x', 'env: [staging_key]', 'cases: [{ name: a, message: hi }]'].join('\n');
    expect(() => parseSuite(text, 'suite.yaml', {}, { keyEnv: 'STAGING_KEY' })).toThrow(
      'suite.yaml:2:7: env[0]: staging_key holds the API key: a suite file cannot read it.',
    );
  });

  test('a declared variable that holds a key-shaped value is refused, whatever its name', () => {
    const text = ['name: x', 'env: [OTHER]', 'cases: [{ name: a, message: "{{env.OTHER}}" }]'].join('\n');
    expect(problem(text, { OTHER: `xyz_${'Q'.repeat(32)}` }).split('\n')).toEqual([
      'suite.yaml:2:7: env[0]: OTHER holds an API key (its value is key-shaped): a suite file cannot read it.',
      'suite.yaml:3:20: cases[0].message: OTHER holds an API key (its value is key-shaped): a suite file cannot read it.',
    ]);
  });

  test('names are never read from the environment, declared or not: the case name and the thread title', () => {
    const text = [
      'name: x',
      'env: [CI_SECRET]',
      'cases:',
      '  - name: "exfil {{env.CI_SECRET}}"',
      '    thread: true',
      '    title: "t {{env.CI_SECRET}}"',
      '    message: hi',
    ].join('\n');
    expect(problem(text, { CI_SECRET: secret }).split('\n')).toEqual([
      'suite.yaml:4:5: cases[0].name: Names are shown in reports; they cannot read the environment ({{env.CI_SECRET}}).',
      'suite.yaml:6:5: cases[0].title: Names are shown in reports; they cannot read the environment ({{env.CI_SECRET}}).',
    ]);
  });

  test('a declared value is a secret from the moment the file loads: masked in every output', () => {
    const secret = fresh();
    const text = ['name: x', 'env: [CI_SECRET]', 'cases: [{ name: a, message: "token {{env.CI_SECRET}}" }]'];
    expect(redactSecrets(`the token is ${secret}`)).toBe(`the token is ${secret}`);
    const suite = parseSuite(text.join('\n'), 'suite.yaml', { CI_SECRET: secret });
    expect(suite.cases[0]?.steps[0]?.message).toBe(`token ${secret}`);
    expect(suite.warnings).toEqual([]);
    expect(redactSecrets(`the token is ${secret}`)).toBe(`the token is ***…${secret.slice(-4)}`);
  });

  test('a declared value too short to mask is said in one line', () => {
    const text = ['name: x', 'env: [CI_PIN]', 'cases: [{ name: a, message: "pin {{env.CI_PIN}}" }]'];
    const suite = parseSuite(text.join('\n'), 'suite.yaml', { CI_PIN: '4711' });
    expect(suite.warnings).toEqual(['CI_PIN is shorter than 8 characters, so it is not masked in output.']);
    expect(redactSecrets('pin 4711')).toBe('pin 4711');
  });

  test('a variable name in env: is checked by the schema', () => {
    expect(problem('name: x\nenv: [BAD-NAME]\ncases: [{ name: a, message: hi }]\n')).toMatch(
      /^suite\.yaml:2:7: env\[0\]: An environment variable name is letters, digits and _/,
    );
  });
});

describe('finding suite files', () => {
  test('a folder gives its own *.yaml and *.yml files, not its subfolders’', async () => {
    const dir = tempDir('agent-console-suites-');
    dirs.push(dir);
    mkdirSync(join(dir, 'drafts'));
    for (const name of ['b.yml', 'a.yaml', 'notes.txt', 'drafts/c.yaml']) writeFileSync(join(dir, name), '');
    expect(await findSuiteFiles([dir])).toEqual([join(dir, 'a.yaml'), join(dir, 'b.yml')]);
    expect(await findSuiteFiles([join(dir, 'drafts/c.yaml'), dir])).toEqual([
      join(dir, 'drafts/c.yaml'),
      join(dir, 'a.yaml'),
      join(dir, 'b.yml'),
    ]);
  });

  test('a missing path or an empty folder is an error naming it', async () => {
    const dir = tempDir('agent-console-suites-');
    dirs.push(dir);
    await expect(findSuiteFiles([join(dir, 'nope')])).rejects.toThrow(
      `${join(dir, 'nope')}: No such file or folder.`,
    );
    await expect(findSuiteFiles([dir])).rejects.toThrow(
      `${dir}: The folder holds no suite files (*.yaml, *.yml).`,
    );
    await expect(loadSuiteFile(join(dir, 'gone.yaml'))).rejects.toThrow(
      /gone\.yaml: Cannot read the file \(ENOENT\)/,
    );
  });
});
