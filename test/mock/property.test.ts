// Throws random requests at every endpoint of the mock (real HTTPS, real undici client) and checks
// that every reply is well-formed: 2xx or 4xx (a 502 only from the agents that are meant to fail),
// never a dropped connection, and a body in the spec's shapes (SERVICE-SPEC.md §4, §6, §7).
import fc from 'fast-check';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { z } from 'zod';
import {
  AgentList,
  ChatReply,
  ConversationList,
  HealthReport,
  MAX_MESSAGE_BYTES,
  StreamEvent,
  ThreadCreated,
  ThreadList,
  ThreadMessageReply,
  UsageReport,
  utf8Bytes,
} from '../../shared/api';
import { ManualClock } from '../../shared/clock';
import type { ErrorShape } from '../../mock/errors';
import { DEMO_KEY_NAMES } from '../../mock/seed';
import { removeDir, startTestMock, type TestMock } from '../support/mock';

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'OPTIONS';
type Kind =
  | 'chat'
  | 'agents'
  | 'conversations'
  | 'threads'
  | 'createThread'
  | 'append'
  | 'usage'
  | 'health'
  | 'unknown';

/** Who the request claims to be. `usable` says whether a 2xx is possible at all (undefined: either). */
type Auth =
  | { kind: 'key'; name: 'fuzz' | 'tier30' | 'pro' | 'ultra' | 'free' | 'revoked' }
  | { kind: 'none' }
  | { kind: 'secret'; secret: string }
  | { kind: 'header'; value: string; usable: boolean | undefined };

type ThreadRef = { kind: 'real'; index: number; encodeAll: boolean } | { kind: 'raw'; segment: string };

interface FuzzRequest {
  method: Method;
  /** Path without query, or a thread reference resolved when the request is sent. */
  target: { path: string } | { thread: ThreadRef };
  query: string;
  auth: Auth;
  contentType: string | undefined;
  body: string | undefined;
  headers: Record<string, string>;
  errorShape: ErrorShape;
}

/** FUZZ_RUNS=5000 for a longer hunt; the suite runs 500. */
const RUNS = Number(process.env.FUZZ_RUNS ?? 500);
/** 500 runs × 120 ms = one minute of mock time: the tier-300 key stays under its limit, tier 30 does not. */
const STEP_MS = 120;
const FAILING_AGENTS = new Set(['glitch', 'ledger-bot']);
const TIER: Record<string, number> = { fuzz: 300, tier30: 30, pro: 60, ultra: 60 };

const clock = new ManualClock();
let mock: TestMock;
let fuzzSecret = '';
const agentIds = new Map<string, string>(); // agent_id → slug
const seen = new Map<string, number>();
const count = (label: string): void => {
  seen.set(label, (seen.get(label) ?? 0) + 1);
};

beforeAll(async () => {
  mock = await startTestMock({ clock });
  for (const agent of mock.server.control.state().agents) {
    mock.server.control.setAgent(agent.slug, { latencyMs: 0, chunkDelayMs: 0 });
  }
  for (const agent of mock.server.service.state.agents) agentIds.set(agent.agent_id, agent.slug);
  fuzzSecret = mock.server.control.createKey({ name: 'fuzz', tier: 300 }).secret;
});

afterAll(async () => {
  await mock.stop();
  removeDir(mock.dataDir);
});

// ---- arbitraries --------------------------------------------------------------------------------

const loneSurrogate = fc.integer({ min: 0xd800, max: 0xdfff }).map((c) => String.fromCharCode(c));
/** Any code point, emoji and combining marks, and lone surrogate halves. */
const unicodeUnit = fc.oneof(
  { weight: 4, arbitrary: fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'grapheme', minLength: 1, maxLength: 1 }) },
  { weight: 1, arbitrary: fc.constantFrom('😀', '👩‍👩‍👧', '🇫🇷', 'e\u0301', '\u0000', '\u2028', '"', '\\', '\n') },
  { weight: 1, arbitrary: loneSurrogate },
);
const unicodeString = (maxLength: number) => fc.string({ unit: unicodeUnit, maxLength });

