import { describe, expect, it } from 'vitest';
import type { Conversation } from '../../../../shared/api';
import { nextSort, sortConversations } from '../../../../renderer/screens/conversations/conversation-sort';

const c = (id: string, message_count: number, session_id: string): Conversation => ({
  id,
  agent: 'echo',
  session_id,
  message_count,
  started_at: '2026-01-15T10:00:00.000Z',
  last_message_at: '2026-01-15T10:00:00.000Z',
  status: 'completed',
});

describe('sortConversations', () => {
  const rows = [c('a', 10, 's2'), c('b', 2, 's10'), c('c', 4, 's1')];

  it('keeps the service order without a sort, and does not touch its input', () => {
    expect(sortConversations(rows, undefined)).toBe(rows);
    sortConversations(rows, { key: 'message_count', dir: 'ascending' });
    expect(rows.map((r) => r.id)).toEqual(['a', 'b', 'c']);
  });

  it('sorts counts as numbers and ids naturally', () => {
    expect(sortConversations(rows, { key: 'message_count', dir: 'ascending' }).map((r) => r.id)).toEqual([
      'b',
      'c',
      'a',
    ]);
    expect(sortConversations(rows, { key: 'message_count', dir: 'descending' }).map((r) => r.id)).toEqual([
      'a',
      'c',
      'b',
    ]);
    expect(sortConversations(rows, { key: 'session_id', dir: 'ascending' }).map((r) => r.session_id)).toEqual(
      ['s1', 's2', 's10'],
    );
  });
});

describe('nextSort', () => {
  it('cycles ascending, descending, none, and starts again on another column', () => {
    const a = nextSort(undefined, 'agent');
    expect(a).toEqual({ key: 'agent', dir: 'ascending' });
    const d = nextSort(a, 'agent');
    expect(d).toEqual({ key: 'agent', dir: 'descending' });
    expect(nextSort(d, 'agent')).toBeUndefined();
    expect(nextSort(d, 'status')).toEqual({ key: 'status', dir: 'ascending' });
  });
});
