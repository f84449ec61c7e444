// A record's exported history keeps its reviews: the record's own and each reply's, in the JSON
// (with the reply's index) and in the Markdown under the message it is about, a note's own
// Markdown quoted so it cannot break the file's layout.
import { expect, test } from 'vitest';
import type { RecordReviews } from '../../../shared/review';
import type { Transcript } from '../../../shared/transcript';
import {
  historyJson,
  historyMarkdown,
  type HistorySubject,
} from '../../../renderer/components/history-export';

const subject: HistorySubject = {
  kind: 'conversation',
  id: 's1',
  title: 'Conversation s1',
  facts: [],
  listed: {},
};
const transcript: Transcript = {
  profileId: 'p',
  kind: 'session',
  id: 's1',
  agent: 'helpdesk',
  knownFrom: 'start',
  createdAt: '2026-01-15T10:00:00.000Z',
  lastActivityAt: '2026-01-15T10:00:01.000Z',
  messages: [
    { role: 'user', content: 'Where is order 4711?', at: '2026-01-15T10:00:00.000Z', status: 'complete' },
    { role: 'agent', content: 'It never shipped.', at: '2026-01-15T10:00:01.000Z', status: 'complete' },
  ],
};
const reviews: RecordReviews = {
  record: {
    kind: 'session',
    id: 's1',
    verdict: 'needs-work',
    labels: ['shipping'],
    note: '',
    reviewedAt: '2026-02-01T09:00:00.000Z',
  },
  messages: {
    1: {
      kind: 'session',
      id: 's1',
      message: 1,
      verdict: 'wrong',
      labels: [],
      note: 'It shipped Monday.\n# not a heading',
      reviewedAt: '2026-02-01T09:01:00.000Z',
    },
  },
};

test('the JSON keeps the record’s review and each reply’s, with its index', () => {
  const file = JSON.parse(historyJson(subject, transcript, '2026-02-02T00:00:00.000Z', reviews)) as {
    reviews: { message?: number; verdict: string; note: string }[];
  };
  expect(file.reviews).toEqual([
    expect.objectContaining({ verdict: 'needs-work', labels: ['shipping'] }),
    expect.objectContaining({ message: 1, verdict: 'wrong', note: 'It shipped Monday.\n# not a heading' }),
  ]);
  expect(JSON.parse(historyJson(subject, transcript, 'x')).reviews).toEqual([]);
});

test('the Markdown puts each review under what it is about, its note quoted', () => {
  const md = historyMarkdown(subject, transcript, reviews);
  expect(md).toContain('**Review** (2026-02-01T09:00:00.000Z): Needs work · labels: shipping');
  const reply = md.slice(md.indexOf('## Agent'));
  expect(reply).toContain(
    '> It never shipped.\n\n**Review** (2026-02-01T09:01:00.000Z): Wrong\n\n> It shipped Monday.\n> # not a heading',
  );
});
