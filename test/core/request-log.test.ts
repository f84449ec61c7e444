import { randomBytes } from 'node:crypto';
import { describe, expect, test, vi } from 'vitest';
import { z } from 'zod';
import { RequestLog, type RequestLogEvent } from '../../electron/core/request-log';
import type { RequestLogEntry } from '../../shared/request-log-entry';

const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const plantKey = (): string => `ams_${[...randomBytes(32)].map((b) => ALNUM[b % 62]).join('')}`;

let sequence = 0;
function entry(overrides: Partial<RequestLogEntry> = {}): RequestLogEntry {
  sequence++;
  return {
    id: `entry-${sequence}`,
    startedAt: Date.UTC(2026, 0, 15, 12, 0, 0) + sequence,
    durationMs: 42,
    profileId: 'embedded-mock',
    keyId: 'key-1',
    method: 'GET',
    url: 'https://127.0.0.1:8443/api/v1/agents?limit=5&offset=0',
    requestHeaders: { authorization: 'Bearer ***', accept: 'application/json' },
    status: 200,
    responseHeaders: { 'content-type': 'application/json', 'x-ratelimit-remaining': '59' },
    responseBody: '{"agents":[],"total":0,"has_more":false}',
    responseBytes: 40,
    requestId: `req_${sequence}`,
    rate: { limit: 60, remaining: 59, reset: 1_768_478_460 },
    streamed: false,
    ...overrides,
  };
}

/** The secret part that must never be seen: all of the key but the four characters the UI shows. */
const hidden = (key: string): string => key.slice(0, -4);

describe('the ring', () => {
  test('holds at most its capacity after ten times as many adds, newest last', () => {
    const log = new RequestLog({ capacity: 50 });
    const ids: string[] = [];
    for (let i = 0; i < 500; i++) ids.push(log.add(entry()).id);
    expect(log.size).toBe(50);
    expect(log.list().map((e) => e.id)).toEqual(ids.slice(-50));
  });

  test('defaults to 1000 entries', () => {
    const log = new RequestLog();
    for (let i = 0; i < 10_000; i++) log.add(entry());
    expect(log.capacity).toBe(1000);
    expect(log.list()).toHaveLength(1000);
  });

  test('rejects a capacity that is not a positive integer', () => {
    expect(() => new RequestLog({ capacity: 0 })).toThrow(RangeError);
    expect(() => new RequestLog({ capacity: 2.5 })).toThrow(RangeError);
  });

  test('clear empties it and it fills again', () => {
    const log = new RequestLog({ capacity: 3 });
    for (let i = 0; i < 5; i++) log.add(entry());
    log.clear();
    expect(log.list()).toEqual([]);
    const kept = log.add(entry());
    expect(log.list()).toEqual([kept]);
  });

  test('stores a frozen copy and never changes the caller’s object', () => {
    const log = new RequestLog();
    const original = entry({ requestHeaders: { Authorization: `Bearer ${plantKey()}` } });
    const before = structuredClone(original);
    const stored = log.add(original);
    expect(original).toEqual(before);
    expect(Object.isFrozen(stored)).toBe(true);
    expect(Object.isFrozen(stored.requestHeaders)).toBe(true);
  });
});

