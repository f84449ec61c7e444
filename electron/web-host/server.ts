// The web host: the same renderer, served to a browser on loopback only. Every request must carry
// the per-launch token (in the URL once, then in an HttpOnly cookie) and the right Host, and any
// Origin must be our own, so another local page or a DNS-rebinding site cannot drive the console.
// The cookie's name is new at every launch, and the browser opener gets a one-time launch
// code (exchanged for the cookie, then redirected to a clean URL) instead of the token. Browsers
// send a 127.0.0.1 cookie to every port, so the token is defence in depth only: the core itself
// refuses to send a stored key to a new origin without the user's confirmation.
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { PassThrough } from 'node:stream';
import Fastify, { type FastifyReply, type FastifyRequest } from 'fastify';
import { BRIDGE_BATCH_MAX } from '../../shared/bridge-api';
import { PAGE_SECURITY_HEADERS } from '../../shared/page-policy';
import type { BridgeHost } from '../bridge/bridge-host';
import { RendererFiles } from './renderer-files';

export interface WebHostOptions {
  rendererDir: string;
  /**
   * The bridge's main side; the web host only carries its calls and events. It may still be opening
   * (`npm run web` serves the page while the core starts): calls and the event stream wait for it.
   */
  bridge: BridgeHost | Promise<BridgeHost>;
  port?: number;
}

const KEEPALIVE_MS = 15_000;
/**
 * A bridge call's JSON: a HAR file of up to MAX_HAR_CHARS (shared/bridge/log.ts) crosses as one
 * string, which JSON escapes may make several times longer. Fastify's default of 1 MB refused it.
 */
const BRIDGE_BODY_LIMIT = 64 * 1024 * 1024;
/** A batch: [[call, input], …]. */
function isBatch(body: unknown): body is [string, unknown][] {
  return (
    Array.isArray(body) &&
    body.length > 0 &&
    body.length <= BRIDGE_BATCH_MAX &&
    body.every((item) => Array.isArray(item) && item.length === 2 && typeof item[0] === 'string')
  );
}

export interface WebHost {
  url: string;
  origin: string;
  token: string;
  /** This launch's cookie name. */
  cookieName: string;
  /** A URL that works once, within LAUNCH_TTL_MS: for a browser opener's command line. */
  launchUrl(): string;
  close(): Promise<void>;
}

const LAUNCH_TTL_MS = 120_000;

/** What a launch link answers, with the cookie: on to the console, from a page of this origin. */
const LAUNCH_PAGE =
  '<!doctype html><meta charset="utf-8"><meta http-equiv="refresh" content="0;url=/">' +
  '<title>Agent Console</title><p>Opening <a href="/">Agent Console</a>…</p>';

/** The headers every answer past the guard carries: the page's security headers, and no caching. */
function withPolicy(reply: FastifyReply): FastifyReply {
  return reply.headers(PAGE_SECURITY_HEADERS).header('cache-control', 'no-store');
}

function sameSecret(a: string | undefined, b: string): boolean {
  if (!a || a.length !== b.length) return false;
  return timingSafeEqual(Buffer.from(a), Buffer.from(b));
}

function cookieToken(header: string | undefined, cookie: string): string | undefined {
  for (const part of header?.split(';') ?? []) {
    const [name, value] = part.trim().split('=');
    if (name === cookie) return value;
  }
  return undefined;
}