/** A string of exactly `bytes` UTF-8 bytes (as the mock counts them) built from one repeated unit. */
const sizedString = fc
  .record({
    bytes: fc.oneof(
      fc.integer({ min: MAX_MESSAGE_BYTES - 4, max: MAX_MESSAGE_BYTES + 4 }),
      fc.integer({ min: MAX_MESSAGE_BYTES - 2000, max: MAX_MESSAGE_BYTES + 2000 }),
    ),
    unit: fc.constantFrom('a', 'é', '€', '😀', '\ud800'),
  })
  .map(({ bytes, unit }) => {
    const size = utf8Bytes(unit);
    return unit.repeat(Math.floor(bytes / size)) + 'a'.repeat(bytes % size);
  });

/** JSON values of the wrong type for a field. */
const wrongType = fc.oneof(
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.string({ maxLength: 3 }), { maxLength: 2 }),
  fc.dictionary(fc.string({ maxLength: 4 }), fc.string({ maxLength: 4 }), { maxKeys: 2 }),
);

/** A field: usually a good value, sometimes absent or of the wrong type. */
const field = <T>(good: fc.Arbitrary<T>, absent = 1, wrong = 1) =>
  fc.oneof(
    { weight: 12, arbitrary: good },
    { weight: absent, arbitrary: fc.constant(undefined) },
    { weight: wrong, arbitrary: wrongType },
  );

const message = fc.oneof(
  { weight: 10, arbitrary: fc.string({ minLength: 1, maxLength: 40 }) },
  { weight: 4, arbitrary: unicodeString(60) },
  { weight: 1, arbitrary: fc.constantFrom('', ' ', '\n', '\ud800', '\udfff\ud800') },
  { weight: 2, arbitrary: sizedString },
  { weight: 1, arbitrary: fc.constant('x'.repeat(1_100_000)) },
);

const agentRef = fc.oneof(
  { weight: 8, arbitrary: fc.constantFrom(undefined, 'echo', 'helpdesk', 'storyteller', 'slowpoke') },
  { weight: 2, arbitrary: fc.constantFrom('glitch', 'ledger-bot', 'archivist', 'nope', 'ECHO', '') },
  {
    weight: 1,
    arbitrary: fc.constantFrom(' ', '../echo', '__proto__', 'constructor', 'toString', 'echo\u0000'),
  },
  {
    weight: 2,
    arbitrary: fc.constantFrom('id:echo', 'id:helpdesk', 'id:glitch', 'id:ledger-bot', 'id:archivist'),
  },
  { weight: 1, arbitrary: unicodeString(20) },
);

const sessionId = fc.oneof(
  { weight: 6, arbitrary: fc.stringMatching(/^[A-Za-z0-9]{1,128}$/) },
  { weight: 1, arbitrary: fc.constantFrom('a'.repeat(128), 'a'.repeat(129), '', 'a b', 'ab-c', 'é', '😀') },
  { weight: 1, arbitrary: unicodeString(10) },
);

const fieldName = fc.oneof(
  fc.constantFrom('foo', 'Message', 'messages', 'model', 'temperature', '__proto__', 'constructor', ''),
  fc.string({ maxLength: 8 }),
);
const unknownFields = fc.oneof(
  { weight: 8, arbitrary: fc.constant({}) },
  {
    weight: 1,
    arbitrary: fc.dictionary(fieldName, fc.jsonValue({ maxDepth: 2 }), { minKeys: 1, maxKeys: 2 }),
  },
);

/** `id:<slug>` stands for that agent's agent_id, resolved when the request is built. */
const resolveAgentRef = (value: unknown): unknown => {
  if (typeof value !== 'string' || !value.startsWith('id:')) return value;
  const slug = value.slice(3);
  return [...agentIds].find(([, s]) => s === slug)?.[0] ?? value;
};

