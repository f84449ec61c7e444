// The renderer's style sheets keep one case for labels: headers and captions are written as they
// read (sentence case) and no rule turns them into capitals, so every screen's tables look alike.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';

const sheets = readdirSync('renderer', { recursive: true, encoding: 'utf8' })
  .filter((file) => file.endsWith('.css'))
  .map((file) => join('renderer', file));

test('no style sheet upper-cases text: table headers and captions read as written', () => {
  expect(sheets.length).toBeGreaterThan(5);
  const upper = sheets.filter((file) => /text-transform:\s*uppercase/.test(readFileSync(file, 'utf8')));
  expect(upper).toEqual([]);
});
