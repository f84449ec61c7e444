// An independent service for the tolerant-reader and rate-limit tests:
// plain node:http, not our mock, answering legally per the spec but the way a newer or different
// service may — a new agent status, a new conversation status, a non-content stream event, no
// `model.fallback`, a timestamp without a zone, `Text/Event-Stream`, fields the spec does not name,
// a 429 whose X-RateLimit-Reset is a minute away while Retry-After says 3, and a stream in bare CR.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export const ODD_KEY = 'odd_0123456789abcdef0123456789abcdef';

export interface OddServer {
  baseUrl: string;
  /** When each request arrived (ms since epoch), by path. */
  arrivals(path: string): number[];
  /** The next request to `path` gets a 429 (Retry-After 3, X-RateLimit-Reset 60 s later). */
  refuseNext(path: string): void;
  close(): Promise<void>;
}

export const ODD_AGENTS = {
  agents: [
    {
      agent_id: 'agt_odd_1',
      slug: 'builder',
      name: 'Builder',
      description: 'Being deployed right now.',
      status: 'deploying',
      // No `fallback` at all (the spec shows it as null; a service may leave it out).
      model: { primary: 'model-x', context_window: 200_000 },
      // No zone: names no instant.
      deployed_at: '2026-11-23T10:00:00',
      rollout: { percent: 40, region: 'eu' },
    },
  ],
  total: 1,
  has_more: false,
  next_cursor: 'opaque-cursor',
};

export const ODD_CONVERSATIONS = {
  conversations: [
    {
      id: 'conv_odd_1',
      agent: 'builder',
      session_id: 'odd-session-1',
      message_count: 4,
      started_at: '2026-11-23T09:00:00',
      last_message_at: '2026-11-23T09:05:00Z',
      status: 'archived',
      sentiment: 'positive',
    },
  ],
  total: 1,
  limit: 20,
  offset: 0,
  region: 'eu',
};

/** The stream's pieces, with a `{"type":"usage"}` event among them. */
export const ODD_PIECES = ['Under ', 'construction', '.'];

function streamEvents(): string[] {
  const [a, b, c] = ODD_PIECES;
  return [
    JSON.stringify({ content: a }),
    JSON.stringify({ type: 'usage', prompt_tokens: 3, completion_tokens: 2 }),
    JSON.stringify({ content: b, id: 'evt_2' }),
    JSON.stringify({ content: c }),
    '[DONE]',
  ];
}

function rateHeaders(res: ServerResponse, remaining: number): void {
  res.setHeader('x-ratelimit-limit', '60');
  res.setHeader('x-ratelimit-remaining', String(remaining));
  res.setHeader('x-ratelimit-reset', String(Math.ceil((Date.now() + 60_000) / 1000)));
}

function json(res: ServerResponse, status: number, body: unknown): void {
  res.statusCode = status;
  res.setHeader('content-type', 'application/json');
  res.end(JSON.stringify(body));
}

async function readBody(req: IncomingMessage): Promise<string> {
  let text = '';
  for await (const piece of req) text += String(piece);
  return text;
}

export async function startOddServer(): Promise<OddServer> {
  const arrivals = new Map<string, number[]>();
  const refuse = new Set<string>();
  const server = createServer((req, res) => {
    void (async () => {
      const path = new URL(req.url ?? '/', 'http://odd').pathname;
      arrivals.set(path, [...(arrivals.get(path) ?? []), Date.now()]);
      if (req.headers.authorization !== `Bearer ${ODD_KEY}`) {
        return json(res, 401, {
          error: { code: 'INVALID_KEY', message: 'Unknown key.', type: 'authentication_error' },
        });
      }
      if (refuse.delete(path)) {
        // A sliding window read legally: a slot frees in 3 s, the oldest request leaves in 60.
        rateHeaders(res, 0);
        res.setHeader('retry-after', '3');
        return json(res, 429, {
          error: {
            code: 'rate_limited',
            message: 'Rate limit exceeded. Retry after 3 seconds.',
            type: 'rate_limit_error',
          },
        });
      }
      rateHeaders(res, 59);
      if (req.method === 'GET' && path === '/api/v1/agents') return json(res, 200, ODD_AGENTS);
      if (req.method === 'GET' && path === '/api/v1/conversations') return json(res, 200, ODD_CONVERSATIONS);
      if (req.method === 'POST' && path === '/api/v1/chat') {
        const { message } = JSON.parse(await readBody(req)) as { message: string };
        // `bare-cr` in the message: every line ends in a lone CR, the last byte of the body too.
        const end = message.includes('bare-cr') ? '\r' : '\n';
        res.statusCode = 200;
        res.setHeader('content-type', 'Text/Event-Stream; charset=UTF-8');
        res.setHeader('x-request-id', 'req_odd_stream');
        for (const data of streamEvents()) res.write(`data: ${data}${end}${end}`);
        return res.end();
      }
      return json(res, 404, {
        error: { code: 'NOT_FOUND', message: `No route ${path}.`, type: 'not_found_error' },
      });
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    arrivals: (path) => arrivals.get(path) ?? [],
    refuseNext: (path) => refuse.add(path),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