describe('redaction', () => {
  test('a planted key appears nowhere: not in the entries, the JSON export or the HAR export', () => {
    const key = plantKey();
    const log = new RequestLog();
    log.add(
      entry({
        method: 'POST',
        url: `https://example.com/api/v1/chat?api_key=${key}`,
        // As if a caller forgot to mask: the log must not rely on it.
        requestHeaders: {
          Authorization: `Bearer ${key}`,
          'X-Echo': `k=${key}`,
          'content-type': 'application/json',
        },
        requestBody: JSON.stringify({ message: `my key is ${key}, keep it safe` }),
        responseHeaders: { 'content-type': 'application/json', 'x-debug': key },
        responseBody: JSON.stringify({ response: `You said ${key}` }),
        errorCode: `ODD_${key}`,
        requestId: key,
      }),
    );
    const texts = [JSON.stringify(log.list()), log.exportJson(), log.exportHar()];
    for (const text of texts) {
      expect(text).not.toContain(hidden(key));
      expect(text).not.toContain(key.slice(4, 24));
    }
    const [stored] = log.list();
    expect(stored?.requestHeaders.Authorization).toBe(`Bearer ***…${key.slice(-4)}`);
    expect(stored?.url).toBe(`https://example.com/api/v1/chat?api_key=***…${key.slice(-4)}`);
  });

  test('a key cut in half by body truncation still does not leak', () => {
    const key = plantKey();
    const max = 1000;
    const log = new RequestLog({ maxBodyChars: max });
    // The key straddles the cut: truncating first would keep a prefix that no longer looks like a key.
    const body = `${'x'.repeat(max - 20)} ${key} ${'y'.repeat(5000)}`;
    const stored = log.add(entry({ responseBody: body, requestBody: body }));
    for (const text of [stored.responseBody ?? '', log.exportHar()]) {
      expect(text).not.toContain(key.slice(4, 19));
    }
  });
});

describe('body cap', () => {
  test('long bodies are truncated with a marker; the HAR still reports the real sizes', () => {
    const log = new RequestLog({ maxBodyChars: 64 * 1024 });
    const big = 'a'.repeat(1024 * 1024);
    const stored = log.add(
      entry({ method: 'POST', requestBody: big, responseBody: big, responseBytes: big.length }),
    );
    expect(stored.responseBody?.length).toBeLessThan(64 * 1024 + 200);
    expect(stored.responseBody).toMatch(
      /…\[truncated by Agent Console: \d+ of 1048576 characters not kept\]$/,
    );
    const harEntry = JSON.parse(log.exportHar()).log.entries[0];
    expect(harEntry.request.bodySize).toBe(big.length);
    expect(harEntry.response.content.size).toBe(big.length);
  });

  test('a body under the cap is kept as it is', () => {
    const log = new RequestLog();
    const body = '{"message":"hi ✓"}';
    expect(log.add(entry({ requestBody: body })).requestBody).toBe(body);
  });
});

describe('live view', () => {
  test('listeners see each redacted entry and the clear, until they unsubscribe', () => {
    const log = new RequestLog();
    const events: RequestLogEvent[] = [];
    const unsubscribe = log.subscribe((event) => events.push(event));
    const key = plantKey();
    log.add(entry({ responseBody: key }));
    log.clear();
    unsubscribe();
    log.add(entry());
    expect(events.map((e) => e.type)).toEqual(['added', 'cleared']);
    expect(JSON.stringify(events)).not.toContain(hidden(key));
  });

  test('a throwing listener does not stop the entry being logged or other listeners', () => {
    const log = new RequestLog();
    const errorSpy = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const seen = vi.fn();
    log.subscribe(() => {
      throw new Error('view broke');
    });
    log.subscribe(seen);
    log.add(entry());
    expect(log.size).toBe(1);
    expect(seen).toHaveBeenCalledTimes(1);
    expect(errorSpy).toHaveBeenCalled();
    errorSpy.mockRestore();
  });
});

