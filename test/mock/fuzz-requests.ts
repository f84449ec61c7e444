// What the mock's fuzz test (property.test.ts) throws at it: a request to each endpoint, usually
// with its own method, sometimes another; odd paths and thread ids, queries, keys and headers; and
// bodies from fuzz-bodies.ts. Each request also picks the error shape the mock answers in.
import fc from 'fast-check';
import type { ErrorShape } from '../../mock/errors';
import { DEMO_KEY_NAMES } from '../../mock/seed';
import { contentType, requestBodies, unicodeString } from './fuzz-bodies';

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'OPTIONS';
/** Who the request claims to be. `usable` says whether a 2xx is possible at all (undefined: either). */
export type Auth =
  | { kind: 'key'; name: 'fuzz' | 'tier30' | 'pro' | 'ultra' | 'free' | 'revoked' }
  | { kind: 'none' }
  | { kind: 'secret'; secret: string }
  | { kind: 'header'; value: string; usable: boolean | undefined };

export type ThreadRef =
  { kind: 'real'; index: number; encodeAll: boolean } | { kind: 'raw'; segment: string };

export interface FuzzRequest {
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

/** Percent-encodes the UTF-8 of `text` (lone surrogates become U+FFFD, as on the wire). */
export const pct = (text: string, all = false): string =>
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

/** A request to any endpoint, or to none; `agentIdOf` as for requestBodies. */
export function fuzzRequests(agentIdOf: (slug: string) => string | undefined): fc.Arbitrary<FuzzRequest> {
  const bodies = requestBodies(agentIdOf);
  const noBody = fc.oneof(
    { weight: 8, arbitrary: fc.constant(undefined) },
    { weight: 1, arbitrary: bodies.chat },
  );
  return fc.oneof(
    { weight: 5, arbitrary: requestTo('POST', at('/api/v1/chat'), [], bodies.chat) },
    { weight: 1, arbitrary: requestTo('GET', at('/api/v1/agents'), ['limit', 'offset'], noBody) },
    {
      weight: 1,
      arbitrary: requestTo('GET', at('/api/v1/conversations'), ['agent', 'limit', 'offset'], noBody),
    },
    { weight: 1, arbitrary: requestTo('GET', at('/api/v1/threads'), [], noBody) },
    { weight: 2, arbitrary: requestTo('POST', at('/api/v1/threads'), [], bodies.createThread) },
    {
      weight: 3,
      arbitrary: requestTo(
        'POST',
        threadRef.map((thread) => ({ thread })),
        [],
        bodies.append,
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
}
