// `agent-console test import-har`: a HAR file's chats as suite files in the folder named, the same
// files the Tests screen writes; a missing or oversized file said in one line, nothing written.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, test, vi } from 'vitest';
import { runCli } from '../../electron/cli/main';
import { MAX_HAR_CHARS } from '../../shared/bridge/log';

let folder: string;
beforeEach(() => {
  folder = mkdtempSync(join(tmpdir(), 'import-har-cli-'));
});
afterEach(() => rmSync(folder, { recursive: true, force: true }));

async function cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const out = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
  const err = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
  try {
    const code = await runCli(['test', 'import-har', ...args, '--data-dir', folder]);
    const text = (spy: typeof out): string => spy.mock.calls.map((c) => String(c[0])).join('');
    return { code, stdout: text(out), stderr: text(err) };
  } finally {
    out.mockRestore();
    err.mockRestore();
  }
}

const chat = (message: string) => ({
  startedDateTime: '2026-11-28T06:00:00Z',
  time: 5,
  request: {
    method: 'POST',
    url: 'https://agents.example.com/api/v1/chat',
    headers: [{ name: 'Authorization', value: 'Bearer opaque-token-of-someone' }],
    postData: { text: JSON.stringify({ message, agent: 'echo', stream: false }) },
  },
  response: { status: 200, content: { text: JSON.stringify({ response: `Echo: ${message}` }) } },
});

test('writes one case per chat into --dir, and says where', async () => {
  const har = join(folder, 'Support Session.har');
  writeFileSync(har, JSON.stringify({ log: { entries: [chat('hello'), chat('again')] } }));
  const suites = join(folder, 'suites');
  mkdirSync(suites);
  const run = await cli([har, '--dir', suites]);
  expect(run).toMatchObject({ code: 0, stderr: '' });
  expect(run.stdout).toContain('Wrote 2 cases to support-session.yaml');
  const yaml = readFileSync(join(suites, 'support-session.yaml'), 'utf8');
  expect(yaml).toContain('contains: "Echo: again"');
  expect(yaml).not.toContain('opaque-token-of-someone');
  const json = await cli([har, '--dir', suites, '--json']);
  expect(JSON.parse(json.stdout)).toEqual({ files: ['support-session-2.yaml'], cases: 2, skipped: 0 });
});

test('a missing file or one over the bound is one line on stderr, and nothing is written', async () => {
  const missing = await cli([join(folder, 'nope.har'), '--dir', folder]);
  expect(missing.code).not.toBe(0);
  expect(missing.stderr).toMatch(/^agent-console test import-har: There is no file .*nope\.har to read\.\n$/);
  const big = join(folder, 'big.har');
  writeFileSync(big, ' '.repeat(MAX_HAR_CHARS + 1));
  const tooBig = await cli([big, '--dir', folder]);
  expect(tooBig.stderr).toContain('over 10 MB');
  expect(readdirSync(folder).sort()).toEqual(['big.har']);
});
