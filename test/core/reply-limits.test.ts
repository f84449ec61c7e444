// The API client against a server that does not play fair: what it echoes is redacted once it is
// decoded, and what it sends past the client's limits — size, depth, time, a Retry-After of a day,
// rate headers that would size the window's log by a billion — ends in an error a user can read.
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ApiClient } from '../../electron/core/api-client';
import { ApiError } from '../../electron/core/api-error';
import { RateLimiter } from '../../electron/core/rate-limiter';
import { RequestLog } from '../../electron/core/request-log';
import { rememberSecret } from '../../electron/core/redact';
import { systemClock } from '../../shared/clock';
import type { RequestLogEntry } from '../../shared/request-log-entry';
import { keyPieces, plantKey } from '../security/leak-check';

const KEY = plantKey('hst');
/** The key as a server's JSON may write it: its `_` and a few letters escaped. */
const ESCAPED = `${KEY.slice(0, 3)}\\u005f\\u00${KEY.charCodeAt(4).toString(16)}${KEY.slice(5)}`;
let server: Server;
let baseUrl: string;
const log = new RequestLog();
let limiter: RateLimiter;

type Route = (res: ServerResponse) => void;
const routes: Record<string, Route> = {
  '/api/v1/agents': (res) => {
    res.writeHead(200, { 'content-type': 'application/json', 'x-request-id': `req ${KEY}`, 'x-echo': KEY });
    res.end(
      `{"agents":[{"agent_id":"a1","slug":"s1","name":"${ESCAPED}","status":"deployed","extra":{"${ESCAPED}":["${ESCAPED}"]}}],"total":1,"has_more":false}`,
    );
  },
  '/api/v1/health': (res) => {
    const nested = `${'{"a":'.repeat(100_000)}1${'}'.repeat(100_000)}`;
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(
      `{"status":"healthy","timestamp":"t","uptime_seconds":1,"version":"v","components":{"api":${nested}}}`,
    );
  },
  '/api/v1/usage': (res) => {
    // 20 MB without a Content-Length, in slices.
    res.writeHead(200, { 'content-type': 'application/json' });
    const slice = 'x'.repeat(1024 * 1024);
    let sent = 0;
    const more = (): void => {
      while (sent < 20) {
        sent++;
        if (!res.write(slice)) return void res.once('drain', more);
      }
      res.end();
    };
    res.on('error', () => undefined);
    more();
  },
  '/api/v1/threads': (res) => {
    res.writeHead(429, {
      'content-type': 'application/json',
      'retry-after': '86400',
      'x-ratelimit-limit': '1000000000',
      'x-ratelimit-remaining': '-1000000000',
    });
    res.end(
      '{"error":{"code":"rate_limited","message":"Slow down","type":"rate_limit_error","request_id":"r"}}',
    );
  },
  '/api/v1/chat': (res) => {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    const timer = setInterval(() => res.write('data: {"content":"tick "}\n\n'), 200);
    res.on('close', () => clearInterval(timer));
  },
};

function client(options: Partial<ConstructorParameters<typeof ApiClient>[0]> = {}): ApiClient {
  return new ApiClient({
    profileId: 'hostile',
    baseUrl,
    keyId: 'key_hostile',
    secret: async () => KEY,
    limiter,
    clock: systemClock,
    log: (entry) => log.add(entry),
    retries: { after429: 0, after5xx: 0 },
    ...options,
  });
}

async function failure(promise: Promise<unknown>): Promise<ApiError> {
  const error = await promise.then(
    () => new Error('expected a failure'),
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
}

beforeAll(async () => {
  rememberSecret(KEY);
  server = createServer((req, res) => {
    const route = routes[(req.url ?? '').split('?')[0] as string];
    if (route) route(res);
    else res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  limiter = new RateLimiter({ clock: systemClock, limit: 60, random: () => 0 });
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

describe('what a server echoes is redacted once decoded', () => {
  test('a JSON-escaped key in values and object keys, and the key in headers, reach nothing whole', async () => {
    const page = await client().listAgents();
    const seen = JSON.stringify(page);
    expect(JSON.parse(seen).agents[0].name).toBe(`***…${KEY.slice(-4)}`);
    expect(keyPieces(seen, KEY)).toEqual([]);
    // The request log keeps the body as it came, escapes and all: masked in that form too.
    const entry = log.list().find((e) => e.url.endsWith('/agents')) as RequestLogEntry;
    expect(entry.responseBody).toContain(`"name":"***…${KEY.slice(-4)}"`);
    expect(entry.requestId).toBe(`req ***…${KEY.slice(-4)}`);
    for (const text of [JSON.stringify(entry), log.exportJson(), log.exportHar()]) {
      expect(keyPieces(text, KEY)).toEqual([]);
    }
  });
});

describe('past the limits, an error a user can read', () => {
  test('a reply larger than the body limit is not read', async () => {
    const error = await failure(client({ limits: { bodyBytes: 1024 * 1024 } }).usage());
    expect(error.code).toBe('REPLY_TOO_LARGE');
    expect(error.message).toMatch(/larger than 1 MB/);
  });

  test('JSON nested 100,000 deep is refused before anything walks it', async () => {
    const error = await failure(client().health());
    expect(error.code).toBe('INVALID_RESPONSE');
    expect(error.message).toMatch(/nested deeper than 64 levels/);
  });

  test('a stream that keeps trickling is cut at the chat timeout, keeping what came', async () => {
    const stream = await client({ timeouts: { chatMs: 1_500 } }).chatStream({ message: 'go' });
    const error = await failure(stream.collect());
    expect(error.code).toBe('CLIENT_TIMEOUT');
    expect(error.message).toMatch(/did not finish within 2 seconds/);
    expect(error.partial).toMatch(/^(tick )+$/);
  });

  test('a stream past its byte limit is cut as REPLY_TOO_LARGE', async () => {
    const stream = await client({ limits: { streamBytes: 100 } }).chatStream({ message: 'go' });
    const error = await failure(stream.collect());
    expect(error.code).toBe('REPLY_TOO_LARGE');
    expect(error.partial).toMatch(/^(tick )+$/);
  });

  test('a Retry-After of a day waits 10 minutes at most and says so; nonsense rate headers size nothing', async () => {
    const error = await failure(client().listThreads());
    expect(error.retryAfterS).toBe(600);
    expect(error.message).toMatch(/asked to wait 86400 seconds; this console waits 10 minutes at most/);
    const state = limiter.state();
    expect(state.pausedUntil).toBeLessThanOrEqual(Date.now() + 600_000);
    expect(state.limit).toBe(60);
    expect(state.remaining).toBeGreaterThanOrEqual(0);
  });
});
