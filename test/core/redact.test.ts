import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import {
  containsKeyShaped,
  maskSecret,
  MIN_REMEMBERED_SECRET_LENGTH,
  redactHeaders,
  redactHeaderValue,
  redactSecrets,
  redactUrl,
  redactValue,
  rememberSecret,
} from '../../electron/core/redact';

const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const alnum = (n: number): string => [...randomBytes(n)].map((b) => ALNUM[b % 62]).join('');
/** A key of the real shape, with a prefix other than the mock's (docs/decisions.md: no fixed prefix). */
const plantKey = (prefix = 'zq9'): string => `${prefix}_${alnum(32)}`;

describe('maskSecret', () => {
  test('keeps only the last four characters of a key', () => {
    const key = plantKey();
    expect(maskSecret(key)).toBe(`***…${key.slice(-4)}`);
  });

  test('hides a short secret whole, and leaves an already masked value alone', () => {
    expect(maskSecret('abcd1234')).toBe('***');
    expect(maskSecret('***…wxyz')).toBe('***…wxyz');
  });
});

describe('redactSecrets', () => {
  test('masks every key in free text and keeps the rest byte for byte', () => {
    const a = plantKey('ams');
    const b = plantKey('X1y');
    const text = `first ${a}, then "${b}" — done ✓`;
    const out = redactSecrets(text);
    expect(out).toBe(`first ***…${a.slice(-4)}, then "***…${b.slice(-4)}" — done ✓`);
    expect(containsKeyShaped(out)).toBe(false);
  });

  test('finds a key glued to other letters and digits', () => {
    const key = plantKey();
    const out = redactSecrets(`Bearer${key}trailing`);
    expect(out).not.toContain(key.slice(4, 30));
    expect(containsKeyShaped(out)).toBe(false);
  });

  test('leaves text without anything key-shaped unchanged', () => {
    const text = 'req_abc123 thr_ABCDEFGHIJKLMNOPQRST snake_case_name {"a":1}';
    expect(redactSecrets(text)).toBe(text);
    expect(containsKeyShaped(text)).toBe(false);
  });

  test('no key survives, whatever surrounds it (property)', () => {
    const keyArb = fc
      .tuple(
        fc.string({ unit: fc.constantFrom(...ALNUM), minLength: 3, maxLength: 3 }),
        fc.string({ unit: fc.constantFrom(...ALNUM), minLength: 32, maxLength: 32 }),
      )
      .map(([prefix, secret]) => `${prefix}_${secret}`);
    fc.assert(
      fc.property(fc.string(), keyArb, fc.string(), (before, key, after) => {
        const out = redactSecrets(before + key + after);
        expect(containsKeyShaped(out)).toBe(false);
        // The secret part minus the four shown characters never appears.
        expect(out).not.toContain(key.slice(4, 32));
      }),
    );
  });
});

describe("a key in JSON's wire form", () => {
  test('is masked with any of its characters escaped, the underscore included', () => {
    const key = plantKey();
    const escapeAll = (text: string): string =>
      [...text].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('');
    const forms = [
      key.replace('_', '\\u005f'),
      key.replace('_', '\\u005F'),
      `${escapeAll(key.slice(0, 10))}${key.slice(10)}`,
      escapeAll(key).toUpperCase().replaceAll('\\U', '\\u'),
    ];
    for (const form of forms) {
      const wire = `{"error":"bad key ${form}"}`;
      expect(JSON.parse(wire)).toEqual({ error: `bad key ${key}` });
      const out = redactSecrets(wire);
      expect(out).toBe(`{"error":"bad key ***…${key.slice(-4)}"}`);
    }
  });
});

describe('remembered secrets', () => {
  test('are masked whatever their shape, also JSON-escaped, from the moment they are remembered', () => {
    const hook = `https://hooks.example.com/services/${alnum(20)}`;
    expect(redactSecrets(`posting to ${hook}`)).toBe(`posting to ${hook}`);
    expect(rememberSecret(hook)).toBe(true);
    expect(redactSecrets(`posting to ${hook}.`)).toBe(`posting to ***…${hook.slice(-4)}.`);
    const wire = JSON.stringify({ url: hook }).replaceAll('/', '\\/');
    expect(JSON.parse(redactSecrets(wire))).toEqual({ url: `***…${hook.slice(-4)}` });
  });

  test('a value too short to be a secret is not remembered, so it garbles nothing', () => {
    const short = 'y'.repeat(MIN_REMEMBERED_SECRET_LENGTH - 1);
    expect(rememberSecret(short)).toBe(false);
    expect(redactSecrets(`${short}, ${short}`)).toBe(`${short}, ${short}`);
  });
});

describe('redactValue', () => {
  test('masks strings and object keys at any depth, and keeps an unchanged value as it is', () => {
    const key = plantKey();
    const value = { name: 'ok', list: [1, true, null, { [key]: `x ${key}` }], same: { a: 'b' } };
    const out = redactValue(value);
    expect(JSON.stringify(out)).not.toContain(key.slice(4, 30));
    expect(out.same).toBe(value.same);
    expect(value.list[3]).toEqual({ [key]: `x ${key}` });
    const plain = { a: ['b', { c: 1 }] };
    expect(redactValue(plain)).toBe(plain);
  });

  test('walks a value nested far deeper than the call stack', () => {
    const key = plantKey();
    let deep: unknown = key;
    for (let i = 0; i < 200_000; i++) deep = { d: deep };
    let out = redactValue(deep) as { d: unknown } | string;
    while (typeof out === 'object') out = out.d as typeof out;
    expect(out).toBe(`***…${key.slice(-4)}`);
  });
});

describe('redactHeaders', () => {
  test('masks Authorization whatever its case, keeping the scheme and last four', () => {
    const key = plantKey();
    expect(redactHeaders({ Authorization: `Bearer ${key}` })).toEqual({
      Authorization: `Bearer ***…${key.slice(-4)}`,
    });
    expect(redactHeaderValue('authorization', 'Bearer ***')).toBe('Bearer ***');
  });

  test('masks a malformed credential too, not only a well-shaped key', () => {
    expect(redactHeaderValue('Authorization', 'Bearer not-a-key-but-secret')).toBe('Bearer ***…cret');
    expect(redactHeaderValue('X-Api-Key', 'short')).toBe('***');
    expect(redactHeaderValue('Cookie', 'session=abcdef0123456789')).toBe('***');
  });

  test('masks key-shaped parts of any other header, and leaves ordinary headers alone', () => {
    const key = plantKey();
    const out = redactHeaders({ 'x-debug': `echo ${key}`, 'content-type': 'application/json' });
    expect(out['x-debug']).toBe(`echo ***…${key.slice(-4)}`);
    expect(out['content-type']).toBe('application/json');
  });
});

describe('redactUrl', () => {
  test('masks keys in the query and path, and user info, and nothing else', () => {
    const key = plantKey();
    expect(redactUrl(`https://api.example.com/api/v1/agents?key=${key}&limit=5`)).toBe(
      `https://api.example.com/api/v1/agents?key=***…${key.slice(-4)}&limit=5`,
    );
    expect(redactUrl('https://user:hunter2@example.com/x?a=b')).toBe('https://***@example.com/x?a=b');
    expect(redactUrl('https://127.0.0.1:8443/api/v1/health')).toBe('https://127.0.0.1:8443/api/v1/health');
  });
});
