// Reviews of the recorded history, as support staff keep them (docs/architecture.md, "Reviews"): on
// a whole conversation or thread, or on one of its messages, a verdict, the team's own labels and a
// note. Shared by the core, which keeps them in the history database, and the renderer.
import { z } from 'zod';
import type { TranscriptKind, TranscriptMessage } from './transcript';

export const VERDICTS = ['good', 'needs-work', 'wrong'] as const;
export const Verdict = z.enum(VERDICTS);
export type Verdict = z.infer<typeof Verdict>;

/** How each verdict reads on screen and in exports for people. */
export const VERDICT_WORDS: Record<Verdict, string> = {
  good: 'Good',
  'needs-work': 'Needs work',
  wrong: 'Wrong',
};

/** The longest note kept; a longer one is refused in words, never cut without saying. */
export const NOTE_MAX = 20_000;
export const LABEL_NAME_MAX = 40;
/** A label's colour: `#rrggbb`, as a colour picker gives it. */
export const LABEL_COLOUR = /^#[0-9a-f]{6}$/i;
/** A label's name: no control character (it is shown in chips, CSV cells and terminals). */
// eslint-disable-next-line no-control-regex -- control characters are what is refused
export const LABEL_NAME_REFUSED = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;

export interface ReviewLabel {
  id: number;
  name: string;
  colour: string;
  /** How many reviews carry it. */
  uses: number;
}

/** What is reviewed: a conversation (session) or thread, or one of its messages by its index. */
export interface ReviewTarget {
  kind: TranscriptKind;
  /** The session or thread id. */
  id: string;
  /** The message's place in its record (0 for the first); absent for the whole record. */
  message?: number | undefined;
}

export interface Review extends ReviewTarget {
  verdict?: Verdict;
  /** Label names, in the label list's order. */
  labels: string[];
  note: string;
  reviewedAt: string;
}

/** What a review is saved with; the labels are names from the team's list. */
export interface ReviewInput extends ReviewTarget {
  verdict?: Verdict | undefined;
  labels: string[];
  note: string;
}

/** The reviews of one record: its own, and its messages' by index. */
export interface RecordReviews {
  record?: Review;
  messages: Record<number, Review>;
}

/** Which items the review queue lists: every one, the ones not reviewed yet, or the reviewed. */
export const QueueState = z.enum(['all', 'unreviewed', 'reviewed']);
export type QueueState = z.infer<typeof QueueState>;

/** What the queue goes through: the agents' replies, or whole conversations and threads. */
export const QueueTarget = z.enum(['replies', 'records']);
export type QueueTarget = z.infer<typeof QueueTarget>;

export interface QueueItem {
  kind: TranscriptKind;
  id: string;
  agent: string;
  title?: string;
  /** The reply's index; absent for a whole record. */
  message?: number;
  role?: TranscriptMessage['role'];
  at: string;
  /** The reply's text (or the record's first question), as recorded. */
  text: string;
  /** What the user asked just before this reply, when known. */
  asked?: string;
  review?: Review;
}

export interface QueuePage {
  items: QueueItem[];
  /** Where the next page starts, when there may be one. */
  next?: string;
  /** How many items match the filter. */
  matching: number;
  /** The progress: how many of the items in scope (the filter's state aside) are reviewed. */
  reviewed: number;
  inScope: number;
}

/**
 * The in-app link to a record, or to one message in it (docs/architecture.md, "Reviews"): the
 * console opens it — in the web host's address bar after its address, or pasted into Open by id —
 * in Conversations or Threads, scrolled to that message.
 */
export function historyLink(target: ReviewTarget): string {
  const screen = target.kind === 'session' ? 'conversations' : 'threads';
  const at = target.message === undefined ? '' : `?message=${target.message}`;
  return `#/${screen}/${encodeURIComponent(target.id)}${at}`;
}

/** The record (and message) an in-app link names, or undefined when it is none. */
export function readHistoryLink(link: string): ReviewTarget | undefined {
  const found = /#\/(conversations|threads)\/([^/?\s]+)(?:\?message=(\d{1,9}))?\s*$/.exec(link.trim());
  if (!found) return undefined;
  let id: string;
  try {
    id = decodeURIComponent(found[2] as string);
  } catch {
    return undefined;
  }
  if (!id || id.length > 200) return undefined;
  const kind: TranscriptKind = found[1] === 'conversations' ? 'session' : 'thread';
  return { kind, id, ...(found[3] === undefined ? {} : { message: Number(found[3]) }) };
}
