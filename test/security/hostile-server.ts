// A loopback service that is out to get the key (docs/security.md): every endpoint of the spec,
// answered in shapes the client accepts, with the bearer key it received in every string field it
// can put one in and in every response header it can. The first part of a request's path picks a
// mode, so one server (HTTP, or HTTPS with hostile-tls.ts's CA) serves a profile per mode:
//   plain        the key as it is
//   u005f        the key's `_` written `\u005f` in JSON
//   escaped      several of the key's characters written `\u00XX` in JSON
//   escapes      terminal control sequences (OSC title, CSI colour, C1 CSI) beside the key
//   nested       a health component and an agent field nested 100,000 deep
//   huge         a 300 MB non-streamed reply, written in 1 MB slices
//   endless      a chat stream that sends a chunk every 5 s and never ends
//   retry-after  429 with Retry-After: 86400
// The chat message picks the case: `unauthorized` (a 401 echoing the key), `fail` (a 502 echoing
// it), `stream-error` (a stream_error event echoing it); anything else is a reply that says the
// message back and holds the key, streamed across chunks, network reads and SSE comments.
import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import type { TlsFiles } from './hostile-tls';

export const MODES = [
  'plain',
  'u005f',
  'escaped',
  'escapes',
  'nested',
  'huge',
  'endless',
  'retry-after',
] as const;
export type Mode = (typeof MODES)[number];

/** What a terminal would act on: a window title (OSC … BEL), a colour (CSI), and a C1 CSI. */
export const CONTROL_SEQUENCES = '\u001b]0;PWNED\u0007\u001b[31m\u009b31m';
export const HUGE_BYTES = 300 * 1024 * 1024;
const NESTED_DEPTH = 100_000;
const ENDLESS_EVERY_MS = 5_000;
const SLICE = Buffer.alloc(1024 * 1024, 'x');

export interface SeenRequest {
  mode: string;
  method: string;
  /** The path below /api/v1. */
  path: string;
  bearer: string;
  body: string;
}

export interface HostileServer {
  origin: string;
  /** The base URL of a profile for `mode`. */
  url(mode: Mode | string): string;
  requests: SeenRequest[];
  close(): Promise<void>;
}

/**
 * JSON text as `mode` writes it: plain, or with characters of every string (object keys too)
 * written as `\u00XX` escapes, each character on its own, so the wire form of a concatenation is
 * the concatenation of the wire forms. The client decodes them back to the key.
 */
function makeWire(key: string, mode: string): (value: unknown) => string {
  const escaped = new Set<string>();
  if (mode === 'u005f' || mode === 'escaped') escaped.add('_');
  if (mode === 'escaped') [...key].forEach((c, i) => i % 5 === 0 && escaped.add(c));
  if (escaped.size === 0) return (value) => JSON.stringify(value);
  let upper = false;
  const char = (c: string): string => {
    if (!escaped.has(c)) return JSON.stringify(c).slice(1, -1);
    const hex = (c.codePointAt(0) as number).toString(16).padStart(4, '0');
    upper = !upper;
    return `\\u${upper ? hex.toUpperCase() : hex}`;
  };
  return (value) =>
    JSON.stringify(value).replace(
      /"(?:[^"\\]|\\.)*"/g,
      (token) => `"${[...(JSON.parse(token) as string)].map(char).join('')}"`,
    );
}

function nested(depth: number): string {
  return `${'{"d":'.repeat(depth)}"deep"${'}'.repeat(depth)}`;
}

/** Resolves when the socket takes more, or is gone. */
function drained(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}

async function readBody(req: IncomingMessage): Promise<string> {
  let text = '';
  for await (const piece of req) text += String(piece);
  return text;
}

/** Headers that carry the key wherever a header can (names included); the rate ones stay valid. */
function echoHeaders(key: string): Record<string, string> {
  const safe = /^[A-Za-z0-9_]+$/.test(key) ? key : 'bad';
  return {
    'x-ratelimit-limit': '300',
    'x-ratelimit-remaining': '299',
    'x-ratelimit-reset': String(Math.ceil(Date.now() / 1000) + 60),
    'x-request-id': `req_${key}`,
    'x-echo': key,
    [`x-echo-${safe.toLowerCase()}`]: key,
    server: `hostile/${key}`,
    via: `1.1 ${key}`,
    link: `<https://example.invalid/${key}>; rel="help"`,
    'set-cookie': `session=${key}; Path=/`,
    warning: `199 - "see ${key}"`,
  };
}

