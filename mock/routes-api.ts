// The service's HTTP interface (spec §4), on top of MockService.
import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import {
  AgentList,
  API_PREFIX,
  ConversationList,
  HealthReport,
  ThreadList,
  UsageReport,
  MAX_MESSAGE_BYTES,
  PAGE_LIMIT,
  SESSION_ID_PATTERN,
  STREAM_DONE,
  USAGE_DAYS,
  utf8Bytes,
} from '../shared/api';
import { composeChunks, composeReply } from './agent-replies';
import { replayGap } from './replay';
import { ApiFailure, badRequest } from './errors';
import { newId } from './ids';
import type { MockService } from './service';
import type { AgentRecord } from './state';
import { intParam, onlyParams, parseBody, stringParam } from './validate';

const ChatBody = z.strictObject({
  message: z.string(),
  agent: z.string().optional(),
  session_id: z.string().optional(),
  stream: z.boolean().optional(),
});
const CreateThreadBody = z.strictObject({
  title: z.string().optional(),
  agent: z.string().optional(),
  message: z.string(),
});
const AppendBody = z.strictObject({ message: z.string() });
const MAX_TITLE_LENGTH = 200;

function checkMessage(message: string): void {
  if (message.length === 0) throw badRequest("Field 'message' must not be empty.");
  const bytes = utf8Bytes(message);
  if (bytes > MAX_MESSAGE_BYTES) {
    throw badRequest(`Field 'message' is ${bytes} bytes; the limit is ${MAX_MESSAGE_BYTES} bytes (100 KB).`);
  }
}

function checkAgentRef(agent: string | undefined): void {
  if (agent !== undefined && agent.trim() === '') throw badRequest("Field 'agent' must not be empty.");
}

/** Aborts when the client goes away, so a stopped stream stops the agent too. */
function clientGone(reply: FastifyReply): AbortSignal {
  const controller = new AbortController();
  reply.raw.on('close', () => {
    if (!reply.raw.writableFinished) controller.abort();
  });
  return controller.signal;
}

/** Fastify serialises replies with a compiled serializer from these schemas (the bench's hot path). */
const reply200 = (schema: z.ZodType) => ({
  schema: { response: { 200: z.toJSONSchema(schema, { io: 'output', target: 'draft-7' }) } },
});

/** Bytes of SSE frames gathered into one write when they are due at once (issue 18). */
const BATCH_BYTES = 16 * 1024;

const frame = (data: unknown): string =>
  `data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`;
/**
 * The same bytes as `frame({ content })`, without building an object per chunk. A long reply
 * repeats its pieces (a story's words), so frames are kept by content, up to FRAMES_KEPT of them.
 */
const FRAMES_KEPT = 4096;
const framesByContent = new Map<string, string>();
const contentFrame = (content: string): string => {
  let kept = framesByContent.get(content);
  if (kept === undefined) {
    if (framesByContent.size >= FRAMES_KEPT) framesByContent.clear();
    kept = `data: {"content":${JSON.stringify(content)}}\n\n`;
    framesByContent.set(content, kept);
  }
  return kept;
};