const objectOf = (fields: Record<string, unknown>, extra: object): Record<string, unknown> => {
  const out: Record<string, unknown> = { ...extra };
  for (const [name, value] of Object.entries(fields)) {
    if (value !== undefined) out[name] = resolveAgentRef(value);
  }
  return out;
};

const chatObject = fc
  .record({
    fields: fc.record({
      message: field(message, 1, 1),
      agent: field(agentRef, 4, 1),
      session_id: field(sessionId, 10, 1),
      stream: field(fc.constantFrom(true, true, false), 3, 1),
    }),
    extra: unknownFields,
  })
  .map(({ fields, extra }) => objectOf(fields, extra));

const createThreadObject = fc
  .record({
    fields: fc.record({
      title: field(
        fc.oneof(
          { weight: 6, arbitrary: unicodeString(30) },
          { weight: 1, arbitrary: fc.constantFrom('', '   ', 'a'.repeat(200), 'a'.repeat(201)) },
        ),
        4,
        1,
      ),
      agent: field(agentRef, 4, 1),
      message: field(message, 1, 1),
    }),
    extra: unknownFields,
  })
  .map(({ fields, extra }) => objectOf(fields, extra));

const appendObject = fc
  .record({ fields: fc.record({ message: field(message, 1, 1) }), extra: unknownFields })
  .map(({ fields, extra }) => objectOf(fields, extra));

/** A request body: mostly the JSON of `object`, sometimes something else entirely. */
const bodyFrom = (object: fc.Arbitrary<Record<string, unknown>>) =>
  fc.oneof(
    { weight: 16, arbitrary: object.map((o) => JSON.stringify(o)) },
    { weight: 1, arbitrary: object.map((o) => JSON.stringify(o, null, 2)) },
    {
      weight: 1,
      arbitrary: fc
        .tuple(object, fc.nat())
        .map(([o, n]) => JSON.stringify(o).slice(0, n % Math.max(1, JSON.stringify(o).length))),
    },
    { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 2 }).map((v) => JSON.stringify(v)) },
    { weight: 1, arbitrary: unicodeString(40) },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        undefined,
        '',
        ' ',
        'null',
        '{}',
        '[]',
        'message=hi',
        '{"message":"hi",}',
        '{"message":"hi"}{"message":"again"}',
        '{"message":"hi","__proto__":{"polluted":true}}',
        '{"message":"hi","constructor":{"prototype":{"polluted":true}}}',
        '{"message":"\\ud800"}',
        '\ufeff{"message":"hi"}',
      ),
    },
  );

const contentType = fc.oneof(
  { weight: 12, arbitrary: fc.constant('application/json') },
  {
    weight: 3,
    arbitrary: fc.constantFrom(
      'application/json; charset=utf-8',
      'application/json;charset=UTF-8',
      'application/json; charset=utf-16',
    ),
  },
  {
    weight: 3,
    arbitrary: fc.constantFrom(
      undefined,
      'text/plain',
      'text/plain; charset=utf-8',
      'APPLICATION/JSON',
      'application/vnd.api+json',
      'application/x-www-form-urlencoded',
      'application/octet-stream',
      'multipart/form-data; boundary=x',
      'application/json;;;',
      '',
    ),
  },
);

/** Percent-encodes the UTF-8 of `text` (lone surrogates become U+FFFD, as on the wire). */
const pct = (text: string, all = false): string =>
  [...Buffer.from(text, 'utf8')]
    .map((b) => {
      const c = String.fromCharCode(b);
      return !all && /[A-Za-z0-9\-._~]/.test(c) ? c : `%${b.toString(16).toUpperCase().padStart(2, '0')}`;
    })
    .join('');

