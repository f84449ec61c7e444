// The in-app link a reviews export gives each row: made from a record (and message) and read back
// from a whole address or the link alone; anything else pasted or typed is no link, never a throw.
import { expect, test } from 'vitest';
import { historyLink, readHistoryLink } from '../../shared/review';

test('a link names its record and message, and reads back from an address', () => {
  const target = { kind: 'session', id: 'sess/4711 ü', message: 3 } as const;
  const link = historyLink(target);
  expect(link).toBe('#/conversations/sess%2F4711%20%C3%BC?message=3');
  expect(readHistoryLink(link)).toEqual(target);
  expect(readHistoryLink(`http://127.0.0.1:5173/${link}`)).toEqual(target);
  expect(readHistoryLink(historyLink({ kind: 'thread', id: 'thr_1' }))).toEqual({
    kind: 'thread',
    id: 'thr_1',
  });
});

test('what is no link is refused quietly', () => {
  for (const text of [
    '',
    'support7',
    '#/conversations',
    '#/usage/abc',
    '#/conversations/%E0%A4%A',
    `#/threads/${'x'.repeat(201)}`,
    '#/conversations/abc?message=-1',
    '#/conversations/abc?message=1e9',
    '#/conversations/abc?message=3&x=<script>',
  ])
    expect(readHistoryLink(text), text).toBeUndefined();
});
