// Properties of the assertion engine over generated replies, chunk timings and outcomes: the
// relations between assertions a suite author relies on (equals implies contains, contains and
// not-contains never agree, a looser bound never fails where a tighter one passed…).
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import {
  charLength,
  evaluate,
  evaluateStep,
  maxGapMs,
  quote,
  type Observation,
} from '../../../electron/core/suites/assertions';
import type { Check } from '../../../shared/suite-run';

const unicode = fc.string({ unit: 'grapheme', maxLength: 60 });

function reply(text: string, extra: Partial<Observation> = {}): Observation {
  return { reply: text, streamed: true, chunkTimesMs: [], completed: true, status: 200, ...extra };
}

/** A check without its line (each kind keeps its own fields). */
type WithoutLine<C> = C extends Check ? Omit<C, 'line'> : never;
type Spec = WithoutLine<Check>;

const pass = (check: Spec, obs: Observation): boolean => evaluate({ line: 1, ...check } as Check, obs).passed;

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

/** Non-decreasing chunk arrival times, as a stream delivers them. */
const chunkTimes = fc
  .array(fc.integer({ min: 0, max: 5_000 }), { maxLength: 40 })
  .map((gaps) => gaps.reduce<number[]>((times, gap) => [...times, (times.at(-1) ?? 0) + gap], []));

describe('reply assertions', () => {
  test('any part of a reply is contained in it; contains and not-contains never agree', () => {
    fc.assert(
      fc.property(unicode, unicode, unicode, unicode, (a, b, c, other) => {
        const obs = reply(a + b + c);
        expect(pass({ kind: 'contains', text: b }, obs)).toBe(true);
        for (const text of [b, other]) {
          expect(pass({ kind: 'contains', text }, obs)).toBe(!pass({ kind: 'not-contains', text }, obs));
        }
      }),
    );
  });

  test('equals implies contains, starts-with and both length bounds at its length', () => {
    fc.assert(
      fc.property(unicode, (text) => {
        const obs = reply(text);
        const length = charLength(text);
        expect(pass({ kind: 'equals', text }, obs)).toBe(true);
        expect(pass({ kind: 'contains', text }, obs)).toBe(true);
        expect(pass({ kind: 'starts-with', text }, obs)).toBe(true);
        expect(pass({ kind: 'max-length', length }, obs)).toBe(true);
        expect(pass({ kind: 'min-length', length }, obs)).toBe(true);
      }),
    );
  });

  test('equals fails for any other text, and says both', () => {
    fc.assert(
      fc.property(unicode, unicode, (text, other) => {
        fc.pre(text !== other);
        const outcome = evaluate({ line: 1, kind: 'equals', text: other }, reply(text));
        expect(outcome.passed).toBe(false);
        expect(outcome.expected).toBe(quote(other));
        expect(outcome.actual).toBe(quote(text));
      }),
    );
  });

  test('a prefix passes starts-with; a regex of an escaped literal matches where contains does', () => {
    fc.assert(
      fc.property(unicode, unicode, unicode, (a, b, c) => {
        const obs = reply(a + b + c);
        expect(pass({ kind: 'starts-with', text: a }, obs)).toBe(true);
        expect(pass({ kind: 'regex', pattern: escapeRegex(b), flags: 'u' }, obs)).toBe(true);
        expect(pass({ kind: 'regex', pattern: `^${escapeRegex(a + b + c)}$`, flags: 'u' }, obs)).toBe(true);
      }),
    );
  });

  test('lengths count characters (code points): max-length and min-length split at the length', () => {
    fc.assert(
      fc.property(unicode, fc.integer({ min: 0, max: 80 }), (text, n) => {
        const length = Array.from(text).length;
        const obs = reply(text);
        expect(pass({ kind: 'max-length', length: n }, obs)).toBe(length <= n);
        expect(pass({ kind: 'min-length', length: n }, obs)).toBe(length >= n);
        // At every n at least one holds, and both only at the exact length.
        expect(
          pass({ kind: 'max-length', length: n }, obs) || pass({ kind: 'min-length', length: n }, obs),
        ).toBe(true);
      }),
    );
  });

  test('any JSON value passes json, bare or in a ```json block inside prose; the prose alone does not', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.string({ maxLength: 30 }), (value, prose) => {
        const json = JSON.stringify(value);
        expect(pass({ kind: 'json' }, reply(json))).toBe(true);
        const wrapped = `Here you are${prose.replaceAll('`', '')}:\n\`\`\`json\n${json}\n\`\`\`\nAnything else?`;
        expect(pass({ kind: 'json' }, reply(wrapped))).toBe(true);
        expect(pass({ kind: 'json' }, reply(`Echo: ${json}`))).toBe(false);
      }),
      // Found by this property: a fence inside the JSON must not close the block.
      {
        examples: [
          [[[{ '```': false }]], ''],
          [{ a: 'x ```json y' }, ''],
        ],
      },
    );
  });

  test('a JSON Schema check passes exactly when the parsed value matches it', () => {
    const schema = { type: 'object', required: ['n'], properties: { n: { type: 'integer', minimum: 0 } } };
    fc.assert(
      fc.property(fc.oneof(fc.integer(), fc.double(), fc.string()), (n) => {
        const valid = typeof n === 'number' && Number.isInteger(n) && n >= 0;
        expect(pass({ kind: 'json', schema }, reply(JSON.stringify({ n })))).toBe(valid);
      }),
    );
  });
});

