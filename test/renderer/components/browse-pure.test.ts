// The small pure pieces of the browsers: relative times, id shapes, and replay plans.
import { describe, expect, it } from 'vitest';
import { lookupOrder } from '../../../renderer/data/id-shape';
import { newSessionId, replaySteps } from '../../../renderer/components/replay-plan';
import { exactTime, relativeTime } from '../../../renderer/components/time-format';
import { SESSION_ID_PATTERN } from '../../../shared/api';
import type { TranscriptMessage } from '../../../shared/transcript';

describe('relativeTime', () => {
  const now = Date.parse('2026-01-15T12:00:00.000Z');
  it('reads like a person would say it', () => {
    expect(relativeTime('2026-01-15T11:59:30.000Z', now)).toBe('just now');
    expect(relativeTime('2026-01-15T11:55:00.000Z', now)).toBe('5 minutes ago');
    expect(relativeTime('2026-01-15T09:00:00.000Z', now)).toBe('3 hours ago');
    expect(relativeTime('2026-01-14T12:00:00.000Z', now)).toBe('yesterday');
    expect(relativeTime('2026-01-12T12:00:00.000Z', now)).toBe('3 days ago');
    expect(relativeTime('2025-12-01T12:00:00.000Z', now)).toBe('last month');
    expect(relativeTime('2026-01-15T14:00:00.000Z', now)).toBe('in 2 hours');
  });
  it('leaves what is not a time as it is', () => {
    expect(relativeTime('soon', now)).toBe('soon');
    expect(exactTime('soon')).toBe('soon');
  });
  it('gives the exact time with the ISO text the service sent', () => {
    expect(exactTime('2026-01-15T12:00:00.000Z')).toMatch(/2026.*\(2026-01-15T12:00:00.000Z\)$/);
  });
});

describe('lookupOrder', () => {
  it('tries the likeliest kind first, and every kind in the end', () => {
    expect(lookupOrder('thr_abc')).toEqual(['thread', 'agent', 'conversation']);
    expect(lookupOrder('6f1c1a52-7a4e-4c55-9a43-0c1f6f1d2b3a')).toEqual(['agent', 'thread', 'conversation']);
    expect(lookupOrder('conv_xyz')).toEqual(['conversation', 'thread', 'agent']);
    expect(lookupOrder(' helpdesk ')).toEqual(['agent', 'thread', 'conversation']);
  });
});

describe('replaySteps', () => {
  const m = (role: 'user' | 'agent', content: string, status: TranscriptMessage['status'] = 'complete') => ({
    role,
    content,
    status,
    at: '2026-01-15T12:00:00.000Z',
  });
  it('pairs each user message with the first reply after it', () => {
    const steps = replaySteps({
      messages: [
        m('agent', 'orphan'),
        m('user', 'a'),
        m('agent', 'A'),
        m('agent', 'A2'),
        m('user', 'b'),
        m('user', 'c'),
        m('agent', '', 'failed'),
      ],
    });
    expect(steps.map((s) => [s.user, s.original?.content, s.original?.status])).toEqual([
      ['a', 'A', 'complete'],
      ['b', undefined, undefined],
      ['c', '', 'failed'],
    ]);
  });
  it('makes session ids the service accepts', () => {
    const id = newSessionId();
    expect(id).toMatch(SESSION_ID_PATTERN);
    expect(newSessionId()).not.toBe(id);
  });
});
