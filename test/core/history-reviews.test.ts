// Reviews in the history database: the team's labels; a verdict, labels and a note on a
// conversation, a thread or one reply, kept across a new connection and by message index (what
// "Save as test case" reads); hostile input (a huge note, control characters, a label of quotes and
// markup, a key pasted in a note, which never reaches the disk); the queue's filters and progress;
// the export's rows and links; and a review leaving with its record.
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { readHistoryLink } from '../../shared/review';
import { TranscriptStore, type TranscriptRef } from '../../electron/core/transcript-store';
import { removeDir } from '../support/mock';
import { filesUnder, fresh, session, thread, transcriptDirs } from './transcript-support';

let parent: string;
let dataDir: string;
let store: TranscriptStore;
let now = Date.UTC(2026, 2, 1, 9);
const at = (minute: number): string => new Date(Date.UTC(2026, 1, 1, 12, minute)).toISOString();

async function exchange(ref: TranscriptRef, ask: string, reply: string, minute: number): Promise<void> {
  await store.append(ref, { role: 'user', content: ask, status: 'complete', at: at(minute) }, fresh);
  await store.append(ref, { role: 'agent', content: reply, status: 'complete', at: at(minute + 1) });
}

beforeEach(async () => {
  ({ parent, dataDir } = transcriptDirs());
  store = new TranscriptStore(dataDir, { clock: { now: () => now } });
  await exchange(session('a'), 'Where is order 4711?', 'Order 4711 shipped Monday.', 0);
  await exchange(session('a'), 'And the refund?', 'Refunds take 90 days.', 2);
  await exchange(thread('t'), 'Cancel order 4712', 'Order 4712 is cancelled.', 10);
  store.reviews.saveLabel({ name: 'refund', colour: '#D03050' });
  store.reviews.saveLabel({ name: 'shipping', colour: '#2080f0' });
});
afterEach(() => {
  store.close();
  removeDir(parent);
});

const reviews = () => store.reviews;

