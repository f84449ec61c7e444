// transcripts:… — what this client has recorded for the active profile (the API keeps no history:
// docs/architecture.md, "The browsers"). Lists come a page at a time (docs/architecture.md, "The
// history database"): nothing asks for the whole history at once.
import { z } from 'zod';
import {
  HistoryRetention,
  type DataFolderSize,
  type KnownFrom,
  type MessageRange,
  type SearchHit,
  type Transcript,
  type TranscriptSummary,
} from '../transcript';
import { id, none, returns, text, type DomainCalls } from './schemas';

const kind = z.enum(['session', 'thread']);
const transcriptRef = z.strictObject({ kind, id });
const isoTime = z.iso.datetime({ offset: true });

const TRANSCRIPT_PAGE_MAX = 500;

export const TRANSCRIPTS_CALLS = {
  /** A page of the profile's sessions or threads, newest activity first; `next` continues it. */
  'transcripts:list': {
    input: z.strictObject({
      kind: kind.optional(),
      limit: z.number().int().min(1).max(TRANSCRIPT_PAGE_MAX).optional(),
      cursor: text(400).optional(),
    }),
    output: returns<{
      summaries: TranscriptSummary[];
      next?: string;
      /** How many there are in all. */
      total: number;
      unreadable: { file: string; message: string }[];
    }>(),
  },
  /** Which of `ids` this client has a record of, and from where it knows them. */
  'transcripts:known': {
    input: z.strictObject({ kind, ids: z.array(id).max(10_000) }),
    output: returns<Record<string, KnownFrom>>(),
  },
  'transcripts:get': { input: transcriptRef, output: returns<Transcript | null>() },
  /**
   * A range of one record's messages, from `from` (0 is the first) or, without it, the last `limit`;
   * with what the record is, so a view of a long one never reads it whole.
   */
  'transcripts:messages': {
    input: transcriptRef.extend({
      from: z.number().int().min(0).optional(),
      limit: z.number().int().min(1).max(TRANSCRIPT_PAGE_MAX),
    }),
    output: returns<MessageRange | null>(),
  },
  'transcripts:remove': { input: transcriptRef, output: returns<{ removed: boolean }>() },
  /**
   * What the data folder holds, summed by folder; the active profile's recorded conversations and
   * their agents; how much history is kept.
   */
  'transcripts:storage': {
    input: none,
    output: returns<{
      sizes: DataFolderSize[];
      conversations: number;
      agents: { agent: string; conversations: number }[];
      retention: HistoryRetention;
    }>(),
  },
  /** How many conversations and messages of the active profile (of one agent's) a delete would lose. */
  'transcripts:count': {
    input: z.strictObject({ agent: text(200).optional() }),
    output: returns<{ conversations: number; messages: number }>(),
  },
  /** Deletes the active profile's recorded history, or one agent's of it, and gives the space back. */
  'transcripts:removeAll': {
    input: z.strictObject({ agent: text(200).optional() }),
    output: returns<{ removed: number }>(),
  },
  /** Keeps history for so many days or gigabytes (or all of it), applied at once and daily. */
  'transcripts:setRetention': { input: HistoryRetention, output: returns<{ removed: number }>() },
  /** Every recorded message, reply and error of the active profile that matches `text`. */
  'transcripts:search': {
    input: z.strictObject({
      text: text(500),
      agent: text(200).optional(),
      since: isoTime.optional(),
      until: isoTime.optional(),
      hasError: z.boolean().optional(),
      reviewed: z.boolean().optional(),
      label: text(160).optional(),
      limit: z.number().int().min(1).max(200).optional(),
    }),
    output: returns<{ hits: SearchHit[]; more: boolean }>(),
  },
} as const satisfies DomainCalls<'transcripts'>;
