// A HAR file read into the request log: the log's own export comes back as the same entries,
// a browser's devtools HAR is read too, and a hostile file is refused in words or read with every
// credential gone.
import { describe, expect, test } from 'vitest';
import { readHar } from '../../electron/core/har-import';
import { RequestLog } from '../../electron/core/request-log';
import { MAX_HAR_CHARS } from '../../shared/bridge/log';
import type { RequestLogEntry } from '../../shared/request-log-entry';

const KEY = 'ams_Q7wE2rT9yU4iO1pA6sD3fG8hJ5kL0zX2';
const pieces = (text: string): string[] => {
  const found: string[] = [];
  for (let i = 0; i + 12 <= KEY.length; i++)
    if (text.includes(KEY.slice(i, i + 12))) found.push(KEY.slice(i, i + 12));
  return found;
};

function liveEntry(overrides: Partial<RequestLogEntry>): RequestLogEntry {
  return {
    id: 'live-1',
    startedAt: Date.UTC(2026, 10, 28, 6, 0, 0, 123),
    durationMs: 87.5,
    profileId: 'embedded-mock',
    keyId: 'key-1',
    method: 'POST',
    url: 'https://127.0.0.1:8443/api/v1/chat',
    requestHeaders: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
    requestBody: '{"message":"hello","agent":"echo","stream":true}',
    status: 200,
    responseHeaders: { 'content-type': 'text/event-stream', 'x-request-id': 'req_1' },
    responseBody: 'data: {"content":"Echo: "}\n\ndata: {"content":"hello"}\n\ndata: [DONE]\n\n',
    responseBytes: 71,
    requestId: 'req_1',
    rate: { limit: 60, remaining: 58, reset: 1_795_000_000 },
    streamed: true,
    ...overrides,
  };
}

/** What a round trip must keep: everything HAR carries of an entry. */
const carried = (e: RequestLogEntry) => ({
  method: e.method,
  url: e.url,
  status: e.status,
  startedAt: e.startedAt,
  durationMs: e.durationMs,
  requestBody: e.requestBody,
  responseBody: e.responseBody,
  responseBytes: e.responseBytes,
  requestId: e.requestId,
  errorCode: e.errorCode,
  rate: e.rate,
  streamed: e.streamed,
  responseHeaders: e.responseHeaders,
});

describe('the log’s own HAR export', () => {
  test('comes back as the same entries, marked as imported from the file', () => {
    const source = new RequestLog();
    source.add(liveEntry({}));
    source.add(
      liveEntry({
        id: 'live-2',
        method: 'GET',
        url: 'https://127.0.0.1:8443/api/v1/agents?limit=20&offset=0',
        requestBody: undefined,
        responseHeaders: { 'content-type': 'application/json' },
        responseBody: '{"agents":[],"total":0,"has_more":false}',
        streamed: false,
        rate: {},
      }),
    );
    source.add(
      liveEntry({
        id: 'live-3',
        status: 0,
        errorCode: 'NETWORK',
        responseBody: undefined,
        responseHeaders: {},
      }),
    );
    const { text } = source.exportFile('har');

    const target = new RequestLog();
    expect(target.importHar('session.har', text)).toEqual({ imported: 3, skipped: 0 });
    const imported = target.list();
    expect(imported.map(carried)).toEqual(source.list().map(carried));
    expect(imported.every((e) => e.imported === 'session.har' && e.id.startsWith('imported-'))).toBe(true);
    // The Authorization header is gone, not only masked.
    expect(imported[0]?.requestHeaders).toEqual({ 'content-type': 'application/json' });
  });
});

describe('a browser’s devtools HAR', () => {
  test('is read: base64 content decoded, pseudo-headers and cookies dropped, stream told by its type', () => {
    const har = {
      log: {
        version: '1.2',
        creator: { name: 'WebInspector', version: '537.36' },
        entries: [
          {
            startedDateTime: '2026-11-28T06:00:00.000Z',
            time: 120,
            request: {
              method: 'post',
              url: 'https://agents.example.com/api/v1/chat',
              headers: [
                { name: ':authority', value: 'agents.example.com' },
                { name: 'Cookie', value: 'sid=abc123456789' },
                { name: 'Accept', value: 'text/event-stream' },
              ],
              cookies: [{ name: 'sid', value: 'abc123456789' }],
              postData: { mimeType: 'application/json', text: '{"message":"hi"}' },
            },
            response: {
              status: 200,
              headers: [{ name: 'Content-Type', value: 'text/event-stream' }],
              content: {
                size: 20,
                mimeType: 'text/event-stream',
                text: btoa('data: {"content":"hi"}\n\n'),
                encoding: 'base64',
              },
            },
            timings: { send: 1, wait: 100, receive: 19 },
          },
        ],
      },
    };
    const [exchange] = readHar(JSON.stringify(har)).exchanges;
    expect(exchange).toMatchObject({
      method: 'POST',
      requestHeaders: { Accept: 'text/event-stream' },
      responseBody: 'data: {"content":"hi"}\n\n',
      streamed: true,
      durationMs: 120,
    });
    expect(JSON.stringify(exchange)).not.toContain('abc123456789');
  });
});