describe('labels', () => {
  test('the team’s list, by name, with colours and uses; renamed, refused in words, removed', () => {
    expect(
      reviews()
        .labels()
        .map((l) => [l.name, l.colour, l.uses]),
    ).toEqual([
      ['refund', '#d03050', 0],
      ['shipping', '#2080f0', 0],
    ]);
    const hostile = `<b onclick="x">"quoted" & 'odd'</b>`.slice(0, 40);
    reviews().saveLabel({ name: hostile, colour: '#000000' });
    expect(
      reviews()
        .labels()
        .map((l) => l.name),
    ).toContain(hostile);
    expect(() => reviews().saveLabel({ name: 'REFUND', colour: '#000000' })).toThrow(
      'There is already a label named “REFUND”.',
    );
    expect(() => reviews().saveLabel({ name: 'two\nlines', colour: '#000000' })).toThrow(
      /control characters/,
    );
    expect(() => reviews().saveLabel({ name: 'x'.repeat(41), colour: '#000000' })).toThrow(/at most 40/);
    expect(() => reviews().saveLabel({ name: 'ok', colour: 'red' })).toThrow(/#rrggbb/);
    expect(() => reviews().saveLabel({ name: '  ', colour: '#000000' })).toThrow('A label needs a name.');

    reviews().save('embedded-mock', { kind: 'session', id: 'a', message: 1, labels: ['refund'], note: '' });
    const refund = reviews()
      .labels()
      .find((l) => l.name === 'refund');
    expect(refund?.uses).toBe(1);
    reviews().saveLabel({ id: refund?.id, name: 'refunds', colour: '#d03050' });
    expect(reviews().of(session('a')).messages[1]?.labels).toEqual(['refunds']);
    expect(reviews().removeLabel(refund?.id as number)).toEqual({ removed: true, reviews: 1 });
    // The review had nothing else: it stays, with no label, until saved again.
    expect(reviews().of(session('a')).messages[1]?.labels).toEqual([]);
  });
});

describe('reviews', () => {
  test('a reply, a conversation and a thread, read back by a new connection and by message index', async () => {
    const saved = reviews().save('embedded-mock', {
      kind: 'session',
      id: 'a',
      message: 3,
      verdict: 'wrong',
      labels: ['refund', 'shipping', 'refund'],
      note: 'Refunds take 5 days, not 90.',
    });
    expect(saved).toEqual({
      kind: 'session',
      id: 'a',
      message: 3,
      verdict: 'wrong',
      labels: ['refund', 'shipping'],
      note: 'Refunds take 5 days, not 90.',
      reviewedAt: new Date(now).toISOString(),
    });
    reviews().save('embedded-mock', {
      kind: 'session',
      id: 'a',
      verdict: 'needs-work',
      labels: [],
      note: 'x',
    });
    reviews().save('embedded-mock', {
      kind: 'thread',
      id: 't',
      message: 1,
      verdict: 'good',
      labels: [],
      note: '',
    });
    store.close();

    const again = new TranscriptStore(dataDir);
    try {
      const a = again.reviews.of(session('a'));
      expect(a.record?.verdict).toBe('needs-work');
      expect(Object.keys(a.messages)).toEqual(['3']);
      expect(again.reviews.byMessage(session('a'))[3]).toMatchObject({ verdict: 'wrong', note: saved?.note });
      expect(again.reviews.byMessage(thread('t'))[1]?.verdict).toBe('good');
      expect(again.reviews.of(session('nobody'))).toEqual({ messages: {} });
    } finally {
      again.close();
    }
  });

  test('saving again replaces; an empty review is none; removing says whether there was one', () => {
    const target = { kind: 'session', id: 'a', message: 1 } as const;
    reviews().save('embedded-mock', { ...target, verdict: 'good', labels: ['refund'], note: 'fine' });
    now += 60_000;
    reviews().save('embedded-mock', { ...target, verdict: 'needs-work', labels: [], note: 'too short' });
    expect(reviews().byMessage(session('a'))[1]).toMatchObject({
      verdict: 'needs-work',
      labels: [],
      reviewedAt: new Date(now).toISOString(),
    });
    expect(reviews().save('embedded-mock', { ...target, labels: [], note: '  ' })).toBeUndefined();
    expect(reviews().byMessage(session('a'))).toEqual({});
    reviews().save('embedded-mock', { ...target, verdict: 'good', labels: [], note: '' });
    expect(reviews().remove('embedded-mock', target)).toBe(true);
    expect(reviews().remove('embedded-mock', target)).toBe(false);
  });

  test('what cannot be reviewed is refused in words, and nothing is kept', () => {
    const none = { labels: [], note: '' };
    expect(() =>
      reviews().save('embedded-mock', { kind: 'session', id: 'zzz', verdict: 'good', ...none }),
    ).toThrow('This console has no record of the conversation "zzz": only recorded history can be reviewed.');
    expect(() =>
      reviews().save('embedded-mock', { kind: 'session', id: 'a', message: 9, verdict: 'good', ...none }),
    ).toThrow('The record has no message 10: it cannot be reviewed.');
    expect(() =>
      reviews().save('embedded-mock', { kind: 'session', id: 'a', labels: ['nope'], note: '' }),
    ).toThrow('There is no label named “nope”: add it first.');
    expect(() => reviews().save('staging', { kind: 'session', id: 'a', verdict: 'good', ...none })).toThrow(
      /no record/,
    );
    expect(reviews().of(session('a'))).toEqual({ messages: {} });
  });

  test('hostile notes: a huge one is refused in words; control characters and markup round-trip as text', () => {
    const huge = 'x'.repeat(1_000_000);
    expect(() =>
      reviews().save('embedded-mock', { kind: 'session', id: 'a', labels: [], note: huge }),
    ).toThrow('A note holds at most 20,000 characters; this one has 1,000,000.');
    const odd = 'NUL\0 esc\u001b[31m bell\u0007 \ud800 <script>alert(1)</script> "q" \u0001';
    reviews().save('embedded-mock', { kind: 'session', id: 'a', message: 1, labels: [], note: odd });
    expect(reviews().byMessage(session('a'))[1]?.note).toBe(odd);
  });

  test('a key pasted into a note is masked before it is kept: no file of the data folder holds it', () => {
    const alnum = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
    const key = `ams_${[...randomBytes(32)].map((b) => alnum[b % 62]).join('')}`;
    const saved = reviews().save('embedded-mock', {
      kind: 'session',
      id: 'a',
      message: 1,
      labels: [],
      note: `customer pasted ${key} here`,
    });
    expect(saved?.note).not.toContain(key.slice(4, 24));
    expect(saved?.note).toContain(`***…${key.slice(-4)}`);
    store.close();
    for (const file of filesUnder(dataDir)) {
      const bytes = readFileSync(file, 'latin1');
      expect(bytes).not.toContain(key.slice(4, 24));
      expect(bytes).not.toContain(key.slice(-24, -4));
    }
  });

  test('a review goes with its record', async () => {
    reviews().save('embedded-mock', {
      kind: 'thread',
      id: 't',
      verdict: 'good',
      labels: ['refund'],
      note: '',
    });
    await store.remove(thread('t'));
    expect(reviews().of(thread('t'))).toEqual({ messages: {} });
    expect(
      reviews()
        .labels()
        .find((l) => l.name === 'refund')?.uses,
    ).toBe(0);
  });
});

describe('the queue', () => {
  test('replies newest first, filtered by state, label and verdict, with the progress over the scope', () => {
    reviews().save('embedded-mock', {
      kind: 'session',
      id: 'a',
      message: 1,
      verdict: 'good',
      labels: ['shipping'],
      note: '',
    });
    reviews().save('embedded-mock', {
      kind: 'session',
      id: 'a',
      message: 3,
      verdict: 'wrong',
      labels: ['refund'],
      note: '5 days',
    });
    const page = (query = {}) =>
      reviews().queue({ profileId: 'embedded-mock', target: 'replies', state: 'all', ...query });
    const all = page();
    expect(all.items.map((i) => `${i.id}#${i.message}`)).toEqual(['t#1', 'a#3', 'a#1']);
    expect(all.items[1]).toMatchObject({
      asked: 'And the refund?',
      text: 'Refunds take 90 days.',
      role: 'agent',
    });
    expect([all.reviewed, all.inScope, all.matching]).toEqual([2, 3, 3]);
    expect(page({ state: 'unreviewed' }).items.map((i) => i.id)).toEqual(['t']);
    expect(page({ state: 'reviewed', label: 'refund' }).items.map((i) => i.message)).toEqual([3]);
    expect(page({ verdict: 'good' }).items[0]?.review?.labels).toEqual(['shipping']);
    expect(page({ agent: 'nobody' })).toMatchObject({ items: [], inScope: 0, reviewed: 0 });
    const first = page({ limit: 2 });
    expect(first.next).toBeDefined();
    expect(page({ limit: 2, cursor: first.next }).items.map((i) => `${i.id}#${i.message}`)).toEqual(['a#1']);
    const records = reviews().queue({ profileId: 'embedded-mock', target: 'records', state: 'unreviewed' });
    expect(records.items.map((i) => [i.kind, i.id, i.text])).toEqual([
      ['thread', 't', 'Cancel order 4712'],
      ['session', 'a', 'Where is order 4711?'],
    ]);
  });

  test('search narrows to reviewed or not and to a label, of the message or its whole record', () => {
    reviews().save('embedded-mock', { kind: 'session', id: 'a', message: 1, labels: ['shipping'], note: '' });
    reviews().save('embedded-mock', { kind: 'thread', id: 't', labels: ['refund'], note: '' });
    const found = (filters: object) =>
      store
        .search({ text: 'order', profileId: 'embedded-mock', ...filters })
        .hits.map((h) => `${h.id}#${h.index}`);
    expect(found({})).toEqual(['t#1', 't#0', 'a#1', 'a#0']);
    expect(found({ reviewed: true })).toEqual(['t#1', 't#0', 'a#1']);
    expect(found({ reviewed: false })).toEqual(['a#0']);
    expect(found({ label: 'refund' })).toEqual(['t#1', 't#0']);
    expect(found({ label: 'shipping' })).toEqual(['a#1']);
  });
});

describe('export', () => {
  test('CSV and JSON rows with ids and a link back; a spreadsheet formula stays text', () => {
    reviews().save('embedded-mock', {
      kind: 'session',
      id: 'a',
      message: 3,
      verdict: 'wrong',
      labels: ['refund', 'shipping'],
      note: '=HYPERLINK("x")\nRefunds take 5 days, not 90.',
    });
    now += 1000;
    reviews().save('embedded-mock', { kind: 'thread', id: 't', verdict: 'good', labels: [], note: 'ok' });
    const json = JSON.parse(reviews().export({}, 'json').text) as { reviews: Record<string, unknown>[] };
    expect(json.reviews).toEqual([
      expect.objectContaining({
        kind: 'thread',
        id: 't',
        message_index: null,
        verdict: 'good',
        link: '#/threads/t',
      }),
      expect.objectContaining({
        kind: 'session',
        id: 'a',
        message_index: 3,
        role: 'agent',
        labels: ['refund', 'shipping'],
        text: 'Refunds take 90 days.',
        link: '#/conversations/a?message=3',
      }),
    ]);
    expect(readHistoryLink(json.reviews[1]?.link as string)).toEqual({
      kind: 'session',
      id: 'a',
      message: 3,
    });
    const csv = reviews().export({ label: 'refund' }, 'csv').text.split('\r\n');
    expect(csv[0]).toBe(
      'reviewed_at,profile_id,kind,id,message_index,role,agent,verdict,labels,note,text,link',
    );
    expect(csv[1]).toContain(',session,a,3,agent,echo,wrong,refund; shipping,"\'=HYPERLINK(""x"")\nRefunds');
    expect(csv[1]).toMatch(/,#\/conversations\/a\?message=3$/);
    expect(csv).toHaveLength(3);
    expect(
      JSON.parse(reviews().export({ since: new Date(now).toISOString() }, 'json').text).reviews,
    ).toHaveLength(1);
  });
});