export function registerApiRoutes(app: FastifyInstance, service: MockService): void {
  app.post(`${API_PREFIX}/chat`, async (request, reply) => {
    onlyParams(request.query as Record<string, unknown>, []);
    const body = parseBody(ChatBody, request.body);
    checkMessage(body.message);
    checkAgentRef(body.agent);
    if (body.session_id !== undefined && !SESSION_ID_PATTERN.test(body.session_id)) {
      throw badRequest("Field 'session_id' must be 1 to 128 letters or digits (A-Z, a-z, 0-9).");
    }
    const agent = service.resolveAgent(body.agent);
    const signal = clientGone(reply);
    const startedAt = service.clock.now();
    const conversation = service.session(body.session_id, agent);
    // The reply is made from the history as it is now, before the agent "thinks".
    const chunks = body.stream ? composeChunks(agent, body.message, conversation.history) : [];
    const text = body.stream ? '' : composeReply(agent, body.message, conversation.history);
    await service.think(agent, signal);

    if (!body.stream) {
      if (agent.tuning.behaviour === 'glitch') {
        throw new ApiFailure(
          502,
          'AGENT_ERROR',
          `Agent '${agent.slug}' had an internal error while processing.`,
        );
      }
      service.recordChat(conversation, agent, body.message, text, startedAt);
      return { response: text, agent: agent.slug, request_id: request.id };
    }

    const brk = service.takeStreamBreak();
    const failAfter = agent.tuning.behaviour === 'glitch' ? agent.tuning.failAfterChunks : undefined;
    async function* events(): AsyncGenerator<string> {
      // Frames due at once go out together, up to BATCH_BYTES a write (one chunked frame per
      // write, not per event); whatever is pending goes out before every pause, so a paced stream
      // keeps its timing, and the first frame goes out alone, so the time to first byte stays.
      let pending = '';
      let sent = 0;
      try {
        for (let i = 0; i < chunks.length; i++) {
          if (brk && i === brk.afterChunks) {
            if (brk.mode === 'drop') {
              if (pending) yield pending;
              throw new Error('Injected fault: stream dropped before [DONE].');
            }
            yield (
              pending +
              frame({ error: { code: 'stream_error', message: 'Injected fault: the stream broke.' } })
            );
            yield frame(STREAM_DONE);
            return;
          }
          if (failAfter !== undefined && i === failAfter) {
            yield (
              pending +
              frame({ error: { code: 'stream_error', message: `Agent '${agent.slug}' failed mid-reply.` } })
            );
            yield frame(STREAM_DONE);
            return;
          }
          const pause = agent.replay ? replayGap(agent.replay, i) : agent.tuning.chunkDelayMs;
          if (i > 0 && pause > 0) {
            if (pending) {
              yield pending;
              pending = '';
            }
            await service.clock.sleep(pause, signal);
          }
          sent = i + 1;
          pending += contentFrame(chunks[i] as string);
          if (i === 0 || pending.length >= BATCH_BYTES) {
            yield pending;
            pending = '';
          }
        }
        yield pending + frame(STREAM_DONE);
      } finally {
        service.recordChat(conversation, agent, body.message, chunks.slice(0, sent).join(''), startedAt);
      }
    }
    return reply
      .header('content-type', 'text/event-stream; charset=utf-8')
      .header('cache-control', 'no-cache')
      .header('x-accel-buffering', 'no')
      // Object mode, so the batches reach the socket as the strings they are: Node encodes them
      // into its write (and counts their bytes) natively, instead of a Buffer made per batch here.
      .send(Readable.from(events()));
  });

  // The agent list changes rarely and is read often (every screen, every health watcher): its
  // serialised body is kept until the state changes (issue 18).
  let agentsBody: { version: number; state: unknown; page: string; body: string } | undefined;
  app.get(`${API_PREFIX}/agents`, reply200(AgentList), async (request, reply) => {
    const query = request.query as Record<string, unknown>;
    onlyParams(query, ['limit', 'offset']);
    const limit = intParam(query, 'limit', PAGE_LIMIT.min, PAGE_LIMIT.max, PAGE_LIMIT.default);
    const offset = intParam(query, 'offset', 0, Number.MAX_SAFE_INTEGER, 0);
    const page = `${limit}:${offset}`;
    const kept = agentsBody;
    if (kept?.version !== service.stateVersion || kept.state !== service.state || kept.page !== page) {
      const all = service.state.agents;
      agentsBody = {
        version: service.stateVersion,
        state: service.state,
        page,
        // The response schema's serializer writes only the spec's fields, leaving `tuning` out.
        body: reply.serialize({
          agents: all.slice(offset, offset + limit),
          total: all.length,
          has_more: offset + limit < all.length,
        }) as string,
      };
    }
    return reply.type('application/json; charset=utf-8').send(agentsBody?.body);
  });

  app.get(`${API_PREFIX}/conversations`, reply200(ConversationList), async (request) => {
    const query = request.query as Record<string, unknown>;
    onlyParams(query, ['agent', 'limit', 'offset']);
    const agent = stringParam(query, 'agent');
    const limit = intParam(query, 'limit', PAGE_LIMIT.min, PAGE_LIMIT.max, PAGE_LIMIT.default);
    const offset = intParam(query, 'offset', 0, Number.MAX_SAFE_INTEGER, 0);
    const matching = service.state.conversations
      .filter((c) => agent === undefined || c.agent === agent)
      .sort((a, b) => b.last_message_at.localeCompare(a.last_message_at));
    return {
      conversations: matching.slice(offset, offset + limit).map((c) => service.conversationView(c)),
      total: matching.length,
      limit,
      offset,
    };
  });

  app.get(`${API_PREFIX}/threads`, reply200(ThreadList), async (request) => {
    onlyParams(request.query as Record<string, unknown>, []);
    return { threads: service.state.threads.map((t) => service.threadView(t)) };
  });

  app.post(`${API_PREFIX}/threads`, async (request, reply) => {
    onlyParams(request.query as Record<string, unknown>, []);
    const body = parseBody(CreateThreadBody, request.body);
    checkMessage(body.message);
    checkAgentRef(body.agent);
    if (body.title !== undefined && body.title.length > MAX_TITLE_LENGTH) {
      throw badRequest(`Field 'title' is ${body.title.length} characters; the limit is ${MAX_TITLE_LENGTH}.`);
    }
    const agent = service.resolveAgent(body.agent);
    const startedAt = service.clock.now();
    const text = composeReply(agent, body.message, []);
    await service.think(agent, clientGone(reply));
    failIfGlitch(agent);
    const now = new Date(service.clock.now()).toISOString();
    // DESIGN.md §2: the title is optional, derived from the first message.
    const title = body.title?.trim() || deriveTitle(body.message);
    const thread = {
      id: newId('thr'),
      title,
      agent: agent.slug,
      message_count: 0,
      created_at: now,
      updated_at: now,
      history: [],
    };
    service.state.threads.push(thread);
    service.recordExchange(thread, agent, body.message, text, startedAt);
    const { updated_at: _u, history: _h, ...created } = thread;
    return { thread: created, response: text };
  });

  app.post<{ Params: { threadId: string } }>(
    `${API_PREFIX}/threads/:threadId/messages`,
    async (request, reply) => {
      onlyParams(request.query as Record<string, unknown>, []);
      const thread = service.state.threads.find((t) => t.id === request.params.threadId);
      if (!thread)
        throw new ApiFailure(
          404,
          'THREAD_NOT_FOUND',
          `Thread '${clip(request.params.threadId)}' does not exist.`,
        );
      const body = parseBody(AppendBody, request.body);
      checkMessage(body.message);
      const agent = service.requireRunning(service.findAgent(thread.agent), thread.agent);
      const startedAt = service.clock.now();
      const text = composeReply(agent, body.message, thread.history);
      await service.think(agent, clientGone(reply));
      failIfGlitch(agent);
      service.recordExchange(thread, agent, body.message, text, startedAt);
      thread.updated_at = new Date(service.clock.now()).toISOString();
      return { message_id: newId('msg'), response: text, thread_id: thread.id };
    },
  );

  app.get(`${API_PREFIX}/usage`, reply200(UsageReport), async (request) => {
    const query = request.query as Record<string, unknown>;
    onlyParams(query, ['days']);
    return service.usageReport(intParam(query, 'days', USAGE_DAYS.min, USAGE_DAYS.max, USAGE_DAYS.default));
  });

  app.get(`${API_PREFIX}/health`, reply200(HealthReport), async (request: FastifyRequest) => {
    onlyParams(request.query as Record<string, unknown>, []);
    return service.healthReport();
  });
}

function failIfGlitch(agent: AgentRecord): void {
  if (agent.tuning.behaviour === 'glitch') {
    throw new ApiFailure(502, 'AGENT_ERROR', `Agent '${agent.slug}' had an internal error while processing.`);
  }
}

function deriveTitle(message: string): string {
  const firstLine = message.trim().split('\n')[0] ?? '';
  const points = Array.from(firstLine);
  return points.length > 60 ? `${points.slice(0, 59).join('')}…` : firstLine || 'Untitled thread';
}

function clip(text: string): string {
  return text.length > 60 ? `${text.slice(0, 60)}…` : text;
}
