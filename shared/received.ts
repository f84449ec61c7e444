// What the client accepts from a service (docs/security.md, tolerant reader): strict on what it relies
// on — ids, slugs, reply content, counts and paging — and lenient on what it only shows, so a
// service that adds an agent status, a conversation status, a field, or sends a timestamp in
// another form is shown as it came (unknown values labelled by the screens), never a failed page.
// Unknown fields are kept (loose objects), so `--json` output carries them on.
//
// The spec's own shapes (shared/api.ts) stay strict: the mock builds its replies from them and the
// conformance tests hold the mock to them.
import { z } from 'zod';

/**
 * The fields the console knows of a loose object: the parsed value keeps any others at run time
 * (for `--json` and exports), but code is typed only against the named ones.
 */
type Known<T> = T extends readonly (infer U)[]
  ? Known<U>[]
  : T extends object
    ? { [K in keyof T as string extends K ? never : K]: Known<T[K]> }
    : T;

/**
 * The longest text kept of a value that is only shown (a name, a status, a version): a service that
 * sends a megabyte where a name goes gets it cut, with "…", rather than a screen or a terminal full.
 */
const MAX_SHOWN_TEXT = 1_000;

function shortened(text: string): string {
  return text.length > MAX_SHOWN_TEXT ? `${text.slice(0, MAX_SHOWN_TEXT - 1)}…` : text;
}

/** Shown only: any text (cut to MAX_SHOWN_TEXT); the screens say when it is not a form they know. */
const shownText = z.string().transform(shortened);
const shownTimestamp = shownText;
const count = z.number().int().nonnegative();

export const ReceivedAgent = z.looseObject({
  agent_id: z.string().min(1),
  slug: z.string().min(1),
  name: shownText,
  description: shownText.optional(),
  /** `deployed`, `stopped`, `error` (spec §3) — or a newer one, shown as unknown. */
  status: shownText,
  model: z
    .looseObject({
      primary: shownText.optional(),
      /** Null when none is configured; may be left out altogether. */
      fallback: shownText.nullable().optional(),
    })
    .optional(),
  deployed_at: shownTimestamp.optional(),
});
export type ReceivedAgent = Known<z.infer<typeof ReceivedAgent>>;

export const ReceivedAgentList = z.looseObject({
  agents: z.array(ReceivedAgent),
  total: count,
  has_more: z.boolean(),
});
export type ReceivedAgentList = Known<z.infer<typeof ReceivedAgentList>>;

export const ReceivedConversation = z.looseObject({
  id: z.string().min(1),
  agent: z.string(),
  session_id: z.string(),
  message_count: count,
  started_at: shownTimestamp,
  last_message_at: shownTimestamp,
  /** Any string (docs/decisions.md); `active` and `completed` are the ones the console names. */
  status: shownText,
});
export type ReceivedConversation = Known<z.infer<typeof ReceivedConversation>>;

export const ReceivedConversationList = z.looseObject({
  conversations: z.array(ReceivedConversation),
  total: count,
  limit: z.number().int(),
  offset: z.number().int(),
});
export type ReceivedConversationList = Known<z.infer<typeof ReceivedConversationList>>;

export const ReceivedThread = z.looseObject({
  id: z.string().min(1),
  title: shownText,
  agent: z.string(),
  message_count: count,
  created_at: shownTimestamp,
  updated_at: shownTimestamp,
});
export type ReceivedThread = Known<z.infer<typeof ReceivedThread>>;

export const ReceivedThreadList = z.looseObject({ threads: z.array(ReceivedThread) });
export type ReceivedThreadList = Known<z.infer<typeof ReceivedThreadList>>;

export const ReceivedThreadCreated = z.looseObject({
  thread: ReceivedThread.omit({ updated_at: true }).extend({ updated_at: shownTimestamp.optional() }),
  response: z.string(),
});
export type ReceivedThreadCreated = Known<z.infer<typeof ReceivedThreadCreated>>;

export const ReceivedThreadMessageReply = z.looseObject({
  message_id: z.string(),
  response: z.string(),
  thread_id: z.string(),
});
export type ReceivedThreadMessageReply = Known<z.infer<typeof ReceivedThreadMessageReply>>;

export const ReceivedUsageReport = z.looseObject({
  usage: z.looseObject({
    total_requests: count,
    total_tokens: count,
    period_start: shownTimestamp,
    period_end: shownTimestamp,
    daily: z.array(
      z.looseObject({
        date: shownTimestamp,
        requests: count,
        tokens: count,
        avg_latency_ms: z.number().nonnegative(),
      }),
    ),
    by_agent: z.array(z.looseObject({ agent: z.string(), requests: count, tokens: count })),
  }),
});
export type ReceivedUsageReport = Known<z.infer<typeof ReceivedUsageReport>>;

/** The spec's four components by name, and every other the service reports. */
type ComponentStates = { api?: string; vps?: string; agents?: string; gateway?: string } & Record<
  string,
  string
>;

export const ReceivedHealthReport = z.looseObject({
  /** `healthy`, `degraded`, `unhealthy` (spec §3) — or a newer one, which the monitor calls unknown. */
  status: shownText,
  timestamp: shownTimestamp,
  /**
   * `api`, `vps`, `agents`, `gateway` (spec §2), and any component a service adds; a state that is
   * not text is shown as `unknown`, never carried on as whatever the service put there.
   */
  components: z
    .record(
      z.string().transform(shortened),
      z.unknown().transform((state) => (typeof state === 'string' ? shortened(state) : 'unknown')),
    )
    .transform((states) => states as ComponentStates),
  uptime_seconds: z.number().nonnegative(),
  version: shownText,
});
export type ReceivedHealthReport = Known<z.infer<typeof ReceivedHealthReport>>;

export const ReceivedChatReply = z.looseObject({
  response: z.string(),
  agent: z.string(),
  request_id: z.string(),
});
export type ReceivedChatReply = Known<z.infer<typeof ReceivedChatReply>>;
