// The service as this console understands it, as an OpenAPI 3.1 document: made from the zod
// schemas the client reads replies with and the mock parses requests with (shared/api.ts), so the
// document cannot drift from what the console does. `agent-console openapi` prints it and the mock
// serves it at /openapi.json (docs/architecture.md, "OpenAPI").
import { z } from 'zod';
import {
  Agent,
  AgentList,
  API_PREFIX,
  ChatBody,
  ChatReply,
  CODE_BY_STATUS,
  Conversation,
  ConversationList,
  CreateThreadBody,
  FlatErrorBody,
  HealthReport,
  NestedErrorBody,
  PAGE_LIMIT,
  STREAM_DONE,
  StreamEvent,
  Thread,
  ThreadCreated,
  ThreadList,
  ThreadMessageBody,
  ThreadMessageReply,
  USAGE_DAYS,
  UsageReport,
} from './api';

/** Where the mock serves the document; outside the API, and it needs no key. */
export const OPENAPI_PATH = '/openapi.json';

type Json = Record<string, unknown>;

/** Every schema the document names, by the name it is given there. */
const SCHEMAS: Record<string, z.ZodType> = {
  Agent,
  AgentList,
  Conversation,
  ConversationList,
  Thread,
  ThreadList,
  ThreadCreated,
  ThreadMessageReply,
  UsageReport,
  HealthReport,
  ChatBody,
  ChatReply,
  StreamEvent,
  CreateThreadBody,
  ThreadMessageBody,
  NestedErrorBody,
  FlatErrorBody,
};

const ref = (name: string): Json => ({ $ref: `#/components/schemas/${name}` });

/**
 * The schemas as JSON Schema 2020-12 (OpenAPI 3.1's dialect), each referring to the others by
 * name. As input: a reply may carry fields the console does not read (it ignores them), so only a
 * request body that the service refuses extra fields in is closed.
 */
function componentSchemas(): Record<string, Json> {
  const registry = z.registry<{ id: string }>();
  for (const [id, schema] of Object.entries(SCHEMAS)) registry.add(schema, { id });
  const { schemas } = z.toJSONSchema(registry, {
    io: 'input',
    uri: (id) => `#/components/schemas/${id}`,
  }) as { schemas: Record<string, Json> };
  return Object.fromEntries(
    Object.entries(schemas).map(([id, { $schema: _schema, $id: _id, ...schema }]) => [id, schema]),
  );
}

const integer = { type: 'integer' } as const;

/** Spec §8: on every successful reply and on a 429. */
const RATE_HEADERS = {
  'X-RateLimit-Limit': { $ref: '#/components/headers/X-RateLimit-Limit' },
  'X-RateLimit-Remaining': { $ref: '#/components/headers/X-RateLimit-Remaining' },
  'X-RateLimit-Reset': { $ref: '#/components/headers/X-RateLimit-Reset' },
};
const REQUEST_ID = { 'X-Request-Id': { $ref: '#/components/headers/X-Request-Id' } };

const HEADERS = {
  'X-RateLimit-Limit': { description: 'The key’s requests per minute.', schema: integer },
  'X-RateLimit-Remaining': { description: 'Requests left in the current window.', schema: integer },
  'X-RateLimit-Reset': { description: 'Unix time (seconds) when the window resets.', schema: integer },
  'Retry-After': { description: 'Seconds to wait before the next request is accepted.', schema: integer },
  'X-Request-Id': {
    description: 'The request’s id, as the error bodies name it.',
    schema: { type: 'string' },
  },
};

/** Both error shapes of spec §7: which one a reply uses is not tied down. */
const ERROR_CONTENT = {
  'application/json': { schema: { oneOf: [ref('NestedErrorBody'), ref('FlatErrorBody')] } },
};

const ERROR_STATUSES = [400, 401, 403, 404, 429, 500, 502, 503, 504] as const;
type ErrorStatus = (typeof ERROR_STATUSES)[number];

function errorResponses(): Record<string, Json> {
  return Object.fromEntries(
    ERROR_STATUSES.map((status) => [
      `Error${status}`,
      {
        description: CODE_BY_STATUS[status] ?? 'Error',
        headers:
          status === 429
            ? { 'Retry-After': { $ref: '#/components/headers/Retry-After' }, ...RATE_HEADERS, ...REQUEST_ID }
            : REQUEST_ID,
        content: ERROR_CONTENT,
      },
    ]),
  );
}

const errors = (...statuses: ErrorStatus[]): Record<string, Json> =>
  Object.fromEntries(
    statuses.map((status) => [String(status), { $ref: `#/components/responses/Error${status}` }]),
  );

/** Every endpoint answers these (spec §5, §7). */
const ALWAYS: ErrorStatus[] = [400, 401, 403, 429, 500, 503];

const json = (schema: Json, description: string): Json => ({
  description,
  headers: { ...RATE_HEADERS, ...REQUEST_ID },
  content: { 'application/json': { schema } },
});

