// The service's resources and limits (the service's spec §2, §4, §8), modelled once.
// The mock builds its replies from these types and the client validates replies against them.
import { z } from 'zod';
import { AGENT_STATUSES, HEALTH_STATUSES } from './known-values';

import { MAX_MESSAGE_BYTES, MAX_THREAD_TITLE_LENGTH, SESSION_ID_PATTERN } from './api-limits';

export {
  API_KEY_PATTERN,
  API_PREFIX,
  MAX_MESSAGE_BYTES,
  MAX_THREAD_TITLE_LENGTH,
  SESSION_ID_PATTERN,
  STREAM_DONE,
} from './api-limits';
export const RateTierSchema = z.union([z.literal(30), z.literal(60), z.literal(120), z.literal(300)]);
export type RateTier = z.infer<typeof RateTierSchema>;
export const DEFAULT_RATE_TIER: RateTier = 60;
export const RATE_WINDOW_MS = 60_000;
/** Spec §8: the service answers 504 TIMEOUT after 60 s. */
export const CHAT_TIMEOUT_MS = 60_000;
export const PAGE_LIMIT = { min: 1, max: 100, default: 20 } as const;
export const USAGE_DAYS = { min: 1, max: 90, default: 30 } as const;

export const AgentStatus = z.enum(AGENT_STATUSES);
export type AgentStatus = z.infer<typeof AgentStatus>;

const isoTimestamp = z.iso.datetime({ offset: true });

export const Agent = z.object({
  agent_id: z.string(),
  name: z.string(),
  slug: z.string(),
  description: z.string(),
  status: AgentStatus,
  model: z.object({ primary: z.string(), fallback: z.string().nullable() }),
  deployed_at: isoTimestamp,
});
export type Agent = z.infer<typeof Agent>;

export const AgentList = z.object({
  agents: z.array(Agent),
  total: z.number().int().nonnegative(),
  has_more: z.boolean(),
});
export type AgentList = z.infer<typeof AgentList>;

export const Conversation = z.object({
  id: z.string(),
  agent: z.string(),
  session_id: z.string(),
  message_count: z.number().int().nonnegative(),
  started_at: isoTimestamp,
  last_message_at: isoTimestamp,
  // docs/decisions.md: any string; the mock uses `active` and `completed`.
  status: z.string(),
});
export type Conversation = z.infer<typeof Conversation>;

export const ConversationList = z.object({
  conversations: z.array(Conversation),
  total: z.number().int().nonnegative(),
  limit: z.number().int(),
  offset: z.number().int(),
});
export type ConversationList = z.infer<typeof ConversationList>;

export const Thread = z.object({
  id: z.string(),
  title: z.string(),
  agent: z.string(),
  message_count: z.number().int().nonnegative(),
  created_at: isoTimestamp,
  updated_at: isoTimestamp,
});
export type Thread = z.infer<typeof Thread>;

export const ThreadList = z.object({ threads: z.array(Thread) });
export type ThreadList = z.infer<typeof ThreadList>;

export const ThreadCreated = z.object({
  thread: Thread.omit({ updated_at: true }),
  response: z.string(),
});
export type ThreadCreated = z.infer<typeof ThreadCreated>;

export const ThreadMessageReply = z.object({
  message_id: z.string(),
  response: z.string(),
  thread_id: z.string(),
});
export type ThreadMessageReply = z.infer<typeof ThreadMessageReply>;

const UsageDay = z.object({
  date: z.iso.date(),
  requests: z.number().int().nonnegative(),
  tokens: z.number().int().nonnegative(),
  avg_latency_ms: z.number().int().nonnegative(),
});

export const UsageReport = z.object({
  usage: z.object({
    total_requests: z.number().int().nonnegative(),
    total_tokens: z.number().int().nonnegative(),
    period_start: isoTimestamp,
    period_end: isoTimestamp,
    daily: z.array(UsageDay),
    by_agent: z.array(
      z.object({
        agent: z.string(),
        requests: z.number().int().nonnegative(),
        tokens: z.number().int().nonnegative(),
      }),
    ),
  }),
});
export type UsageReport = z.infer<typeof UsageReport>;

const HealthStatus = z.enum(HEALTH_STATUSES);

export const HealthReport = z.object({
  status: HealthStatus,
  timestamp: isoTimestamp,
  components: z.object({ api: z.string(), vps: z.string(), agents: z.string(), gateway: z.string() }),
  uptime_seconds: z.number().int().nonnegative(),
  version: z.string(),
});
export type HealthReport = z.infer<typeof HealthReport>;

// The request bodies (spec §4). The mock parses with them and says what is wrong itself (an empty
// message, a message over 100 KB, a session id that is not 1–128 letters or digits); those rules
// reach the OpenAPI document (shared/openapi.ts) as metadata, which parsing does not read.
const messageField = z
  .string()
  .meta({ minLength: 1, description: `At most ${MAX_MESSAGE_BYTES} bytes of UTF-8 (100 KB).` });
const agentField = z.string().meta({ minLength: 1, description: 'The agent’s slug or id.' });

export const ChatBody = z.strictObject({
  message: messageField,
  agent: agentField.optional(),
  session_id: z
    .string()
    .meta({ pattern: SESSION_ID_PATTERN.source, description: 'Messages that share it share their history.' })
    .optional(),
  stream: z.boolean().optional(),
});
export const CreateThreadBody = z.strictObject({
  title: z.string().meta({ maxLength: MAX_THREAD_TITLE_LENGTH }).optional(),
  agent: agentField.optional(),
  message: messageField,
});
export const ThreadMessageBody = z.strictObject({ message: messageField });

export const ChatReply = z.object({ response: z.string(), agent: z.string(), request_id: z.string() });
export type ChatReply = z.infer<typeof ChatReply>;

/** One `data:` event of a chat stream (spec §6). */
export const StreamEvent = z.union([
  z.object({ content: z.string() }),
  z.object({ error: z.object({ code: z.string(), message: z.string() }) }),
]);
export type StreamEvent = z.infer<typeof StreamEvent>;

/**
 * The error code a status stands for (spec §7's chat table; docs/decisions.md for the rest): what the
 * mock sends for an injected fault, and what the client assumes when a body names no code.
 */
export const CODE_BY_STATUS: Readonly<Record<number, string>> = {
  400: 'BAD_REQUEST',
  401: 'INVALID_KEY',
  403: 'PLAN_REQUIRED',
  404: 'NOT_FOUND',
  429: 'RATE_LIMITED',
  500: 'INTERNAL_ERROR',
  502: 'AGENT_ERROR',
  503: 'SERVICE_UNAVAILABLE',
  504: 'TIMEOUT',
};

/** Spec §7 shape 1. */
export const NestedErrorBody = z.object({
  error: z.object({ code: z.string(), message: z.string(), type: z.string(), request_id: z.string() }),
});
/** Spec §7 shape 2 (the spec gives it for rate limiting; docs/decisions.md lets the mock use it for all). */
export const FlatErrorBody = z.object({
  error: z.string(),
  code: z.string(),
  status: z.number().int(),
  retry_after: z.number().int().optional(),
});

const encoder = new TextEncoder();
export function utf8Bytes(text: string): number {
  return encoder.encode(text).byteLength;
}