export async function startWebHost(options: WebHostOptions): Promise<WebHost> {
  const files = new RendererFiles(options.rendererDir);
  const token = randomBytes(24).toString('hex');
  const cookie = `agent_console_${randomBytes(6).toString('hex')}`;
  const setCookie = `${cookie}=${token}; HttpOnly; SameSite=Strict; Path=/`;
  /** One-time launch codes and when they stop working. */
  const launches = new Map<string, number>();
  const bridge = Promise.resolve(options.bridge);
  // A core that fails to open is reported by whoever opened it; here it only ends calls and streams.
  bridge.catch(() => undefined);
  const app = Fastify({ logger: false, forceCloseConnections: true });
  // Filled once the port is known; until then every request is refused.
  const hosts = new Set<string>();

  const refuse = (reply: FastifyReply, status: number, message: string) =>
    reply.status(status).type('text/plain; charset=utf-8').send(message);

  app.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
    if (!hosts.has(request.headers.host ?? '')) return refuse(reply, 421, 'Wrong Host header.');
    const from = request.headers.origin;
    if (from !== undefined && !hosts.has(from.replace(/^http:\/\//, ''))) {
      return refuse(reply, 403, 'Requests from other origins are refused.');
    }
    const launch = (request.query as Record<string, unknown>).launch;
    if (typeof launch === 'string' && request.method === 'GET') {
      const until = launches.get(launch);
      launches.delete(launch);
      if (until === undefined || until < Date.now()) {
        return refuse(
          reply,
          401,
          'This launch link was already used or has expired: open the URL that `npm run web` printed.',
        );
      }
      // The browser came here from the opener's file (a cross-site start), and a SameSite=Strict
      // cookie is not sent on a redirect that such a navigation follows: an HTTP redirect to / was
      // refused for want of the token. A page of ours sends the browser on instead, so the request
      // for / comes from this origin and carries the cookie.
      return withPolicy(reply.header('set-cookie', setCookie))
        .type('text/html; charset=utf-8')
        .send(LAUNCH_PAGE);
    }
    const query = (request.query as Record<string, unknown>).token;
    const given = typeof query === 'string' ? query : cookieToken(request.headers.cookie, cookie);
    if (!sameSecret(given, token)) {
      return refuse(reply, 401, 'Missing or wrong token: open the URL that `npm run web` printed.');
    }
    if (typeof query === 'string') reply.header('set-cookie', setCookie);
    withPolicy(reply);
  });

  // The bridge over HTTP: a POST per call (JSON in, BridgeResult out), or per batch of the calls the
  // page makes together; and one event stream.
  app.post<{ Params: { call: string } }>(
    '/bridge/call/:call',
    { bodyLimit: BRIDGE_BODY_LIMIT },
    async (request, reply) => {
      if (!(request.headers['content-type'] ?? '').startsWith('application/json')) {
        return refuse(reply, 415, 'Bridge calls are JSON.');
      }
      return (await bridge).invoke(request.params.call, request.body);
    },
  );

  // Each result is one NDJSON line, [index, result], sent when it is ready: a slow call (a chat
  // waiting on its agent) holds up none of the others.
  app.post('/bridge/calls', { bodyLimit: BRIDGE_BODY_LIMIT }, async (request, reply) => {
    if (!(request.headers['content-type'] ?? '').startsWith('application/json')) {
      return refuse(reply, 415, 'Bridge calls are JSON.');
    }
    const calls = request.body;
    if (!isBatch(calls)) {
      return refuse(reply, 400, `A batch is a list of 1 to ${BRIDGE_BATCH_MAX} [call, input] pairs.`);
    }
    const ready = await bridge;
    const lines = new PassThrough();
    let left = calls.length;
    calls.forEach(([call, input], index) => {
      void ready.invoke(call, input).then((result) => {
        if (!lines.destroyed) lines.write(`${JSON.stringify([index, result])}\n`);
        if (--left === 0) lines.end();
      });
    });
    return reply.type('application/x-ndjson; charset=utf-8').send(lines);
  });

  app.get('/bridge/events', (request, reply) => {
    reply.hijack();
    const res = reply.raw;
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      'x-content-type-options': 'nosniff',
    });
    res.write(': connected\n\n');
    let stop: (() => void) | undefined;
    let closed = false;
    void bridge.then(
      (ready) => {
        if (closed) return;
        stop = ready.onEvent((event, payload) => {
          res.write(`event: ${event}\ndata: ${JSON.stringify(payload)}\n\n`);
        });
      },
      () => res.end(),
    );
    const keepalive = setInterval(() => res.write(': keep-alive\n\n'), KEEPALIVE_MS);
    request.raw.on('close', () => {
      closed = true;
      clearInterval(keepalive);
      stop?.();
    });
  });

  app.get('/*', async (request, reply) => {
    const file = await files.get(request.url).catch(() => undefined);
    if (!file) return refuse(reply, 404, 'Not found.');
    return reply.type(file.contentType).send(file.body);
  });
  await app.listen({ host: '127.0.0.1', port: options.port ?? 0 });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : options.port;
  hosts.add(`127.0.0.1:${port}`).add(`localhost:${port}`);
  const origin = `http://127.0.0.1:${port}`;
  return {
    url: `${origin}/?token=${token}`,
    origin,
    token,
    cookieName: cookie,
    launchUrl: () => {
      const code = randomBytes(24).toString('hex');
      launches.set(code, Date.now() + LAUNCH_TTL_MS);
      return `${origin}/?launch=${code}`;
    },
    close: () => app.close(),
  };
}
