// What the mock's fuzz test (property.test.ts) sends as bodies: strings of every kind of Unicode
// (lone surrogates, combining marks, exactly the size limit and around it), fields that are
// present, absent or of the wrong type, unknown fields, broken JSON, and the content types around
// application/json.
import fc from 'fast-check';
import { MAX_MESSAGE_BYTES, utf8Bytes } from '../../shared/api';

const loneSurrogate = fc.integer({ min: 0xd800, max: 0xdfff }).map((c) => String.fromCharCode(c));
/** Any code point, emoji and combining marks, and lone surrogate halves. */
const unicodeUnit = fc.oneof(
  { weight: 4, arbitrary: fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'grapheme', minLength: 1, maxLength: 1 }) },
  { weight: 1, arbitrary: fc.constantFrom('😀', '👩‍👩‍👧', '🇫🇷', 'e\u0301', '\u0000', '\u2028', '"', '\\', '\n') },
  { weight: 1, arbitrary: loneSurrogate },
);
export const unicodeString = (maxLength: number) => fc.string({ unit: unicodeUnit, maxLength });

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

/**
 * The JSON bodies of a chat, a new thread and an appended message, mostly well-formed; an agent
 * written `id:<slug>` is sent as that agent's agent_id, which `agentIdOf` knows once the mock is up.
 */
export function requestBodies(agentIdOf: (slug: string) => string | undefined) {
  /** `id:<slug>` stands for that agent's agent_id, resolved when the request is built. */
  const resolveAgentRef = (value: unknown): unknown => {
    if (typeof value !== 'string' || !value.startsWith('id:')) return value;
    return agentIdOf(value.slice(3)) ?? value;
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

  return {
    chat: bodyFrom(chatObject),
    createThread: bodyFrom(createThreadObject),
    append: bodyFrom(appendObject),
  };
}

export const contentType = fc.oneof(
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
