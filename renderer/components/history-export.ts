// A thread's or a conversation's known history for a ticket, as Markdown (to paste) or JSON (to
// keep). Only what this client recorded: the API returns no history, and the files
// say so when it is partial. The record's reviews go with it (docs/architecture.md, "Reviews").
import { VERDICT_WORDS, type RecordReviews, type Review } from '../../shared/review';
import type { Transcript } from '../../shared/transcript';

export interface HistorySubject {
  kind: 'thread' | 'conversation';
  id: string;
  /** The Markdown heading. */
  title: string;
  /** Shown as a list under the heading, in order; values are written as code when `code` is set. */
  facts: { label: string; value: string; code?: boolean }[];
  /** The fields the service listed, kept whole in the JSON under the subject's kind. */
  listed: object;
}

const KNOWN = {
  thread: {
    start: 'Known from the start: this client created the thread.',
    partial:
      'Partly known: the thread began elsewhere, so earlier messages exist that this client never saw.',
  },
  conversation: {
    start: 'Known from the start: this client started the conversation.',
    partial:
      'Partly known: the conversation began elsewhere, so earlier messages exist that this client never saw.',
  },
} as const;

function quoteBlock(text: string): string {
  return text
    .split('\n')
    .map((line) => (line.trim() === '' ? '>' : `> ${line}`))
    .join('\n');
}

/** A review in one Markdown line, its note quoted below it. */
function reviewLines(review: Review | undefined): string[] {
  if (!review) return [];
  const said = [
    review.verdict ? VERDICT_WORDS[review.verdict] : undefined,
    review.labels.length > 0 ? `labels: ${review.labels.join(', ')}` : undefined,
  ].filter(Boolean);
  return [
    `**Review** (${review.reviewedAt})${said.length > 0 ? `: ${said.join(' · ')}` : ''}`,
    '',
    ...(review.note ? [quoteBlock(review.note), ''] : []),
  ];
}

export function historyMarkdown(
  subject: HistorySubject,
  transcript: Transcript | null,
  reviews?: RecordReviews,
): string {
  const out = [
    `# ${subject.title}`,
    '',
    ...subject.facts.map((f) => `- ${f.label}: ${f.code ? `\`${f.value}\`` : f.value}`),
    `- History: ${transcript ? KNOWN[subject.kind][transcript.knownFrom] : 'Not known: this client has no record of its messages.'}`,
    '',
    ...reviewLines(reviews?.record),
  ];
  for (const [i, m] of (transcript?.messages ?? []).entries()) {
    const who = m.role === 'user' ? 'User' : 'Agent';
    const status = m.status === 'complete' ? '' : ` (${m.status}${m.error ? `: ${m.error}` : ''})`;
    out.push(`## ${who} · ${m.at}${status}`, '');
    // Messages go in block quotes so their own Markdown (headings, rules) cannot break the layout.
    out.push(m.content ? quoteBlock(m.content) : '_(no text)_', '');
    out.push(...reviewLines(reviews?.messages[i]));
  }
  return out.join('\n');
}

export function historyJson(
  subject: HistorySubject,
  transcript: Transcript | null,
  exportedAt: string,
  reviews?: RecordReviews,
): string {
  return `${JSON.stringify(
    {
      exported_at: exportedAt,
      [subject.kind]: subject.listed,
      history: {
        known_from: transcript?.knownFrom ?? 'unknown',
        messages: transcript?.messages ?? [],
      },
      // The record's own review, then its messages' (each with its index).
      reviews: reviews
        ? [...(reviews.record ? [reviews.record] : []), ...Object.values(reviews.messages)]
        : [],
    },
    null,
    2,
  )}\n`;
}

export function historyFileName(kind: HistorySubject['kind'], id: string, ext: 'md' | 'json'): string {
  return `${kind}-${id.replace(/[^A-Za-z0-9_-]+/g, '-')}.${ext}`;
}