const body = (name: string): Json => ({
  required: true,
  content: { 'application/json': { schema: ref(name) } },
});

const query = (name: string, schema: Json, description: string): Json => ({
  name,
  in: 'query',
  required: false,
  description,
  schema,
});
const PAGE = [
  query(
    'limit',
    { ...integer, minimum: PAGE_LIMIT.min, maximum: PAGE_LIMIT.max, default: PAGE_LIMIT.default },
    'Items per page.',
  ),
  query('offset', { ...integer, minimum: 0, default: 0 }, 'Items skipped.'),
];

function paths(): Record<string, Json> {
  return {
    [`${API_PREFIX}/chat`]: {
      post: {
        operationId: 'chat',
        summary: 'Send a message to an agent',
        requestBody: body('ChatBody'),
        responses: {
          200: {
            description:
              'The whole reply as JSON; with `stream: true`, a `text/event-stream` of `data:` events, each a StreamEvent, ending with `data: [DONE]`. A stream counts as one request against the rate limit.',
            headers: { ...RATE_HEADERS, ...REQUEST_ID },
            content: {
              'application/json': { schema: ref('ChatReply') },
              'text/event-stream': {
                schema: {
                  type: 'string',
                  description: 'SSE frames: `data: <StreamEvent as JSON>`, then `data: [DONE]`.',
                },
                // What each frame's data is; OpenAPI 3.1 has no field for a stream's items (3.2's itemSchema).
                'x-event-data': { oneOf: [ref('StreamEvent'), { const: STREAM_DONE }] },
              },
            },
          },
          ...errors(...ALWAYS, 404, 502, 504),
        },
      },
    },
    [`${API_PREFIX}/agents`]: {
      get: {
        operationId: 'listAgents',
        summary: 'List agents',
        parameters: PAGE,
        responses: { 200: json(ref('AgentList'), 'A page of agents.'), ...errors(...ALWAYS) },
      },
    },
    [`${API_PREFIX}/conversations`]: {
      get: {
        operationId: 'listConversations',
        summary: 'List conversations, newest first',
        parameters: [query('agent', { type: 'string' }, 'Only this agent’s (slug).'), ...PAGE],
        responses: { 200: json(ref('ConversationList'), 'A page of conversations.'), ...errors(...ALWAYS) },
      },
    },
    [`${API_PREFIX}/threads`]: {
      get: {
        operationId: 'listThreads',
        summary: 'List threads',
        responses: { 200: json(ref('ThreadList'), 'The threads.'), ...errors(...ALWAYS) },
      },
      post: {
        operationId: 'createThread',
        summary: 'Start a thread with a first message',
        requestBody: body('CreateThreadBody'),
        responses: {
          200: json(ref('ThreadCreated'), 'The thread and the agent’s reply.'),
          ...errors(...ALWAYS, 404, 502, 504),
        },
      },
    },
    [`${API_PREFIX}/threads/{thread_id}/messages`]: {
      post: {
        operationId: 'sendThreadMessage',
        summary: 'Add a message to a thread',
        parameters: [{ name: 'thread_id', in: 'path', required: true, schema: { type: 'string' } }],
        requestBody: body('ThreadMessageBody'),
        responses: {
          200: json(ref('ThreadMessageReply'), 'The agent’s reply.'),
          ...errors(...ALWAYS, 404, 502, 504),
        },
      },
    },
    [`${API_PREFIX}/usage`]: {
      get: {
        operationId: 'getUsage',
        summary: 'Usage per day and per agent',
        parameters: [
          query(
            'days',
            { ...integer, minimum: USAGE_DAYS.min, maximum: USAGE_DAYS.max, default: USAGE_DAYS.default },
            'Days back from today.',
          ),
        ],
        responses: { 200: json(ref('UsageReport'), 'The usage report.'), ...errors(...ALWAYS) },
      },
    },
    [`${API_PREFIX}/health`]: {
      get: {
        operationId: 'getHealth',
        summary: 'The service’s health',
        responses: { 200: json(ref('HealthReport'), 'The health report.'), ...errors(...ALWAYS) },
      },
    },
  };
}

/** The document; made on each call (a few milliseconds), so a caller keeps it if it asks often. */
export function openApiDocument(): Json {
  return {
    openapi: '3.1.0',
    info: {
      title: 'Agent Messaging Service',
      version: API_PREFIX.split('/').pop() ?? '',
      description:
        'The service as Agent Console understands it, generated from the schemas it reads replies with. Every request carries `Authorization: Bearer <API_KEY>` over HTTPS; limits are per key.',
    },
    security: [{ bearerKey: [] }],
    paths: paths(),
    components: {
      securitySchemes: {
        bearerKey: { type: 'http', scheme: 'bearer', description: 'An API key of the service.' },
      },
      schemas: componentSchemas(),
      headers: HEADERS,
      responses: errorResponses(),
    },
  };
}