const oddSegment = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.constantFrom(
      '..',
      '.',
      '%2e%2e',
      '%2E',
      '%00',
      'thr_%00',
      '%2F',
      'a%2Fb',
      '%25',
      '%',
      '%zz',
      '%E0%A4%A',
      '%C0%AF',
      '%FF',
      '%ED%A0%80',
      '~',
      '%20',
      '+',
      ';',
      ':',
      '@',
      "'",
      'null',
      '__proto__',
      'constructor',
      'thr_',
    ),
  },
  { weight: 4, arbitrary: unicodeString(30).map((s) => pct(s)) },
  { weight: 1, arbitrary: fc.integer({ min: 900, max: 4000 }).map((n) => 'x'.repeat(n)) },
  { weight: 1, arbitrary: fc.constant('y'.repeat(20_000)) },
);

const threadRef: fc.Arbitrary<ThreadRef> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.record({ kind: fc.constant('real'), index: fc.nat(), encodeAll: fc.boolean() }),
  },
  { weight: 2, arbitrary: oddSegment.map((segment) => ({ kind: 'raw' as const, segment })) },
);

const queryValue = fc.oneof(
  fc.constantFrom('1', '2', '20', '90', '100'),
  fc.constantFrom('0', '91', '101', '-1', '1.5', '1e2', 'abc', '', ' 5', '0x10', '٣', '9999999999999999'),
  fc.constantFrom('99999999999999999999', 'echo', 'helpdesk', 'nope'),
  unicodeString(8),
);
const queryName = (allowed: readonly string[]) =>
  fc.oneof(
    { weight: 6, arbitrary: allowed.length > 0 ? fc.constantFrom(...allowed) : fc.constant('x') },
    {
      weight: 1,
      arbitrary: fc.constantFrom('page', 'LIMIT', 'limit[]', 'limit[a]', '__proto__', 'constructor', ''),
    },
    { weight: 1, arbitrary: unicodeString(6) },
  );
/** Mostly no query; otherwise pairs (names may repeat), percent-encoded, raw, or bare. */
const query = (allowed: readonly string[]) =>
  fc.oneof(
    { weight: allowed.length > 0 ? 3 : 8, arbitrary: fc.constant('') },
    {
      weight: 3,
      arbitrary: fc
        .array(
          fc.tuple(queryName(allowed), queryValue, fc.constantFrom('enc', 'enc', 'enc', 'raw', 'bare')),
          { minLength: 1, maxLength: 4 },
        )
        .map(
          (pairs) =>
            '?' +
            pairs
              .map(([n, v, mode]) =>
                mode === 'bare'
                  ? pct(n)
                  : mode === 'raw'
                    ? `${pct(n)}=${v.replace(/[#&\s]/g, '')}`
                    : `${pct(n)}=${pct(v)}`,
              )
              .join('&'),
        ),
    },
    {
      weight: 1,
      arbitrary: fc.constantFrom('?', '??', '?&&', '?=', '?limit', '?%zz=1', '?limit=%zz', '?a=1&a=2&a=3'),
    },
  );

const auth: fc.Arbitrary<Auth> = fc.oneof(
  { weight: 14, arbitrary: fc.constant({ kind: 'key' as const, name: 'fuzz' as const }) },
  { weight: 3, arbitrary: fc.constant({ kind: 'key' as const, name: 'tier30' as const }) },
  {
    weight: 1,
    arbitrary: fc
      .constantFrom('pro' as const, 'ultra' as const)
      .map((name) => ({ kind: 'key' as const, name })),
  },
  {
    weight: 1,
    arbitrary: fc
      .constantFrom('free' as const, 'revoked' as const)
      .map((name) => ({ kind: 'key' as const, name })),
  },
  { weight: 1, arbitrary: fc.constant({ kind: 'none' as const }) },
  {
    weight: 1,
    arbitrary: fc
      .oneof(
        fc.stringMatching(/^ams_[A-Za-z0-9]{32}$/),
        fc.stringMatching(/^[A-Za-z0-9]{3}_[A-Za-z0-9]{32}$/),
        fc
          .string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 60 })
          // Not a demo key name: the test helper would send that key's real secret.
          .filter((s) => s.trim() === s && s !== '' && !(DEMO_KEY_NAMES as readonly string[]).includes(s)),
      )
      .map((secret) => ({ kind: 'secret' as const, secret })),
  },
  {
    weight: 1,
    arbitrary: fc.oneof(
      fc
        .constantFrom(
          'Bearer',
          'Bearer <fuzz>x',
          'Bearer <fuzz> <fuzz>',
          'Bearer  <fuzz>',
          'Basic dXNlcjpwYXNz',
          'Token <fuzz>',
          `Bearer ${'a'.repeat(5000)}`,
          'Bearer ams_',
        )
        .map((value) => ({ kind: 'header' as const, value, usable: false })),
      fc
        .constantFrom('bearer <fuzz>', 'BEARER <fuzz>')
        .map((value) => ({ kind: 'header' as const, value, usable: undefined })),
    ),
  },
);

