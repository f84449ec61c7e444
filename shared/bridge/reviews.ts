// reviews:… — what support staff say about the active profile's recorded history: the team's
// labels, and a review (verdict, labels, note) of a conversation, thread or reply; the review
// queue; the export (docs/architecture.md, "Reviews"). The labels are the whole console's.
import { z } from 'zod';
import {
  LABEL_NAME_MAX,
  NOTE_MAX,
  QueueState,
  QueueTarget,
  Verdict,
  type QueuePage,
  type RecordReviews,
  type Review,
  type ReviewLabel,
} from '../review';
import { id, returns, text, type DomainCalls } from './schemas';

const kind = z.enum(['session', 'thread']);
const message = z.number().int().min(0).max(1_000_000_000);
const target = { kind, id, message: message.optional() };
const labelId = z.number().int().min(1);
const labelName = text(LABEL_NAME_MAX * 4);
const isoTime = z.iso.datetime({ offset: true });

export const REVIEWS_CALLS = {
  /** The team's labels, by name, with how many reviews carry each. */
  'reviews:labels': { input: z.strictObject({}), output: returns<ReviewLabel[]>() },
  /** Adds a label, or renames and recolours one (`id`); answers with the list. */
  'reviews:saveLabel': {
    input: z.strictObject({ id: labelId.optional(), name: labelName, colour: text(7) }),
    output: returns<ReviewLabel[]>(),
  },
  /** Deletes a label from the list and from every review that carries it. */
  'reviews:removeLabel': {
    input: z.strictObject({ id: labelId }),
    output: returns<{ removed: boolean; reviews: number }>(),
  },
  /** One record's reviews: its own, and its messages' by index. */
  'reviews:of': { input: z.strictObject({ kind, id }), output: returns<RecordReviews>() },
  /** Saves a review (an empty one removes it); answers with what is kept, null for none. */
  'reviews:save': {
    input: z.strictObject({
      ...target,
      verdict: Verdict.optional(),
      labels: z.array(labelName).max(50),
      // Bounded for the bridge's sake; the core says the note's own limit in words.
      note: text(NOTE_MAX * 4),
    }),
    output: returns<Review | null>(),
  },
  'reviews:remove': { input: z.strictObject(target), output: returns<{ removed: boolean }>() },
  /** A page of the review queue, with the progress over its scope. */
  'reviews:queue': {
    input: z.strictObject({
      target: QueueTarget,
      state: QueueState,
      label: labelName.optional(),
      verdict: Verdict.optional(),
      agent: text(200).optional(),
      since: isoTime.optional(),
      limit: z.number().int().min(1).max(500).optional(),
      cursor: text(100).optional(),
    }),
    output: returns<QueuePage>(),
  },
  /** The active profile's reviews as a file's text (CSV or JSON), newest first. */
  'reviews:export': {
    input: z.strictObject({
      format: z.enum(['csv', 'json']),
      label: labelName.optional(),
      since: isoTime.optional(),
    }),
    output: returns<{ text: string; count: number }>(),
  },
} as const satisfies DomainCalls<'reviews'>;
