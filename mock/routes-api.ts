// The service's HTTP interface (spec §4), on top of MockService.
import type { OutgoingHttpHeaders } from 'node:http';
import fastJson from 'fast-json-stringify';
import type { FastifyInstance, FastifyReply, FastifyRequest, FastifySerializerCompiler } from 'fastify';
import { z } from 'zod';
import {
  AgentList,
  API_PREFIX,
  ChatBody,
  CreateThreadBody,
  MAX_THREAD_TITLE_LENGTH,
  ThreadMessageBody,
  ConversationList,
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
import { ApiFailure, NOT_JSON_BODY, badRequest } from './errors';
import { newId } from './ids';
import type { MockService } from './service';
import type { AgentRecord } from './state';
import { intParam, onlyParams, parseBody, stringParam } from './validate';

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

/**
 * A route's serializer, made (as Fastify would) when it first replies rather than when the mock
 * starts: each GET and its HEAD compile one, and the ten of them were ~15 ms of every start of the
 * app, the web host and `agent-console mock`. So is the JSON Schema it is compiled from:
 * the route carries its zod schema, which Fastify leaves to this compiler (an object of a class of
 * its own is a type provider's schema to Fastify, not JSON Schema), and converting the five of them
 * at registration was another 5 ms of every start.
 */
const compileOnFirstReply: FastifySerializerCompiler<unknown> = ({ schema }) => {
  let serialize: ((data: unknown) => string) | undefined;
  const jsonSchema = () => z.toJSONSchema(schema as z.ZodType, { io: 'output', target: 'draft-7' });
  const compile = () => fastJson(jsonSchema() as Parameters<typeof fastJson>[0]);
  return (data) => (serialize ??= compile())(data);
};

/** Fastify serialises replies with a compiled serializer from these schemas (the bench's hot path). */
const reply200 = (schema: z.ZodType) => ({
  schema: { response: { 200: schema } },
  serializerCompiler: compileOnFirstReply,
});

/** Bytes of SSE frames gathered into one write when they are due at once. */
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

/**
 * The API's routes. The server checks each request before its route runs and logs the answer a
 * route returns; a streamed chat, which writes to the socket itself, adds itself to the request
 * log with `logRequest` when its stream ends.
 */
export function registerApiRoutes(
  app: FastifyInstance,
  service: MockService,
  logRequest: (request: FastifyRequest, reply: FastifyReply) => void,
): void {
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
    // A fault (an armed break, a glitching agent) ends the stream at its chunk, if the reply is
    // longer than that.
    const breakAt = brk && brk.afterChunks < chunks.length ? brk.afterChunks : Infinity;
    const failAt = failAfter !== undefined && failAfter < chunks.length ? failAfter : Infinity;
    const stop = Math.min(chunks.length, breakAt, failAt);
    const pauseBefore = (i: number): number =>
      agent.replay ? replayGap(agent.replay, i) : agent.tuning.chunkDelayMs;

    // The frames are written to the socket here, not piped from a stream: the whole reply is in
    // memory already, so frames due at once go out in BATCH_BYTES writes without a stream's
    // backpressure round trip per write. What the server does to a returned answer is done here: the
    // malformed-reply fault is applied, and the stream adds itself to the request log.
    const garble = service.faults.malformedNext && service.takeMalformed(request.url);
    reply.hijack();
    const res = reply.raw;
    // A client that goes away mid-stream is ordinary for SSE: `signal` stops the agent, and a
    // write that meets the closed socket is not an error of the mock's.
    res.on('error', () => undefined);
    const headers: OutgoingHttpHeaders = {
      ...(reply.getHeaders() as OutgoingHttpHeaders),
      'cache-control': 'no-cache',
      'x-accel-buffering': 'no',
    };
    if (garble === 'bad-json') {
      res.writeHead(200, { ...headers, 'content-type': 'application/json; charset=utf-8' });
      res.end(NOT_JSON_BODY);
      logRequest(request, reply);
      return reply;
    }
    res.writeHead(200, {
      ...headers,
      'content-type':
        garble === 'wrong-content-type' ? 'text/html; charset=utf-8' : 'text/event-stream; charset=utf-8',
    });
    let sent = 0;
    let pending = '';
    try {
      // The first frame goes out alone, and a turn of the event loop passes before the rest is
      // made, so the time to first byte stays that of one frame.
      if (stop > 0) {
        res.write(contentFrame(chunks[0] as string));
        sent = 1;
        await new Promise((resolve) => setImmediate(resolve));
      }
      // The loop yields only at a pause, so only then (and after the turn above) can the client
      // have gone: the check is made there, not for every frame.
      const paced = agent.replay !== undefined || agent.tuning.chunkDelayMs > 0;
      for (let i = signal.aborted ? stop : 1; i < stop; i++) {
        const pause = paced ? pauseBefore(i) : 0;
        if (pause > 0) {
          // Whatever is pending goes out before every pause, so a paced stream keeps its timing.
          if (pending) res.write(pending);
          pending = '';
          await service.clock.sleep(pause, signal);
          if (signal.aborted) break;
        }
        pending += contentFrame(chunks[i] as string);
        sent = i + 1;
        if (pending.length >= BATCH_BYTES) {
          res.write(pending);
          pending = '';
        }
      }
      if (signal.aborted) {
        res.destroy();
      } else if (stop === breakAt && brk?.mode === 'drop') {
        // The connection ends without [DONE], once the headers and what was made so far are out.
        res.write(pending, () => res.destroy());
      } else if (stop === breakAt) {
        const error = { code: 'stream_error', message: 'Injected fault: the stream broke.' };
        res.end(pending + frame({ error }) + frame(STREAM_DONE));
      } else if (stop === failAt) {
        const error = { code: 'stream_error', message: `Agent '${agent.slug}' failed mid-reply.` };
        res.end(pending + frame({ error }) + frame(STREAM_DONE));
      } else {
        res.end(pending + frame(STREAM_DONE));
      }
    } catch {
      // The client went away during a pause (the only await that throws): nothing to send to.
      res.destroy();
    } finally {
      const said = sent === chunks.length ? chunks.join('') : chunks.slice(0, sent).join('');
      service.recordChat(conversation, agent, body.message, said, startedAt);
      logRequest(request, reply);
    }
    return reply;
  });

  // The agent list changes rarely and is read often (every screen, every health watcher): its
  // serialised body is kept until the state changes.
  let agentsBody: { version: number; state: unknown; page: string; body: string } | undefined;
  app.get(`${API_PREFIX}/agents`, reply200(AgentList), async (request, reply) => {
    const query = request.query as Record<string, unknown>;
    onlyParams(query, ['limit', 'offset']);
    const limit = intParam(query, 'limit', PAGE_LIMIT.min, PAGE_LIMIT.max, PAGE_LIMIT.default);
    const offset = intParam(query, 'offset', 0, Number.MAX_SAFE_INTEGER, 0);
    const page = `${limit}:${offset}`;
    let kept = agentsBody;
    if (kept?.version !== service.stateVersion || kept.state !== service.state || kept.page !== page) {
      const all = service.state.agents;
      kept = agentsBody = {
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
    void reply.type('application/json; charset=utf-8');
    return kept.body;
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
    if (body.title !== undefined && body.title.length > MAX_THREAD_TITLE_LENGTH) {
      throw badRequest(
        `Field 'title' is ${body.title.length} characters; the limit is ${MAX_THREAD_TITLE_LENGTH}.`,
      );
    }
    const agent = service.resolveAgent(body.agent);
    const startedAt = service.clock.now();
    const text = composeReply(agent, body.message, []);
    await service.think(agent, clientGone(reply));
    failIfGlitch(agent);
    const now = new Date(service.clock.now()).toISOString();
    // docs/decisions.md: the title is optional, derived from the first message.
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
      const body = parseBody(ThreadMessageBody, request.body);
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

  // Serialised by JSON.stringify, not a compiled serializer: a small reply, asked about once a minute,
  // and the first health check of every start of the app and the web host waited 5–10 ms for that
  // serializer's compile. healthReport() builds exactly the reply the spec gives.
  app.get(`${API_PREFIX}/health`, async (request: FastifyRequest) => {
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