const headerName = fc.oneof(
  fc.constantFrom(
    'accept',
    'accept-encoding',
    'accept-language',
    'accept-version',
    'x-request-id',
    'x-forwarded-for',
    'user-agent',
    'origin',
    'cookie',
    'if-none-match',
    'range',
    'x-http-method-override',
    'content-encoding',
    'content-language',
  ),
  fc.stringMatching(/^x-[a-z0-9-]{1,20}$/),
);
const headerValue = fc.oneof(
  fc.constantFrom('*/*', 'text/event-stream', 'gzip, br', '1.x', 'DELETE', 'bytes=0-10', 'null'),
  fc.string({ unit: 'grapheme-ascii', maxLength: 40 }),
);
const extraHeaders = fc.oneof(
  { weight: 4, arbitrary: fc.constant({}) },
  { weight: 1, arbitrary: fc.dictionary(headerName, headerValue, { maxKeys: 3 }) },
);

const errorShape = fc.constantFrom<ErrorShape>('nested', 'nested', 'flat', 'flat-429');
const otherMethod = fc.constantFrom<Method>('GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS');

/** A request to one endpoint: usually its own method, sometimes another. */
const requestTo = (
  method: Method,
  target: fc.Arbitrary<FuzzRequest['target']>,
  allowedQuery: readonly string[],
  body: fc.Arbitrary<string | undefined>,
): fc.Arbitrary<FuzzRequest> =>
  fc.record({
    method: fc.oneof({ weight: 12, arbitrary: fc.constant(method) }, { weight: 1, arbitrary: otherMethod }),
    target,
    query: query(allowedQuery),
    auth,
    contentType: method === 'POST' ? contentType : fc.oneof(fc.constant(undefined), contentType),
    body,
    headers: extraHeaders,
    errorShape,
  });

const noBody = fc.oneof(
  { weight: 8, arbitrary: fc.constant(undefined) },
  { weight: 1, arbitrary: bodyFrom(chatObject) },
);
const at = (path: string) => fc.constant({ path });

const unknownPath = fc
  .oneof(
    fc.constantFrom(
      '/',
      '/api',
      '/api/v1',
      '/api/v1/',
      '/api/v2/chat',
      '/api/v1/chat/',
      '/API/V1/HEALTH',
      '/api/v1/models',
      '/api/v1/agents/echo',
      '/api/v1/threads/x',
      '/api/v1/threads//messages',
      '/api/v1//health',
      '/favicon.ico',
      '/api/v1/health/..',
      '/api/v1/%2e%2e/%2e%2e/etc/passwd',
      '/api/v1/threads/abc/messages/extra',
      '/api/v1/usage%00',
      '/api/v1/health%20',
      '/api/v1/chat%2F',
      '/api/v1/%zz',
    ),
    fc.array(oddSegment, { minLength: 1, maxLength: 3 }).map((segs) => `/api/v1/${segs.join('/')}`),
    fc.array(oddSegment, { minLength: 1, maxLength: 3 }).map((segs) => `/${segs.join('/')}`),
  )
  // Never the mock's unauthenticated control surface (mock/control.ts; not part of the API).
  .filter((p) => !new URL(`https://h${p}`).pathname.toLowerCase().startsWith('/__control'));