describe('exports', () => {
  test('the JSON export holds the entries, oldest first', () => {
    const log = new RequestLog({ clock: { now: () => Date.UTC(2026, 1, 1) } });
    const a = log.add(entry());
    const b = log.add(entry({ status: 429, errorCode: 'RATE_LIMITED' }));
    const parsed = JSON.parse(log.exportJson());
    expect(parsed).toMatchObject({ format: 'agent-console-request-log', version: 1 });
    expect(parsed.exportedAt).toBe('2026-02-01T00:00:00.000Z');
    expect(parsed.entries).toEqual([a, b]);
  });

  // The fields HAR 1.2 requires (http://www.softwareishard.com/blog/har-12-spec/).
  const nameValue = z.object({ name: z.string(), value: z.string() }).strict();
  const HarEntry = z.object({
    startedDateTime: z.iso.datetime({ offset: true }),
    time: z.number().nonnegative(),
    request: z.object({
      method: z.string().min(1),
      url: z.string().min(1),
      httpVersion: z.string(),
      cookies: z.array(z.object({ name: z.string(), value: z.string() })),
      headers: z.array(nameValue),
      queryString: z.array(nameValue),
      postData: z.object({ mimeType: z.string(), text: z.string() }).optional(),
      headersSize: z.number().int(),
      bodySize: z.number().int(),
    }),
    response: z.object({
      status: z.number().int().nonnegative(),
      statusText: z.string(),
      httpVersion: z.string(),
      cookies: z.array(z.object({ name: z.string(), value: z.string() })),
      headers: z.array(nameValue),
      content: z.object({ size: z.number().int(), mimeType: z.string(), text: z.string().optional() }),
      redirectURL: z.string(),
      headersSize: z.number().int(),
      bodySize: z.number().int(),
    }),
    cache: z.object({}),
    timings: z.object({ send: z.number().min(0), wait: z.number().min(0), receive: z.number().min(0) }),
  });
  const Har = z.object({
    log: z.object({
      version: z.literal('1.2'),
      creator: z.object({ name: z.string(), version: z.string() }),
      entries: z.array(HarEntry),
    }),
  });

  test('the HAR export is a valid HAR 1.2 document, failures included', () => {
    const log = new RequestLog({ appVersion: '0.1.0' });
    log.add(entry());
    log.add(
      entry({
        method: 'POST',
        url: 'https://127.0.0.1:8443/api/v1/chat',
        requestHeaders: { authorization: 'Bearer ***', 'content-type': 'application/json' },
        requestBody: '{"message":"hi","stream":true}',
        responseHeaders: { 'content-type': 'text/event-stream' },
        responseBody: 'data: {"chunk":"hi"}\n\ndata: [DONE]\n\n',
        streamed: true,
      }),
    );
    log.add(
      entry({
        status: 0,
        responseHeaders: {},
        responseBody: undefined,
        responseBytes: 0,
        errorCode: 'NETWORK',
        durationMs: 7.5,
      }),
    );
    const har = Har.parse(JSON.parse(log.exportHar()));
    expect(har.log.creator).toEqual({ name: 'Agent Console', version: '0.1.0' });
    const [get, post, failed] = har.log.entries;
    expect(get?.request.queryString).toEqual([
      { name: 'limit', value: '5' },
      { name: 'offset', value: '0' },
    ]);
    expect(get?.request.postData).toBeUndefined();
    expect(get?.response.statusText).toBe('OK');
    expect(post?.request.postData).toEqual({
      mimeType: 'application/json',
      text: '{"message":"hi","stream":true}',
    });
    expect(post?.response.content.mimeType).toBe('text/event-stream');
    expect(failed?.response).toMatchObject({ status: 0, statusText: '', httpVersion: '' });
    for (const e of har.log.entries) {
      // HAR: `time` is the sum of the timings that are not -1.
      expect(e.time).toBe(e.timings.send + e.timings.wait + e.timings.receive);
    }
  });

  test('an empty log exports a valid, empty HAR', () => {
    const har = Har.parse(JSON.parse(new RequestLog().exportHar()));
    expect(har.log.entries).toEqual([]);
  });
});

describe('searching bodies', () => {
  test('finds the entries whose request or response body holds the text, case-insensitive, in a full log', () => {
    const log = new RequestLog({ capacity: 5000 });
    for (let i = 0; i < 5000; i++)
      log.add(
        entry({ id: `e${i}`, requestBody: `{"message":"hello ${i}"}`, responseBody: `{"reply":"ok"}` }),
      );
    log.add(entry({ id: 'asked', requestBody: '{"message":"Where is order ORD-4711?"}' }));
    log.add(entry({ id: 'told', responseBody: '{"reply":"ord-4711 ships today (a+b)"}' }));
    const started = performance.now();
    expect(log.searchBodies(' ORD-4711 ')).toEqual(['asked', 'told']);
    expect(performance.now() - started).toBeLessThan(200);
    // The text as typed, not a pattern.
    expect(log.searchBodies('(a+b)')).toEqual(['told']);
    expect(log.searchBodies('')).toEqual([]);
  });
});