describe('stream assertions', () => {
  test('the longest gap is never longer than the stream, and inserting a chunk never lengthens it', () => {
    fc.assert(
      fc.property(chunkTimes, fc.nat(), (times, pick) => {
        const gap = maxGapMs(times);
        if (times.length < 2) {
          expect(gap).toBe(0);
          return;
        }
        expect(gap).toBeLessThanOrEqual((times.at(-1) as number) - (times[0] as number));
        const i = 1 + (pick % (times.length - 1));
        const between = ((times[i - 1] as number) + (times[i] as number)) / 2;
        expect(maxGapMs([...times.slice(0, i), between, ...times.slice(i)])).toBeLessThanOrEqual(gap);
      }),
    );
  });

  test('max-gap-ms passes exactly when every pause between consecutive chunks is within it', () => {
    fc.assert(
      fc.property(chunkTimes, fc.integer({ min: 1, max: 6_000 }), (times, ms) => {
        const every = times.every((t, i) => i === 0 || t - (times[i - 1] as number) <= ms);
        expect(pass({ kind: 'max-gap-ms', ms }, reply('x', { chunkTimesMs: times }))).toBe(every);
      }),
    );
  });

  test('time and count bounds are monotonic: a looser bound never fails where a tighter one passed', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 60_000 }),
        fc.integer({ min: 1, max: 60_000 }),
        fc.integer({ min: 0, max: 60_000 }),
        chunkTimes,
        (actual, bound, slack, times) => {
          const obs = reply('x', { ttftMs: actual, totalMs: actual, chunkTimesMs: times });
          for (const kind of ['ttft-ms', 'total-ms'] as const) {
            expect(pass({ kind, ms: bound }, obs)).toBe(actual <= bound);
            if (pass({ kind, ms: bound }, obs)) expect(pass({ kind, ms: bound + slack }, obs)).toBe(true);
          }
          expect(pass({ kind: 'min-chunks', count: times.length }, obs)).toBe(true);
          expect(pass({ kind: 'min-chunks', count: times.length + 1 }, obs)).toBe(false);
        },
      ),
    );
  });

  test('no chunk at all fails any ttft-ms bound', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 1e9 }), (ms) => {
        const outcome = evaluate({ line: 1, kind: 'ttft-ms', ms }, reply('', { ttftMs: undefined }));
        expect(outcome).toMatchObject({ passed: false, actual: 'no chunk arrived' });
      }),
    );
  });
});

const outcomes = fc.oneof(
  fc.constant<Partial<Observation>>({ completed: true, status: 200 }),
  fc.record({
    completed: fc.constant(false),
    status: fc.constantFrom(0, 200, 400, 404, 429, 502, 503),
    code: fc.constantFrom('AGENT_NOT_FOUND', 'BAD_REQUEST', 'STREAM_ERROR', 'STREAM_INCOMPLETE', 'NETWORK'),
    errorType: fc.constantFrom(undefined, 'stream_error'),
    errorMessage: fc.string({ maxLength: 20 }),
  }),
);

describe('outcome assertions', () => {
  test('completes: true and completes: false never agree', () => {
    fc.assert(
      fc.property(outcomes, unicode, (outcome, text) => {
        const obs = reply(text, outcome);
        expect(pass({ kind: 'completes', value: true }, obs)).toBe(
          !pass({ kind: 'completes', value: false }, obs),
        );
      }),
    );
  });

  test('code matches the error’s code or its own type, in any letter case', () => {
    fc.assert(
      fc.property(outcomes, fc.boolean(), (outcome, upper) => {
        const obs = reply('', outcome);
        for (const code of [obs.code, obs.errorType]) {
          if (code === undefined) continue;
          expect(pass({ kind: 'code', code: upper ? code.toUpperCase() : code.toLowerCase() }, obs)).toBe(
            true,
          );
        }
        if (obs.completed) expect(pass({ kind: 'code', code: 'AGENT_NOT_FOUND' }, obs)).toBe(false);
      }),
    );
  });

  test('a step passes its implicit check exactly when a whole reply came, unless it expects an error', () => {
    fc.assert(
      fc.property(outcomes, fc.boolean(), (outcome, expectError) => {
        const obs = reply('partial', outcome);
        const checks: Check[] = expectError ? [{ line: 3, kind: 'completes', value: false }] : [];
        const results = evaluateStep(checks, obs, 2);
        const implicit = results.find((r) => r.kind === 'reply');
        if (expectError) expect(implicit).toBeUndefined();
        else expect(implicit).toMatchObject({ line: 2, passed: obs.completed });
        for (const r of results) {
          expect(r.expected.length).toBeGreaterThan(0);
          expect(r.actual.length).toBeGreaterThan(0);
        }
      }),
    );
  });

  test('quoted excerpts stay short however long the reply', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', minLength: 0, maxLength: 2_000 }), (text) => {
        expect(Array.from(quote(text)).length).toBeLessThan(400 + 40);
      }),
    );
  });
});