const fuzzRequest: fc.Arbitrary<FuzzRequest> = fc.oneof(
  { weight: 5, arbitrary: requestTo('POST', at('/api/v1/chat'), [], bodyFrom(chatObject)) },
  { weight: 1, arbitrary: requestTo('GET', at('/api/v1/agents'), ['limit', 'offset'], noBody) },
  {
    weight: 1,
    arbitrary: requestTo('GET', at('/api/v1/conversations'), ['agent', 'limit', 'offset'], noBody),
  },
  { weight: 1, arbitrary: requestTo('GET', at('/api/v1/threads'), [], noBody) },
  { weight: 2, arbitrary: requestTo('POST', at('/api/v1/threads'), [], bodyFrom(createThreadObject)) },
  {
    weight: 3,
    arbitrary: requestTo(
      'POST',
      threadRef.map((thread) => ({ thread })),
      [],
      bodyFrom(appendObject),
    ),
  },
  { weight: 1, arbitrary: requestTo('GET', at('/api/v1/usage'), ['days'], noBody) },
  { weight: 1, arbitrary: requestTo('GET', at('/api/v1/health'), [], noBody) },
  {
    weight: 2,
    arbitrary: requestTo(
      'GET',
      unknownPath.map((path) => ({ path })),
      ['limit'],
      noBody,
    ),
  },
);

// ---- checks -------------------------------------------------------------------------------------

const NestedError = z.strictObject({
  error: z.strictObject({
    code: z.string().min(1),
    message: z.string().min(1),
    type: z.string().min(1),
    request_id: z.string().min(1),
  }),
});
const FlatError = z.strictObject({
  error: z.string().min(1),
  code: z.string().min(1),
  status: z.number().int(),
  retry_after: z.number().int().positive().optional(),
});

const SUCCESS: Record<Exclude<Kind, 'chat' | 'unknown'>, z.ZodType> = {
  agents: AgentList,
  conversations: ConversationList,
  threads: ThreadList,
  createThread: ThreadCreated,
  append: ThreadMessageReply,
  usage: UsageReport,
  health: HealthReport,
};

function classify(method: string, pathname: string): Kind {
  const p = pathname;
  if (method === 'POST' && p === '/api/v1/chat') return 'chat';
  if (method === 'GET' && p === '/api/v1/agents') return 'agents';
  if (method === 'GET' && p === '/api/v1/conversations') return 'conversations';
  if (method === 'GET' && p === '/api/v1/threads') return 'threads';
  if (method === 'POST' && p === '/api/v1/threads') return 'createThread';
  if (method === 'POST' && /^\/api\/v1\/threads\/[^/]+\/messages$/.test(p)) return 'append';
  if (method === 'GET' && p === '/api/v1/usage') return 'usage';
  if (method === 'GET' && p === '/api/v1/health') return 'health';
  return 'unknown';
}

/** Checks a `text/event-stream` body (spec §6) and returns the concatenated content. */
function checkStream(text: string): { content: string; failed: boolean } {
  expect(text.endsWith('\n\n'), 'stream ends with a blank line').toBe(true);
  const events = text.slice(0, -2).split('\n\n');
  expect(events.at(-1), 'stream ends with [DONE]').toBe('data: [DONE]');
  let content = '';
  let failed = false;
  for (const [i, event] of events.slice(0, -1).entries()) {
    expect(event.startsWith('data: '), `event ${i} is a data line`).toBe(true);
    expect(event.includes('\n'), `event ${i} is one line`).toBe(false);
    expect(failed, 'nothing but [DONE] follows a stream_error').toBe(false);
    const parsed = StreamEvent.parse(JSON.parse(event.slice('data: '.length)));
    if ('content' in parsed) content += parsed.content;
    else {
      expect(parsed.error.code).toBe('stream_error');
      failed = true;
    }
  }
  return { content, failed };
}

