// What the console knows of a conversation's or thread's messages (the API returns none: docs/decisions.md,
// "Message history"). Shared by the core, which stores it, and the renderer, which shows it.
import { z } from 'zod';

export const TranscriptKind = z.enum(['session', 'thread']);
export type TranscriptKind = z.infer<typeof TranscriptKind>;

/** `partial`: a stream that broke; `stopped`: cancelled by the user; `failed`: no reply (see `error`). */
export const MessageStatus = z.enum(['complete', 'partial', 'stopped', 'failed']);
export type MessageStatus = z.infer<typeof MessageStatus>;

/**
 * `start`: this client saw the conversation from its first message. `partial`: it did not (a session
 * id pasted from elsewhere, a thread created by another client or seeded on the server), so earlier
 * messages exist that this store has never seen.
 */
export const KnownFrom = z.enum(['start', 'partial']);
export type KnownFrom = z.infer<typeof KnownFrom>;

const isoTimestamp = z.iso.datetime({ offset: true });

export const TranscriptMessage = z.object({
  role: z.enum(['user', 'agent']),
  content: z.string(),
  at: isoTimestamp,
  requestId: z.string().optional(),
  status: MessageStatus,
  error: z.string().optional(),
});
export type TranscriptMessage = z.infer<typeof TranscriptMessage>;

export const Transcript = z.object({
  profileId: z.string().min(1),
  kind: TranscriptKind,
  id: z.string().min(1),
  agent: z.string(),
  title: z.string().optional(),
  knownFrom: KnownFrom,
  createdAt: isoTimestamp,
  lastActivityAt: isoTimestamp,
  messages: z.array(TranscriptMessage),
});
export type Transcript = z.infer<typeof Transcript>;

export interface TranscriptRef {
  profileId: string;
  kind: TranscriptKind;
  id: string;
}

/** A record without its messages but for a range of them, as a view pages through a long one. */
export interface MessageRange extends Omit<Transcript, 'messages'> {
  /** The place of the first of `messages` (0 is the record's first). */
  from: number;
  /** The messages from `from`, in order. */
  messages: TranscriptMessage[];
  /** How many the record holds in all. */
  total: number;
}

/** A message as the caller hands it in; `at` defaults to now. */
export type TranscriptMessageInput = Omit<TranscriptMessage, 'at'> & { at?: string };

/** What a transcript starts with. Required on the first append, so nobody claims `start` by default. */
export interface TranscriptInit {
  agent: string;
  knownFrom: KnownFrom;
  title?: string;
}

export interface TranscriptSummary {
  profileId: string;
  kind: TranscriptKind;
  id: string;
  agent: string;
  title?: string;
  knownFrom: KnownFrom;
  messageCount: number;
  createdAt: string;
  lastActivityAt: string;
  lastMessage?: { role: TranscriptMessage['role']; status: MessageStatus; preview: string };
}

/** A piece of a search result's text; `match` marks what the query found. */
export interface SnippetPart {
  text: string;
  match: boolean;
}

/** One message a history search found, and where it is. */
export interface SearchHit {
  profileId: string;
  kind: TranscriptKind;
  /** The session or thread id. */
  id: string;
  agent: string;
  title?: string;
  /** The message's place in its transcript, 0 for the first. */
  index: number;
  role: TranscriptMessage['role'];
  at: string;
  status: MessageStatus;
  snippet: SnippetPart[];
}

/** How much recorded history is kept: conversations idle at most `keepDays`, at most `keepGb` of them. */
export const HistoryRetention = z.strictObject({
  keepDays: z.number().int().min(1).max(36_500).optional(),
  keepGb: z.number().min(0.01).max(10_000).optional(),
});
export type HistoryRetention = z.infer<typeof HistoryRetention>;

/** What the data folder holds, summed by folder (bytes), for Settings. */
export interface DataFolderSize {
  folder: 'history' | 'transcripts' | 'test-runs' | 'monitors' | 'logs' | 'all';
  bytes: number;
}
