// A journal read a line at a time gives back exactly the lines written, whatever falls on the
// boundary of a read: a line longer than a read, a character of several bytes split between two.
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { isLinkRefusal } from '../../electron/core/private-files';
import { readPrivateLinesSync } from '../../electron/core/private-lines';

const dir = mkdtempSync(join(tmpdir(), 'agent-console-lines-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const read = (file: string) => {
  const lines: string[] = [];
  const { endsWithNewline } = readPrivateLinesSync(file, (line) => lines.push(line));
  return { lines, endsWithNewline };
};

test('every line as written, across reads, multi-byte characters and an unfinished last line', () => {
  // 3-byte and 4-byte characters at every offset, so some straddle the 64 KB reads.
  const lines = Array.from(
    { length: 3000 },
    (_, i) => `${i} ${'é€😀'.repeat(i % 17)} ${'x'.repeat(i % 101)}`,
  );
  lines.push('a line longer than a read: ' + 'ü'.repeat(70_000));
  const file = join(dir, 'journal.jsonl');
  writeFileSync(file, `${lines.join('\n')}\n`);
  expect(read(file)).toEqual({ lines, endsWithNewline: true });

  writeFileSync(file, `${lines.join('\n')}\ncut sho`);
  expect(read(file)).toEqual({ lines: [...lines, 'cut sho'], endsWithNewline: false });

  writeFileSync(file, '');
  expect(read(file)).toEqual({ lines: [], endsWithNewline: true });
});

test('a link in the journal’s place is refused, not read through', () => {
  const target = join(dir, 'elsewhere.txt');
  writeFileSync(target, 'not ours\n');
  const link = join(dir, 'linked.jsonl');
  symlinkSync(target, link);
  expect(() => read(link)).toThrow();
  try {
    read(link);
  } catch (error) {
    expect(isLinkRefusal(error)).toBe(true);
  }
});