function checkError(
  res: { status: number; headers: Record<string, string>; json: unknown },
  shape: ErrorShape,
): string {
  expect(res.headers['content-type'] ?? '', 'error content type').toMatch(/^application\/json/);
  const flat = shape === 'flat' || (shape === 'flat-429' && res.status === 429);
  if (flat) {
    const body = FlatError.parse(res.json);
    expect(body.status).toBe(res.status);
    expect(body.code).toBe(body.code.toUpperCase());
    if (res.status === 429) {
      expect(body.code).toBe('RATE_LIMITED');
      expect(body.retry_after).toBe(Number(res.headers['retry-after']));
    }
    return body.code;
  }
  const body = NestedError.parse(res.json);
  expect(body.error.request_id).toBe(res.headers['x-request-id']);
  if (res.status === 429) {
    expect(body.error.code).toBe('rate_limited');
    expect(body.error.type).toBe('rate_limit_error');
    expect(body.error.message).toMatch(/\d+ seconds?/);
  }
  return body.error.code.toUpperCase();
}

function resolvesTo(agent: unknown): string | undefined {
  if (agent === undefined) return 'echo'; // the first deployed agent
  if (typeof agent !== 'string') return undefined;
  return agentIds.get(agent) ?? agent;
}

async function send(r: FuzzRequest): Promise<void> {
  await clock.advance(STEP_MS);
  mock.server.control.setFaults({ errorShape: r.errorShape });

  let path: string;
  let realThread: { id: string; agent: string } | undefined;
  if ('path' in r.target) {
    path = r.target.path;
  } else if (r.target.thread.kind === 'real') {
    const threads = mock.server.service.state.threads;
    const t = threads[r.target.thread.index % threads.length];
    if (!t) throw new Error('the seed has threads');
    realThread = { id: t.id, agent: t.agent };
    path = `/api/v1/threads/${r.target.thread.encodeAll ? pct(t.id, true) : t.id}/messages`;
  } else {
    path = `/api/v1/threads/${r.target.thread.segment}/messages`;
  }
  path += r.query;

  const headers: Record<string, string> = { ...r.headers };
  if (r.contentType !== undefined) headers['content-type'] = r.contentType;
  let key: string | null = null;
  let usable: boolean | undefined = false;
  switch (r.auth.kind) {
    case 'key':
      key = r.auth.name === 'fuzz' ? fuzzSecret : r.auth.name;
      usable = r.auth.name in TIER;
      break;
    case 'secret':
      key = r.auth.secret;
      break;
    case 'header':
      headers.authorization = r.auth.value.replaceAll('<fuzz>', fuzzSecret);
      usable = r.auth.usable;
      break;
    case 'none':
      break;
  }

  const res = await mock.call(r.method, path, { key, headers, rawBody: r.body });
  const kind = classify(r.method, new URL(mock.server.baseUrl + path).pathname);
  const parsedBody = ((): Record<string, unknown> | undefined => {
    try {
      // Fastify's JSON parser (secure-json-parse) skips a leading byte-order mark, as JSON allows.
      const v: unknown = r.body === undefined ? undefined : JSON.parse(r.body.replace(/^\ufeff/, ''));
      return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
    } catch {
      return undefined;
    }
  })();
  const failingAgent =
    (kind === 'chat' || kind === 'createThread') && parsedBody
      ? FAILING_AGENTS.has(resolvesTo(parsedBody.agent) ?? '')
      : kind === 'append' && realThread !== undefined && FAILING_AGENTS.has(realThread.agent);

  count(String(res.status));
  expect(res.headers['x-request-id'], 'every reply carries a request id').toMatch(/^req_/);

  if (res.status >= 400) {
    const code = checkError(res, r.errorShape);
    if (res.status >= 500) {
      // Spec §3: an agent in `error` (and the mock's glitch agent) answers 502 AGENT_ERROR; nothing else may 5xx.
      expect({ status: res.status, code, failingAgent }, res.text).toEqual({
        status: 502,
        code: 'AGENT_ERROR',
        failingAgent: true,
      });
    }
    if (res.status === 429) {
      expect(Number(res.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      expect(res.headers['x-ratelimit-remaining']).toBe('0');
    }
    return;
  }

  // A success: only for a real endpoint, a usable key and a JSON body where one is read.
  expect(res.status).toBeGreaterThanOrEqual(200);
  expect(res.status).toBeLessThan(300);
  expect(kind, 'only real endpoints succeed').not.toBe('unknown');
  expect(usable, 'only a usable key succeeds').not.toBe(false);
  expect(res.headers['x-ratelimit-limit']).toMatch(/^\d+$/);
  expect(res.headers['x-ratelimit-remaining']).toMatch(/^\d+$/);
  expect(res.headers['x-ratelimit-reset']).toMatch(/^\d+$/);
  if (r.auth.kind === 'key') expect(Number(res.headers['x-ratelimit-limit'])).toBe(TIER[r.auth.name]);
  count('2xx');

  if (r.method === 'POST') {
    expect(r.contentType ?? '', 'a POST succeeds only with a JSON body').toMatch(/^application\/json/i);
    const msg = parsedBody?.message;
    expect(typeof msg).toBe('string');
    expect((msg as string).length).toBeGreaterThan(0);
    expect(utf8Bytes(msg as string)).toBeLessThanOrEqual(MAX_MESSAGE_BYTES);
  }

  if (kind === 'chat') {
    const agent = resolvesTo(parsedBody?.agent);
    let reply: string;
    if (parsedBody?.stream === true) {
      expect(res.headers['content-type']).toMatch(/^text\/event-stream/);
      const stream = checkStream(res.text);
      expect(stream.failed).toBe(agent === 'glitch');
      reply = stream.content;
      count('stream');
    } else {
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      const body = ChatReply.parse(res.json);
      expect(body.agent).toBe(agent);
      reply = body.response;
    }
    // The echo agent proves the message went through intact (unicode, surrogates, size).
    if (agent === 'echo')
      expect(reply === `Echo: ${String(parsedBody?.message)}`, 'echo is exact').toBe(true);
    return;
  }

  expect(res.headers['content-type']).toMatch(/^application\/json/);
  const body: unknown = SUCCESS[kind as keyof typeof SUCCESS].parse(res.json);
  if (kind === 'createThread') {
    const created = body as z.infer<typeof ThreadCreated>;
    expect(created.thread.message_count).toBe(2);
    expect(created.thread.agent).toBe(resolvesTo(parsedBody?.agent));
    const title = parsedBody?.title;
    expect(typeof title !== 'string' || title.length <= 200).toBe(true);
  }
  if (kind === 'append') {
    expect(realThread, 'only a real thread takes messages').toBeDefined();
    expect((body as z.infer<typeof ThreadMessageReply>).thread_id).toBe(realThread?.id);
  }
}

test('every endpoint answers random requests with a well-formed reply', { timeout: 90_000 }, async () => {
  await fc.assert(fc.asyncProperty(fuzzRequest, send), { numRuns: RUNS });

  // The fuzzing reached past validation, into the rate limit and every class of refusal.
  const n = (label: string): number => seen.get(label) ?? 0;
  expect(n('2xx')).toBeGreaterThanOrEqual(40);
  expect(n('stream')).toBeGreaterThanOrEqual(2);
  expect(n('400')).toBeGreaterThanOrEqual(20);
  expect(n('401')).toBeGreaterThanOrEqual(3);
  expect(n('403')).toBeGreaterThanOrEqual(1);
  expect(n('404')).toBeGreaterThanOrEqual(10);
  expect(n('429')).toBeGreaterThanOrEqual(1);

  // The server is still up and serving normally.
  await clock.advance(61_000);
  const health = await mock.call('GET', '/api/v1/health', { key: fuzzSecret });
  expect(health.status).toBe(200);
  expect(HealthReport.parse(health.json).status).toBe('healthy');
  const agents = await mock.call('GET', '/api/v1/agents?limit=100', { key: 'pro' });
  expect(agents.status).toBe(200);
  expect(AgentList.parse(agents.json).total).toBe(7);
});