describe('a hostile HAR', () => {
  test('not JSON, or JSON of another shape, is refused in words', () => {
    expect(() => readHar('<html>')).toThrow('The file is not JSON, so it is not a HAR file.');
    expect(() => readHar('{"entries":[]}')).toThrow('it has no log.entries list');
    expect(() => readHar(JSON.stringify({ log: { entries: new Array(5_001).fill({}) } }))).toThrow(
      'more than 5,000 requests',
    );
  });

  test('entries that are not requests are skipped and counted, the rest read', () => {
    const good = JSON.parse(new RequestLogWithOne().exportFile('har').text).log.entries[0];
    const reading = readHar(
      JSON.stringify({
        log: { entries: [good, { request: 'x' }, { ...good, startedDateTime: 'yesterday' }] },
      }),
    );
    expect(reading).toMatchObject({
      skipped: 2,
      firstProblem: expect.stringMatching(/^Entry 2 is not a request/),
    });
    expect(reading.exchanges).toHaveLength(1);
  });

  test('over the size bound is refused before it is parsed', () => {
    expect(() => readHar(' '.repeat(MAX_HAR_CHARS + 1))).toThrow(
      expect.objectContaining({ code: 'HAR_TOO_LARGE', message: expect.stringMatching(/over 10 MB/) }),
    );
  });

  test('a key in headers, query, body, cookies, ids or the URL reaches no entry of the log', () => {
    const har = {
      log: {
        entries: [
          {
            startedDateTime: '2026-11-28T06:00:00.000Z',
            time: 5,
            request: {
              method: 'POST',
              url: `https://me:${KEY}@agents.example.com/api/v1/chat?api_key=short-secret-1&token=${KEY}&limit=5`,
              headers: [
                { name: 'Authorization', value: 'Bearer some-opaque-token-123' },
                { name: 'X-Api-Key', value: 'another-opaque-token' },
                { name: 'Cookie', value: `session=${KEY}` },
                { name: 'X-Trace', value: KEY },
              ],
              cookies: [{ name: 'session', value: KEY }],
              postData: { text: `{"message":"my key is ${KEY}"}` },
            },
            response: {
              status: 200,
              headers: [{ name: 'Set-Cookie', value: `s=${KEY}` }],
              content: { text: `{"response":"${KEY.replace('_', '\\u005f')}"}` },
            },
            _requestId: `req_${KEY}`,
          },
        ],
      },
    };
    const log = new RequestLog();
    log.importHar(`${KEY}.har`, JSON.stringify(har));
    const everything = JSON.stringify(log.list()) + log.exportJson() + log.exportHar();
    expect(pieces(everything)).toEqual([]);
    for (const secret of ['some-opaque-token-123', 'another-opaque-token', 'short-secret-1']) {
      expect(everything).not.toContain(secret);
    }
    expect(log.list()[0]?.url).toBe(
      'https://***@agents.example.com/api/v1/chat?api_key=***&token=***&limit=5',
    );
  });

  test('control characters in bodies are kept as text, never interpreted', () => {
    const body = 'data: {"content":"\\u001b]0;pwned\\u0007"}\n\n\u001b[2J';
    const har = {
      log: {
        entries: [
          {
            startedDateTime: '2026-11-28T06:00:00Z',
            request: { method: 'GET', url: 'https://a/' },
            response: { status: 200, content: { text: body } },
          },
        ],
      },
    };
    expect(readHar(JSON.stringify(har)).exchanges[0]?.responseBody).toBe(body);
  });
});

class RequestLogWithOne extends RequestLog {
  constructor() {
    super();
    this.add(liveEntry({}));
  }
}