export async function startHostileServer(options: { tls?: TlsFiles } = {}): Promise<HostileServer> {
  const requests: SeenRequest[] = [];
  const timers = new Set<NodeJS.Timeout>();
  const nestedText = nested(NESTED_DEPTH);

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const url = new URL(req.url ?? '/', 'http://hostile');
    const match = /^\/([a-z0-9-]+)\/api\/v1\/(.*)$/.exec(url.pathname);
    const key = (req.headers.authorization ?? '').replace(/^Bearer\s+/i, '');
    const body = await readBody(req);
    const mode = match?.[1] ?? '';
    const path = match?.[2] ?? url.pathname;
    requests.push({ mode, method: req.method ?? '', path, bearer: key, body });
    const headers = echoHeaders(key);
    const decorated = mode === 'escapes' ? `${CONTROL_SEQUENCES} ${key}` : key;
    /** A field's value: words around the key, so the key is glued to nothing. */
    const v = (what: string): string => `${what} ${decorated} end`;
    const wire = makeWire(key, mode);
    const json = (status: number, value: unknown, extra: Record<string, string> = {}): void => {
      res.writeHead(status, { ...headers, ...extra, 'content-type': 'application/json' });
      res.end(wire(value));
    };
    const error = (status: number, code: string, message: string): void =>
      json(status, {
        error: { code, message, type: `${code}_error`, request_id: `req_${key}` },
      });

    if (!match || !(MODES as readonly string[]).includes(mode))
      return error(404, 'NOT_FOUND', `No route ${url.pathname} for ${v('you')}`);
    if (mode === 'retry-after') {
      res.writeHead(429, {
        ...headers,
        'x-ratelimit-remaining': '0',
        'retry-after': '86400',
        'content-type': 'application/json',
      });
      res.end(
        wire({
          error: {
            code: 'rate_limited',
            message: `Rate limit exceeded for ${key}. Retry after 86400 seconds.`,
            type: 'rate_limit_error',
            request_id: `req_${key}`,
          },
        }),
      );
      return;
    }

    const now = new Date().toISOString();
    const agent = {
      agent_id: '7d1f0c1e-8a4b-4f6e-9c2d-3b5a6e7f8091',
      slug: 'hostile',
      name: v('Agent'),
      description: v('Does'),
      status: v('status'),
      model: { primary: v('model'), fallback: v('fallback') },
      deployed_at: now,
      owner: v('owner'),
    };
    const thread = {
      id: 'thr_hostile1',
      title: v('Title'),
      agent: 'hostile',
      message_count: 2,
      created_at: now,
    };
    let parsed: { message?: unknown; stream?: unknown } = {};
    try {
      parsed = JSON.parse(body || '{}') as typeof parsed;
    } catch {
      // Not JSON: answered as an empty message.
    }
    const message = typeof parsed.message === 'string' ? parsed.message : '';
    const said = `You said: ${message}. Your key is ${decorated}, keep it safe.`;
    let reply: Record<string, unknown> | undefined;
    /** The field of `reply` that `huge` fills with 300 MB. */
    let hugeField = 'padding';

    if (req.method === 'GET' && path === 'agents') {
      reply = { agents: [agent], total: 1, has_more: false };
    } else if (req.method === 'GET' && path === 'conversations') {
      reply = {
        conversations: [
          {
            id: 'conv_hostile1',
            agent: 'hostile',
            session_id: 'hostileSession1',
            message_count: 2,
            started_at: now,
            last_message_at: now,
            status: v('status'),
            summary: v('summary'),
          },
        ],
        total: 1,
        limit: 20,
        offset: 0,
      };
    } else if (req.method === 'GET' && path === 'threads') {
      reply = { threads: [{ ...thread, updated_at: now }] };
    } else if (req.method === 'POST' && path === 'threads') {
      reply = { thread, response: said };
    } else if (req.method === 'POST' && /^threads\/[^/]+\/messages$/.test(path)) {
      reply = {
        message_id: `msg_${key}`,
        response: said,
        thread_id: decodeURIComponent(path.split('/')[1] ?? ''),
      };
    } else if (req.method === 'GET' && path === 'usage') {
      reply = {
        usage: {
          total_requests: 3,
          total_tokens: 30,
          period_start: now,
          period_end: now,
          daily: [{ date: now.slice(0, 10), requests: 3, tokens: 30, avg_latency_ms: 12 }],
          by_agent: [{ agent: v('agent'), requests: 3, tokens: 30 }],
        },
      };
    } else if (req.method === 'GET' && path === 'health') {
      hugeField = 'version';
      reply = {
        status: 'degraded',
        timestamp: now,
        components: {
          api: v('api'),
          vps: v('vps'),
          agents: v('agents'),
          gateway: v('gateway'),
          [key]: v('extra'),
        },
        uptime_seconds: 100,
        version: v('version'),
      };
    } else if (req.method === 'POST' && path === 'chat') {
      if (message === 'unauthorized')
        return error(401, 'INVALID_KEY', `Incorrect API key provided: ${decorated}`);
      if (message === 'fail') return error(502, 'AGENT_ERROR', `The agent failed while holding ${decorated}`);
      if (parsed.stream === true) return stream(res, headers, mode, message, key, decorated, wire);
      hugeField = 'response';
      reply = { response: said, agent: v('agent'), request_id: `req_${key}` };
    }
    if (!reply) return error(404, 'NOT_FOUND', `No route ${req.method} ${path} for ${v('you')}`);

    if (mode === 'nested' && (path === 'health' || path === 'agents' || path === 'chat')) {
      // JSON.stringify cannot write 100,000 levels: the nested value goes in as text.
      const text = wire(
        path === 'health' ? { ...reply, components: { api: 'operational', detail: 0 } } : reply,
      );
      const spliced =
        path === 'health'
          ? text.replace('"detail":0', `"detail":${nestedText}`)
          : path === 'agents'
            ? text.replace('"owner":', `"meta":${nestedText},"owner":`)
            : text.replace(/}$/, `,"meta":${nestedText}}`);
      res.writeHead(200, { ...headers, 'content-type': 'application/json' });
      res.end(spliced);
      return;
    }
    if (mode === 'huge') {
      // The value is written in 1 MB slices as the socket takes them: never 300 MB in this process.
      const [head, tail] = wire({ ...reply, [hugeField]: '\u0000' }).split('"\\u0000"') as [string, string];
      res.writeHead(200, { ...headers, 'content-type': 'application/json' });
      res.write(`${head}"`);
      for (let sent = 0; sent < HUGE_BYTES && !res.destroyed; sent += SLICE.length) {
        if (!res.write(SLICE)) await drained(res);
      }
      if (!res.destroyed) res.end(`"${tail}`);
      return;
    }
    json(200, reply);
  };

  /** SSE: the key in a comment, split across chunks and across network reads, and once whole. */
  async function stream(
    res: ServerResponse,
    headers: Record<string, string>,
    mode: string,
    message: string,
    key: string,
    decorated: string,
    wire: (value: unknown) => string,
  ): Promise<void> {
    res.writeHead(200, { ...headers, 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    const data = (value: unknown): string => `data: ${wire(value)}\n\n`;
    if (mode === 'endless') {
      res.write(data({ content: `Starting ${decorated}. ` }));
      const tick = setInterval(() => {
        if (res.destroyed) return void clearInterval(tick);
        res.write(data({ content: `tick ${decorated} ` }));
      }, ENDLESS_EVERY_MS);
      timers.add(tick);
      res.once('close', () => {
        clearInterval(tick);
        timers.delete(tick);
      });
      return;
    }
    const writes: string[] = [`: hello ${key}\n\n`, data({ content: `You said: ${message}. ` })];
    if (message === 'stream-error') {
      writes.push(
        data({ content: `Partial ${decorated} ` }),
        data({ error: { code: 'stream_error', message: `Upstream failed for ${decorated}` } }),
        'data: [DONE]\n\n',
      );
    } else {
      const [a, b, c] = [decorated.length - 30, decorated.length - 18, decorated.length - 5];
      // One event cut in two writes in the middle of the key, within the JSON string.
      const before = `${decorated.slice(c)}, and once more: ${decorated.slice(0, decorated.length - 27)}`;
      const last = data({ content: `${before}${decorated.slice(-27)}. ` });
      const cut = 'data: '.length + wire({ content: before }).length - 2;
      writes.push(
        data({ content: `Your key is ${decorated.slice(0, a)}` }),
        data({ content: decorated.slice(a, b) }),
        `${data({ content: decorated.slice(b, c) })}${last.slice(0, cut)}`,
        last.slice(cut),
        `: trailing ${key}\n\n`,
        data({ content: 'Done.' }),
        'data: [DONE]\n\n',
      );
    }
    for (const piece of writes) {
      if (res.destroyed) return;
      res.write(piece);
      // Separate network reads: a short pause between writes.
      await sleep(15);
    }
    res.end();
  }

  const listener = (req: IncomingMessage, res: ServerResponse): void => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
      res.end(String(error));
    });
  };
  const server = options.tls
    ? createHttpsServer({ key: options.tls.key, cert: options.tls.cert }, listener)
    : createHttpServer(listener);
  server.keepAliveTimeout = 1000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const origin = `${options.tls ? 'https' : 'http'}://127.0.0.1:${port}`;
  return {
    origin,
    url: (mode) => `${origin}/${mode}`,
    requests,
    close: () =>
      new Promise((resolve) => {
        for (const timer of timers) clearInterval(timer);
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
