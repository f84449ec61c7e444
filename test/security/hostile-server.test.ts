// The hostile-server suite's own instruments, checked before anything is blamed on the product:
// the server's replies are shapes the client accepts (shared/received.ts), its escaped modes decode
// to the key and hide it from a plain search of the wire, and the leak finder finds a key whole,
// in runs, and JSON-escaped, and nothing in a mask.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  ReceivedAgentList,
  ReceivedChatReply,
  ReceivedConversationList,
  ReceivedHealthReport,
  ReceivedThreadCreated,
  ReceivedThreadList,
  ReceivedThreadMessageReply,
  ReceivedUsageReport,
} from '../../shared/received';
import { startHostileServer, type HostileServer } from './hostile-server';
import { leaks, unescapeJson } from './hostile-support';
import { keyRuns, plantKey } from './leak-check';

const KEY = plantKey('hk9');
let server: HostileServer;

beforeAll(async () => {
  server = await startHostileServer();
});
afterAll(() => server?.close());

async function ask(mode: string, method: 'GET' | 'POST', path: string, body?: unknown) {
  const res = await fetch(`${server.url(mode)}/api/v1/${path}`, {
    method,
    headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  return { status: res.status, headers: res.headers, text: await res.text() };
}

describe('the hostile server', () => {
  test.each(['plain', 'u005f', 'escaped', 'escapes'])(
    '%s: every endpoint answers a shape the client accepts, the key in it once decoded',
    async (mode) => {
      const calls = [
        ['GET', 'agents', ReceivedAgentList],
        ['GET', 'conversations', ReceivedConversationList],
        ['GET', 'threads', ReceivedThreadList],
        ['POST', 'threads', ReceivedThreadCreated, { message: 'hi' }],
        ['POST', 'threads/thr_hostile1/messages', ReceivedThreadMessageReply, { message: 'hi' }],
        ['GET', 'usage', ReceivedUsageReport],
        ['GET', 'health', ReceivedHealthReport],
        ['POST', 'chat', ReceivedChatReply, { message: 'hi' }],
      ] as const;
      for (const [method, path, schema, body] of calls) {
        const reply = await ask(mode, method, path, body);
        expect(reply.status, path).toBe(200);
        expect(reply.headers.get('x-echo'), path).toBe(KEY);
        expect(reply.headers.get('x-ratelimit-limit'), path).toBe('300');
        const parsed = schema.safeParse(JSON.parse(reply.text));
        expect(parsed.success, `${path}: ${parsed.error?.message}`).toBe(true);
        expect(JSON.stringify(parsed.data), path).toContain(KEY);
        // Escaped on the wire: a plain search of the body finds no whole key.
        if (mode === 'u005f') expect(reply.text, path).not.toContain(KEY);
        if (mode === 'escaped') expect(keyRuns(reply.text, KEY, 12), path).toEqual([]);
      }
    },
  );

  test('a stream holds the key split across events and writes, in comments, and in a stream_error', async () => {
    const done = await ask('escaped', 'POST', 'chat', { message: 'hi', stream: true });
    const content = [...done.text.matchAll(/^data: (\{.*\})$/gm)]
      .map((m) => (JSON.parse(m[1] as string) as { content?: string }).content ?? '')
      .join('');
    expect(content).toContain(`Your key is ${KEY}`);
    expect(done.text).toContain(`: hello ${KEY}`);
    expect(done.text.trimEnd().endsWith('data: [DONE]')).toBe(true);
    const failed = await ask('plain', 'POST', 'chat', { message: 'stream-error', stream: true });
    expect(failed.text).toContain(`{"error":{"code":"stream_error","message":"Upstream failed for ${KEY}"}}`);
  });

  test('retry-after answers 429 with Retry-After: 86400', async () => {
    const reply = await ask('retry-after', 'GET', 'agents');
    expect(reply.status).toBe(429);
    expect(reply.headers.get('retry-after')).toBe('86400');
  });
});

describe('the leak finder', () => {
  const secrets = [{ name: 'KEY', value: KEY }];

  test('finds the key whole, any 12-character run of it, and its JSON-escaped forms', () => {
    expect(leaks('whole', `a ${KEY} b`, secrets)).toEqual([`whole: a <KEY> b`]);
    expect(leaks('run', `x${KEY.slice(10, 22)}y`, secrets)).toEqual([`run: x<KEY[10:22]>y`]);
    // Every fifth character escaped, once or twice over (JSON inside JSON): no plain run is left.
    for (const slashes of ['\\', '\\\\']) {
      const spread = [...KEY]
        .map((c, i) => (i % 5 === 0 ? `${slashes}u00${c.charCodeAt(0).toString(16)}` : c))
        .join('');
      expect(keyRuns(spread, KEY, 12)).toEqual([]);
      expect(unescapeJson(spread)).toBe(KEY);
      expect(leaks('escaped', `"${spread}"`, secrets)).toEqual([`escaped (JSON-escaped): "<KEY>"`]);
    }
  });

  test('finds nothing in a mask or an 11-character run', () => {
    expect(leaks('mask', `***…${KEY.slice(-4)} and ${KEY.slice(0, 11)}`, secrets)).toEqual([]);
  });
});
