import { describe, expect, it } from 'vitest';
import type { Transcript } from '../../../../shared/transcript';
import {
  historyFileName,
  historyJson,
  historyMarkdown,
} from '../../../../renderer/components/history-export';
import { conversationSubject } from '../../../../renderer/screens/conversations/conversation-export';
import { threadSubject } from '../../../../renderer/screens/threads/thread-export';
import { visibleThreads } from '../../../../renderer/screens/threads/thread-filter';

const thread = {
  id: 'thr_abc',
  title: 'Refund',
  agent: 'helpdesk',
  message_count: 6,
  created_at: '2026-01-15T10:00:00.000Z',
  updated_at: '2026-01-15T11:00:00.000Z',
};

const transcript = (knownFrom: Transcript['knownFrom']): Transcript => ({
  profileId: 'p',
  kind: 'thread',
  id: 'thr_abc',
  agent: 'helpdesk',
  knownFrom,
  createdAt: '2026-01-15T10:00:00.000Z',
  lastActivityAt: '2026-01-15T11:00:00.000Z',
  messages: [
    { role: 'user', content: 'Hello\n# not a heading', at: '2026-01-15T10:00:00.000Z', status: 'complete' },
    {
      role: 'agent',
      content: '',
      at: '2026-01-15T10:00:01.000Z',
      status: 'failed',
      error: 'AGENT_ERROR (502)',
    },
  ],
});

describe('threadMarkdown', () => {
  it('lists the facts, says how much is known, and quotes each message', () => {
    const md = historyMarkdown(threadSubject(thread), transcript('partial'));
    expect(md).toContain('# Refund');
    expect(md).toContain('- Thread: `thr_abc`');
    expect(md).toContain('Partly known');
    expect(md).toContain('## User · 2026-01-15T10:00:00.000Z');
    // A message's own Markdown stays inside its quote.
    expect(md).toContain('> Hello\n> # not a heading');
    expect(md).not.toMatch(/^# not a heading/m);
    expect(md).toContain('## Agent · 2026-01-15T10:00:01.000Z (failed: AGENT_ERROR (502))');
    expect(md).toContain('_(no text)_');
  });

  it('says plainly when nothing is known', () => {
    expect(historyMarkdown(threadSubject(thread), null)).toContain(
      'Not known: this client has no record of its messages.',
    );
  });
});

describe('threadJson', () => {
  it('carries the thread, how it is known and the messages', () => {
    const json = JSON.parse(
      historyJson(threadSubject(thread), transcript('start'), '2026-01-16T00:00:00.000Z'),
    );
    expect(json.thread).toEqual(thread);
    expect(json.history.known_from).toBe('start');
    expect(json.history.messages).toHaveLength(2);
    expect(JSON.parse(historyJson(threadSubject(thread), null, 'x')).history).toEqual({
      known_from: 'unknown',
      messages: [],
    });
  });
});

describe('historyFileName', () => {
  it('is safe on every file system', () => {
    expect(historyFileName('thread', 'thr_abc', 'md')).toBe('thread-thr_abc.md');
    expect(historyFileName('thread', '../x y', 'json')).toBe('thread--x-y.json');
    expect(historyFileName('conversation', 'abc123', 'md')).toBe('conversation-abc123.md');
  });
});

describe('a conversation exports like a thread', () => {
  const row = {
    id: 'conv_1',
    agent: 'helpdesk',
    session_id: 'abc123',
    message_count: 4,
    started_at: '2026-01-15T10:00:00.000Z',
    last_message_at: '2026-01-15T10:05:00.000Z',
    status: 'active',
  };
  const session = { ...transcript('start'), kind: 'session' as const, id: 'abc123' };

  it('names the session, agent and status, and quotes the known messages', () => {
    const md = historyMarkdown(conversationSubject('abc123', row), session);
    expect(md).toContain('# Conversation abc123');
    expect(md).toContain('- Session: `abc123`');
    expect(md).toContain('- Agent: `helpdesk`');
    expect(md).toContain('- Status: active');
    expect(md).toContain('Known from the start: this client started the conversation.');
    expect(md).toContain('> Hello\n> # not a heading');
  });

  it('still exports what this console recorded when the service no longer lists it', () => {
    const md = historyMarkdown(conversationSubject('abc123', undefined), session);
    expect(md).toContain('- Session: `abc123`');
    expect(md).toContain('Not in the service’s list');
    const json = JSON.parse(historyJson(conversationSubject('abc123', undefined), session, 'x'));
    expect(json.conversation).toEqual({ session_id: 'abc123' });
    expect(json.history.messages).toHaveLength(2);
  });
});

describe('visibleThreads', () => {
  const t = (id: string, agent: string, title: string, updated_at: string) => ({
    ...thread,
    id,
    agent,
    title,
    updated_at,
  });
  const threads = [
    t('a', 'echo', 'Password reset', '2026-01-15T10:00:00.000Z'),
    t('b', 'helpdesk', 'Refund for order', '2026-01-15T12:00:00.000Z'),
    // 09:30Z written with an offset: later than a's as text, earlier as an instant.
    t('c', 'echo', 'Refund again', '2026-01-15T10:30:00.000+01:00'),
  ];

  it('orders by last activity, newest first, comparing instants', () => {
    expect(visibleThreads(threads, undefined, '').map((x) => x.id)).toEqual(['b', 'a', 'c']);
  });

  it('filters by agent and by a title fragment in any case', () => {
    expect(visibleThreads(threads, 'echo', '').map((x) => x.id)).toEqual(['a', 'c']);
    expect(visibleThreads(threads, undefined, '  REFUND ').map((x) => x.id)).toEqual(['b', 'c']);
    expect(visibleThreads(threads, 'echo', 'refund').map((x) => x.id)).toEqual(['c']);
  });
});
