// `agent-console search` as a support person runs it: an order number found among recorded
// conversations, newest first, the match marked; filters by agent, profile and age; --json; a
// query full of FTS5 syntax is searched for as text; nothing but the answer on stdout and nothing
// at all on stderr (node:sqlite's "experimental" warning included).
import { afterAll, beforeAll, expect, test } from 'vitest';
import { timeOption } from '../../electron/cli/search-command';
import { TranscriptStore } from '../../electron/core/transcript-store';
import { removeDir, tempDir } from '../support/mock';
import { runNode } from '../support/run-process';

let dataDir: string;
const day = 86_400_000;

beforeAll(async () => {
  dataDir = tempDir('agent-console-cli-search-');
  const store = new TranscriptStore(`${dataDir}/transcripts`);
  const at = (daysAgo: number): string => new Date(Date.now() - daysAgo * day).toISOString();
  const start = { agent: 'helpdesk', knownFrom: 'start' } as const;
  await store.append(
    { profileId: 'embedded-mock', kind: 'session', id: 'old' },
    { role: 'user', content: 'refund 4711 was late', status: 'complete', at: at(40) },
    start,
  );
  await store.append(
    { profileId: 'embedded-mock', kind: 'session', id: 'recent' },
    { role: 'user', content: 'Where is my refund for order 4711?', status: 'complete', at: at(2) },
    start,
  );
  await store.append(
    { profileId: 'staging', kind: 'thread', id: 'thr_9' },
    { role: 'agent', content: 'refund 4711 approved', status: 'complete', at: at(1) },
    { agent: 'billing', knownFrom: 'partial' },
  );
  store.close();
  // A data folder the app has run on: the built-in Embedded mock profile is in its settings.
  const listed = await runNode(['bin/agent-console.js', 'profiles', 'list'], {
    env: { AGENT_CONSOLE_DATA_DIR: dataDir },
  });
  expect(listed.code, listed.stderr).toBe(0);
});
afterAll(() => removeDir(dataDir));

const search = (...args: string[]) =>
  runNode(['bin/agent-console.js', 'search', ...args], { env: { AGENT_CONSOLE_DATA_DIR: dataDir } });

test('finds an order number, newest first, the match marked; stderr stays empty', async () => {
  const run = await search('refund', '4711');
  expect(run.stderr).toBe('');
  expect(run.code).toBe(0);
  const ids = [...run.stdout.matchAll(/ · (?:session|thread) (\S+) · /g)].map((m) => m[1]);
  expect(ids).toEqual(['thr_9', 'recent', 'old']);
  expect(run.stdout).toContain('«refund» «4711» approved');
});

test('--json, --agent, --profile and --since narrow it', async () => {
  const json = await search('refund 4711', '--json', '--since', '7d');
  expect(json.stderr).toBe('');
  const results = JSON.parse(json.stdout) as { hits: { id: string; snippet: unknown[] }[]; more: boolean };
  expect(results.hits.map((h) => h.id)).toEqual(['thr_9', 'recent']);
  expect(results.more).toBe(false);
  const byAgent = JSON.parse(
    (await search('4711', '--agent', 'helpdesk', '--json')).stdout,
  ) as typeof results;
  expect(byAgent.hits.map((h) => h.id)).toEqual(['recent', 'old']);
  const byProfile = await search('4711', '--profile', 'Embedded mock', '--since', '2000-01-01', '--json');
  expect(byProfile.stderr).toBe('');
  expect((JSON.parse(byProfile.stdout) as typeof results).hits.map((h) => h.id)).toEqual(['recent', 'old']);
});

test('query syntax from the user is text; a bad date is a usage error', async () => {
  const hostile = await search('"NEAR(refund', '4711*', ')');
  expect(hostile.code).toBe(0);
  expect(hostile.stderr).toBe('');
  const bad = await search('4711', '--since', 'last tuesday');
  expect(bad.code).toBe(2);
  expect(bad.stderr).toContain('--since takes a date');
  expect(timeOption('since', '2026-01-15', 0)).toBe('2026-01-15T00:00:00.000Z');
  expect(timeOption('since', '24h', day)).toBe(new Date(0).toISOString());
});
