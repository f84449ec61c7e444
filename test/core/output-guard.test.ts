// The last gate before output leaves the process: secrets masked whatever produced them, and what a
// terminal would act on (escape sequences, a carriage return, C1, bidi overrides) shown escaped —
// also through a process's own stdout and stderr, and in JSON that stays JSON.
import { spawnSync } from 'node:child_process';
import { describe, expect, test } from 'vitest';
import { guardMetrics, guardTerminal, guardValue } from '../../electron/core/output-guard';
import { keyPieces, plantKey } from '../security/leak-check';

const HOSTILE = '\u001b]0;PWNED\u0007\u001b[31mred\u009b31m\rover\u202Eevil';
// eslint-disable-next-line no-control-regex -- control characters are what this test looks for
const UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

/** Runs `code` (TypeScript) in a fresh Node process; its stdout and stderr as bytes, its exit code. */
function runNode(code: string): { stdout: Buffer; stderr: Buffer; status: number | null } {
  const result = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code], {
    cwd: process.cwd(),
    timeout: 20_000,
  });
  return { stdout: result.stdout, stderr: result.stderr, status: result.status };
}

describe('guardTerminal', () => {
  test('shows control characters as escapes, keeps lines and tabs, masks keys', () => {
    const key = plantKey();
    const out = guardTerminal(`a\tb\n${HOSTILE} ${key}`);
    expect(out).toBe(
      `a\tb\n\\u001b]0;PWNED\\u0007\\u001b[31mred\\u009b31m\\u000dover\\u202eevil ***…${key.slice(-4)}`,
    );
    expect(out).not.toMatch(UNSAFE);
    expect(guardTerminal(out)).toBe(out);
  });

  test('JSON output stays JSON, with the same value', () => {
    const json = JSON.stringify({ reply: HOSTILE }, null, 2);
    const out = guardTerminal(json);
    expect(out).not.toMatch(UNSAFE);
    expect(JSON.parse(out)).toEqual({ reply: HOSTILE });
  });
});

describe('guardMetrics and guardValue', () => {
  test('metrics lose control characters and secrets, and keep their lines', () => {
    const key = plantKey();
    const text = `m{component="${key}",x="a\u001b[31m"} 1\nm2 2\n`;
    expect(guardMetrics(text)).toBe(`m{component="***…${key.slice(-4)}",x="a\uFFFD[31m"} 1\nm2 2\n`);
  });

  test('a value keeps its shape, its secrets masked', () => {
    const key = plantKey();
    const out = guardValue({ list: [{ name: key }], n: 1 });
    expect(out).toEqual({ list: [{ name: `***…${key.slice(-4)}` }], n: 1 });
  });
});

describe("a process's own output", () => {
  test('whatever writes to a guarded stdout or stderr, nothing raw or secret gets out', () => {
    const key = plantKey();
    const { stdout, stderr, status } = runNode(`
      import { guardProcessOutput } from './electron/core/output-guard.ts';
      guardProcessOutput();
      process.stdout.write(${JSON.stringify(`${HOSTILE} ${key}\n`)});
      process.stdout.write(Buffer.from(${JSON.stringify(`bytes ${HOSTILE}\n`)}, 'utf8'));
      console.error(${JSON.stringify(`error ${key} ${HOSTILE}`)});
    `);
    expect(status).toBe(0);
    for (const bytes of [stdout, stderr]) {
      expect([...bytes].filter((b) => b === 0x1b || b === 0x07 || b === 0x0d)).toEqual([]);
      expect(bytes.toString('utf8')).not.toMatch(UNSAFE);
      expect(keyPieces(bytes.toString('utf8'), key)).toEqual([]);
    }
    expect(stdout.toString()).toContain('\\u001b]0;PWNED\\u0007');
    expect(stderr.toString()).toContain(`error ***…${key.slice(-4)}`);
  });

  test('an unhandled rejection is told with its secrets masked, and the process goes on', () => {
    const key = plantKey();
    const { stdout, stderr, status } = runNode(`
      import { keepRunningOnUnhandledRejection } from './electron/core/process-guard.ts';
      keepRunningOnUnhandledRejection((message) => process.stderr.write(message + '\\n'));
      void Promise.reject(new Error(${JSON.stringify(`boom ${key}`)}));
      setTimeout(() => process.stdout.write('still here\\n'), 100);
    `);
    expect(status).toBe(0);
    expect(stdout.toString()).toBe('still here\n');
    expect(stderr.toString()).toContain(
      `An unexpected error was caught, and the console goes on: Error: boom ***…${key.slice(-4)}`,
    );
    expect(keyPieces(stderr.toString(), key)).toEqual([]);
  });
});
