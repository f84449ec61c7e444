// How the mock's fuzz test (property.test.ts) judges a reply: which endpoint a request reached,
// the shape each success must have, an event stream as the spec writes one, and an error body in
// the shape the mock was told to use.
import { expect } from 'vitest';
import { z } from 'zod';
import {
  AgentList,
  ConversationList,
  HealthReport,
  StreamEvent,
  ThreadCreated,
  ThreadList,
  ThreadMessageReply,
  UsageReport,
} from '../../shared/api';
import type { ErrorShape } from '../../mock/errors';

export type Kind =
  | 'chat'
  | 'agents'
  | 'conversations'
  | 'threads'
  | 'createThread'
  | 'append'
  | 'usage'
  | 'health'
  | 'unknown';

const NestedError = z.strictObject({
  error: z.strictObject({
    code: z.string().min(1),
    message: z.string().min(1),
    type: z.string().min(1),
    request_id: z.string().min(1),
  }),
});
const FlatError = z.strictObject({
  error: z.string().min(1),
  code: z.string().min(1),
  status: z.number().int(),
  retry_after: z.number().int().positive().optional(),
});

export const SUCCESS: Record<Exclude<Kind, 'chat' | 'unknown'>, z.ZodType> = {
  agents: AgentList,
  conversations: ConversationList,
  threads: ThreadList,
  createThread: ThreadCreated,
  append: ThreadMessageReply,
  usage: UsageReport,
  health: HealthReport,
};

export function classify(method: string, pathname: string): Kind {
  const p = pathname;
  if (method === 'POST' && p === '/api/v1/chat') return 'chat';
  if (method === 'GET' && p === '/api/v1/agents') return 'agents';
  if (method === 'GET' && p === '/api/v1/conversations') return 'conversations';
  if (method === 'GET' && p === '/api/v1/threads') return 'threads';
  if (method === 'POST' && p === '/api/v1/threads') return 'createThread';
  if (method === 'POST' && /^\/api\/v1\/threads\/[^/]+\/messages$/.test(p)) return 'append';
  if (method === 'GET' && p === '/api/v1/usage') return 'usage';
  if (method === 'GET' && p === '/api/v1/health') return 'health';
  return 'unknown';
}

/** Checks a `text/event-stream` body (spec §6) and returns the concatenated content. */
export function checkStream(text: string): { content: string; failed: boolean } {
  expect(text.endsWith('\n\n'), 'stream ends with a blank line').toBe(true);
  const events = text.slice(0, -2).split('\n\n');
  expect(events.at(-1), 'stream ends with [DONE]').toBe('data: [DONE]');
  let content = '';
  let failed = false;
  for (const [i, event] of events.slice(0, -1).entries()) {
    expect(event.startsWith('data: '), `event ${i} is a data line`).toBe(true);
    expect(event.includes('\n'), `event ${i} is one line`).toBe(false);
    expect(failed, 'nothing but [DONE] follows a stream_error').toBe(false);
    const parsed = StreamEvent.parse(JSON.parse(event.slice('data: '.length)));
    if ('content' in parsed) content += parsed.content;
    else {
      expect(parsed.error.code).toBe('stream_error');
      failed = true;
    }
  }
  return { content, failed };
}

export function checkError(
  res: { status: number; headers: Record<string, string>; json: unknown },
  shape: ErrorShape,
): string {
  expect(res.headers['content-type'] ?? '', 'error content type').toMatch(/^application\/json/);
  const flat = shape === 'flat' || (shape === 'flat-429' && res.status === 429);
  if (flat) {
    const body = FlatError.parse(res.json);
    expect(body.status).toBe(res.status);
    expect(body.code).toBe(body.code.toUpperCase());
    if (res.status === 429) {
      expect(body.code).toBe('RATE_LIMITED');
      expect(body.retry_after).toBe(Number(res.headers['retry-after']));
    }
    return body.code;
  }
  const body = NestedError.parse(res.json);
  expect(body.error.request_id).toBe(res.headers['x-request-id']);
  if (res.status === 429) {
    expect(body.error.code).toBe('rate_limited');
    expect(body.error.type).toBe('rate_limit_error');
    expect(body.error.message).toMatch(/\d+ seconds?/);
  }
  return body.error.code.toUpperCase();
}
