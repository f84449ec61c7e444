// Datasets (`vars-file`): a CSV or JSONL file beside the suite turns a case into one case per row,
// read as a stream; a row that does not parse is a problem naming the suite's field and the
// dataset's line. And what a run takes of the expanded cases: `--sample N --seed S`, `--shard i/n`.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { loadSuiteFile, parseSuite, type LoadedSuite } from '../../../electron/core/suites/suite-loader';
import { parseShard, sampleCases, shardCases } from '../../../electron/core/suites/run-slice';
import { removeDir, tempDir } from '../../support/mock';

const dir = tempDir('agent-console-dataset-');
afterAll(() => removeDir(dir));

function suiteWith(name: string, dataset: string, text: string | Buffer): string {
  writeFileSync(join(dir, dataset), text);
  const file = join(dir, `${name}.yaml`);
  writeFileSync(
    file,
    [
      `name: ${name}`,
      'targets: { agents: [echo] }',
      'cases:',
      '  - name: refund',
      '    message: "Refund {{order}}: {{note}}"',
      `    vars-file: ${dataset}`,
      '    assert: [{ contains: "{{order}}" }]',
    ].join('\n'),
  );
  return file;
}

async function problemOf(file: string): Promise<string> {
  try {
    await loadSuiteFile(file, {});
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('the suite loaded');
}

describe('a CSV dataset', () => {
  test('one case per row: header = variables, quoted fields, a BOM, UTF-8, named by file and line', async () => {
    const csv = '\uFEFForder,note\n4711,"late, very ""late"""\n\n4712,"two\nlines"\n4713,café ☕\n';
    const suite = await loadSuiteFile(suiteWith('quoted', 'refunds.csv', csv), {});
    expect(suite.cases.map((c) => [c.key, c.name, c.steps[0]?.message])).toEqual([
      ['1.1', 'refund [refunds.csv:2]', 'Refund 4711: late, very "late"'],
      ['1.2', 'refund [refunds.csv:4]', 'Refund 4712: two\nlines'],
      ['1.3', 'refund [refunds.csv:6]', 'Refund 4713: café ☕'],
    ]);
    expect(suite.cases[2]?.steps[0]?.checks).toEqual([{ kind: 'contains', line: 7, text: '4713' }]);
  });

  test('10,000 rows expand, in well under a second', async () => {
    const rows = Array.from({ length: 10_000 }, (_, i) => `${i},"note ${i}"`);
    const file = suiteWith('big', 'big.csv', `order,note\n${rows.join('\n')}\n`);
    const t0 = performance.now();
    const suite = await loadSuiteFile(file, {});
    const ms = performance.now() - t0;
    expect(suite.cases).toHaveLength(10_000);
    expect(suite.cases.at(-1)).toMatchObject({ key: '1.10000', name: 'refund [big.csv:10001]' });
    // One second is the promise; the bound leaves room for a loaded CI machine.
    expect(ms).toBeLessThan(3_000);
  });

  test('a row that does not parse names the suite’s field and the dataset’s line', async () => {
    const file = suiteWith('broken', 'broken.csv', 'order,note\n4711,ok\n4712,too,many\n');
    expect(await problemOf(file)).toBe(
      `${file}:6:5: cases[0].vars-file: broken.csv line 3: Invalid Record Length: columns length is 2, got 3.`,
    );
    const quote = suiteWith('quote', 'quote.csv', 'order,note\n4711,"never closed\n');
    expect(await problemOf(quote)).toMatch(
      /:6:5: cases\[0\]\.vars-file: quote\.csv line 2: Quote Not Closed/,
    );
  });

  test('a header that is no variable name, a missing file', async () => {
    expect(await problemOf(suiteWith('header', 'header.csv', 'order id,note\n1,2\n'))).toContain(
      'cases[0].vars-file: header.csv line 1: "order id" is no variable name: a name is letters, digits, _ and -.',
    );
    const file = suiteWith('missing', 'present.csv', 'order,note\n1,2\n');
    writeFileSync(file, readSuite(file).replace('present.csv', 'absent.csv'));
    expect(await problemOf(file)).toContain('cases[0].vars-file: absent.csv: Cannot read the file (ENOENT).');
  });

  test('suite text that is no file cannot name a dataset', () => {
    expect(() =>
      parseSuite('name: x\ncases:\n  - { name: a, message: hi, vars-file: rows.csv }\n', 'x.yaml', {}),
    ).toThrow('x.yaml:3:29: cases[0].vars-file: A vars-file is read beside a suite file on disk');
  });
});

function readSuite(file: string): string {
  return readFileSync(file, 'utf8');
}

describe('a JSONL dataset', () => {
  test('one object per line; a line that is not one names its line', async () => {
    const good = await loadSuiteFile(
      suiteWith(
        'lines',
        'rows.jsonl',
        '{"order": 4711, "note": "late"}\n\n{"order": "4712", "note": true}\n',
      ),
      {},
    );
    expect(good.cases.map((c) => c.steps[0]?.message)).toEqual(['Refund 4711: late', 'Refund 4712: true']);
    expect(await problemOf(suiteWith('badline', 'bad.jsonl', '{"order": 1, "note": 2}\n[1, 2]\n'))).toContain(
      'cases[0].vars-file: bad.jsonl line 2: A line of a .jsonl dataset is one JSON object of variables.',
    );
  });
});

describe('what a run takes of its cases', () => {
  const suites = (): LoadedSuite[] => [
    parseSuite(`name: a\ncases:\n  - name: x{{n}}\n    message: hi\n    vars: ${rows(30)}\n`, 'a.yaml', {}),
    parseSuite(`name: b\ncases:\n  - name: y{{n}}\n    message: hi\n    vars: ${rows(70)}\n`, 'b.yaml', {}),
  ];
  const names = (picked: LoadedSuite[]): string[] => picked.flatMap((s) => s.cases.map((c) => c.name));

  test('--sample 50 --seed 1 picks the same 50 cases twice, in their order; another seed others', () => {
    const first = names(sampleCases(suites(), 50, 1));
    expect(first).toHaveLength(50);
    expect(names(sampleCases(suites(), 50, 1))).toEqual(first);
    expect(names(sampleCases(suites(), 50, 2))).not.toEqual(first);
    const all = names(suites());
    expect(first).toEqual(all.filter((n) => first.includes(n)));
    expect(names(sampleCases(suites(), 500, 1))).toEqual(all);
  });

  test('four shards split the cases between them, each once, evenly', () => {
    const shards = [1, 2, 3, 4].map((i) => names(shardCases(suites(), i, 4)));
    expect(shards.map((s) => s.length)).toEqual([25, 25, 25, 25]);
    expect(shards.flat().sort()).toEqual(names(suites()).sort());
    expect(parseShard('2/4')).toEqual({ index: 2, count: 4 });
    expect([parseShard('0/4'), parseShard('5/4'), parseShard('1'), parseShard('a/b')]).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
  });
});

function rows(n: number): string {
  return JSON.stringify(Array.from({ length: n }, (_, i) => ({ n: String(i) })));
}
