// Shared pieces of the mock conformance suite: the endpoint list of spec §4, error-body checks
// (spec §7), an SSE reader (spec §6) and raw-socket requests for what an HTTP client would tidy up.
import { connect as tcpConnect } from 'node:net';
import { connect as tlsConnect } from 'node:tls';
import { request, type Dispatcher } from 'undici';
import { expect } from 'vitest';
import type { z } from 'zod';
import { FlatErrorBody, NestedErrorBody, StreamEvent, STREAM_DONE } from '../../shared/api';
import type { ManualClock } from '../../shared/clock';
import type { TestMock } from '../support/mock';

type Response = Awaited<ReturnType<TestMock['call']>>;

export interface Endpoint {
  name: string;
  method: Dispatcher.HttpMethod;
  /** `:thread` stands for an existing thread id. */
  path: string;
  body?: unknown;
}

/** Every endpoint of spec §4, each with a valid request. */
export const ENDPOINTS: Endpoint[] = [
  { name: 'POST chat', method: 'POST', path: '/api/v1/chat', body: { message: 'hello', agent: 'echo' } },
  { name: 'GET agents', method: 'GET', path: '/api/v1/agents' },
  { name: 'GET conversations', method: 'GET', path: '/api/v1/conversations' },
  { name: 'GET threads', method: 'GET', path: '/api/v1/threads' },
  {
    name: 'POST threads',
    method: 'POST',
    path: '/api/v1/threads',
    body: { message: 'hello', agent: 'echo' },
  },
  {
    name: 'POST thread messages',
    method: 'POST',
    path: '/api/v1/threads/:thread/messages',
    body: { message: 'hello again' },
  },
  { name: 'GET usage', method: 'GET', path: '/api/v1/usage' },
  { name: 'GET health', method: 'GET', path: '/api/v1/health' },
];

/** An echo thread to stand in for `:thread`. */
export async function echoThread(mock: TestMock): Promise<string> {
  const res = await mock.call('POST', '/api/v1/threads', {
    body: { message: 'thread for tests', agent: 'echo' },
  });
  expect(res.status).toBe(200);
  return (res.json as { thread: { id: string } }).thread.id;
}

export function callEndpoint(
  mock: TestMock,
  endpoint: Endpoint,
  threadId: string,
  options: { key?: string | null; headers?: Record<string, string> } = {},
): Promise<Response> {
  return mock.call(endpoint.method, endpoint.path.replace(':thread', threadId), {
    ...options,
    ...(endpoint.body !== undefined ? { body: endpoint.body } : {}),
  });
}

/** Spec §7 shape 1, with the request id matching the X-Request-Id header. */
export function expectNestedError(
  res: Response,
  status: number,
  code: string,
): { message: string; type: string } {
  expect(res.status, res.text).toBe(status);
  const body = NestedErrorBody.parse(res.json);
  expect(body.error.code).toBe(code);
  expect(body.error.message.length).toBeGreaterThan(0);
  expect(body.error.type.length).toBeGreaterThan(0);
  expect(res.headers['x-request-id']).toBeTruthy();
  expect(body.error.request_id).toBe(res.headers['x-request-id']);
  return body.error;
}

/** Spec §7 shape 2. */
export function expectFlatError(res: Response, status: number, code: string): z.infer<typeof FlatErrorBody> {
  expect(res.status, res.text).toBe(status);
  const body = FlatErrorBody.parse(res.json);
  expect(typeof (res.json as { error: unknown }).error).toBe('string');
  expect(body.code).toBe(code);
  expect(body.status).toBe(status);
  expect(body.error.length).toBeGreaterThan(0);
  return body;
}

export function rateHeaders(res: Pick<Response, 'status' | 'headers'>): {
  limit: number;
  remaining: number;
  reset: number;
} {
  for (const name of ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset']) {
    expect(res.headers[name], `${name} on ${res.status}`).toMatch(/^\d+$/);
  }
  return {
    limit: Number(res.headers['x-ratelimit-limit']),
    remaining: Number(res.headers['x-ratelimit-remaining']),
    reset: Number(res.headers['x-ratelimit-reset']),
  };
}

export interface SseResult {
  status: number;
  headers: Record<string, string>;
  text: string;
  /** Set when the connection failed before the body ended. */
  error?: Error;
}

/** A streamed chat read to the end (or to the failure), without any SSE library tidying it. */
export async function streamChat(
  mock: TestMock,
  body: Record<string, unknown>,
  key = 'pro',
): Promise<SseResult> {
  const secret = key in mock.server.keys ? mock.server.keys[key as keyof typeof mock.server.keys] : key;
  const res = await request(`${mock.server.baseUrl}/api/v1/chat`, {
    method: 'POST',
    dispatcher: mock.dispatcher,
    headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' },
    body: JSON.stringify({ ...body, stream: true }),
  });
  const decoder = new TextDecoder();
  let text = '';
  try {
    for await (const chunk of res.body) text += decoder.decode(chunk as Buffer, { stream: true });
    text += decoder.decode();
    return { status: res.statusCode, headers: res.headers as Record<string, string>, text };
  } catch (error) {
    return {
      status: res.statusCode,
      headers: res.headers as Record<string, string>,
      text,
      error: error as Error,
    };
  }
}

/**
 * Splits an SSE body into its `data:` payloads, checking spec §6's framing on the way: each event
 * is one `data: ` line. A trailing partial event (a dropped stream) is returned as `partial`.
 */
export function sseEvents(text: string): { data: string[]; partial: string } {
  const blocks = text.split('\n\n');
  const partial = blocks.pop() ?? '';
  const data = blocks.map((block) => {
    expect(block, 'an SSE event is one data: line').toMatch(/^data: [^\n]*$/);
    return block.slice('data: '.length);
  });
  return { data, partial };
}

/** A complete stream: content events, optionally one error event, then [DONE] last. */
export function parseCompleteStream(text: string): {
  content: string;
  chunks: number;
  error?: { code: string; message: string };
} {
  const { data, partial } = sseEvents(text);
  expect(partial).toBe('');
  expect(data.at(-1)).toBe(STREAM_DONE);
  expect(data.filter((d) => d === STREAM_DONE)).toHaveLength(1);
  const events = data.slice(0, -1).map((d) => StreamEvent.parse(JSON.parse(d)));
  let content = '';
  let chunks = 0;
  let error: { code: string; message: string } | undefined;
  events.forEach((event, i) => {
    if ('content' in event) {
      expect(Object.keys(event)).toEqual(['content']);
      content += event.content;
      chunks++;
    } else {
      // An error event is the last before [DONE] (spec §6.4).
      expect(i).toBe(events.length - 1);
      error = event.error;
    }
  });
  return { content, chunks, ...(error ? { error } : {}) };
}

/** Sends `raw` bytes on a new connection to the mock's port and returns whatever comes back. */
export function rawRequest(mock: TestMock, raw: string, tls = true): Promise<string> {
  const url = new URL(mock.server.baseUrl);
  const port = Number(url.port);
  return new Promise((resolve) => {
    const socket = tls
      ? tlsConnect({ host: url.hostname, port, ca: mock.server.ca, servername: 'localhost' })
      : tcpConnect({ host: url.hostname, port });
    let out = '';
    const timer = setTimeout(() => socket.destroy(), 3000);
    socket.on(tls ? 'secureConnect' : 'connect', () => socket.write(raw));
    socket.on('data', (d: Buffer) => (out += d.toString('utf8')));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(out);
    });
  });
}

/** Waits (in real time, up to 10 s on a busy machine) until the mock is sleeping on the manual clock. */
export async function untilSleeping(clock: ManualClock, count = 1): Promise<void> {
  const end = Date.now() + 10_000;
  while (clock.pending < count && Date.now() < end) await new Promise((r) => setTimeout(r, 5));
  expect(clock.pending).toBeGreaterThanOrEqual(count);
}
