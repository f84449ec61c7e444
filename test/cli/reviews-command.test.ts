// `agent-console reviews export` in a fresh process reads back what the app's store saved: a reply
// marked wrong with its corrected answer, a whole conversation labelled; CSV by default (a formula
// kept as text), JSON, --label, --since and --profile narrow it; a bad option is said in words; the
// subcommand is completed by the shell like every other.
import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { TranscriptStore } from '../../electron/core/transcript-store';
import { removeDir, tempDir } from '../support/mock';
import { runNode } from '../support/run-process';

let dataDir: string;

beforeAll(async () => {
  dataDir = tempDir('agent-console-cli-reviews-');
  const store = new TranscriptStore(`${dataDir}/transcripts`);
  const ref = { profileId: 'embedded-mock', kind: 'session', id: 'sess-4711' } as const;
  const start = { agent: 'helpdesk', knownFrom: 'start' } as const;
  await store.append(ref, { role: 'user', content: 'Where is order 4711?', status: 'complete' }, start);
  await store.append(ref, { role: 'agent', content: 'It was never sent.', status: 'complete' });
  await store.append(
    { profileId: 'staging', kind: 'thread', id: 'thr_1' },
    { role: 'user', content: 'Cancel 4712', status: 'complete' },
    start,
  );
  store.reviews.saveLabel({ name: 'shipping', colour: '#3366cc' });
  store.reviews.save('embedded-mock', {
    kind: 'session',
    id: 'sess-4711',
    message: 1,
    verdict: 'wrong',
    labels: ['shipping'],
    note: '=1+1 It shipped on Monday with DHL.',
  });
  store.reviews.save('staging', { kind: 'thread', id: 'thr_1', verdict: 'good', labels: [], note: '' });
  store.close();
  const listed = await runNode(['bin/agent-console.js', 'profiles', 'list'], {
    env: { AGENT_CONSOLE_DATA_DIR: dataDir },
  });
  expect(listed.code, listed.stderr).toBe(0);
});
afterAll(() => removeDir(dataDir));

const reviews = (...args: string[]) =>
  runNode(['bin/agent-console.js', 'reviews', ...args], { env: { AGENT_CONSOLE_DATA_DIR: dataDir } });

test('a fresh process exports the saved reviews as CSV, newest first, with ids and links', async () => {
  const run = await reviews('export');
  expect(run.stderr).toBe('');
  expect(run.code).toBe(0);
  const lines = run.stdout.trimEnd().split('\n');
  expect(lines[0]).toBe(
    'reviewed_at,profile_id,kind,id,message_index,role,agent,verdict,labels,note,text,link',
  );
  expect(lines.slice(1).map((l) => l.split(',').slice(1, 5).join(','))).toEqual([
    'staging,thread,thr_1,',
    'embedded-mock,session,sess-4711,1',
  ]);
  expect(lines[2]).toContain(
    ",agent,helpdesk,wrong,shipping,'=1+1 It shipped on Monday with DHL.,It was never sent.,#/conversations/sess-4711?message=1",
  );
});

test('--format json, --label, --since and --profile narrow it; a bad option is a usage error', async () => {
  const json = await reviews('export', '--format', 'json', '--label', 'shipping');
  expect(json.stderr).toBe('');
  const file = JSON.parse(json.stdout) as { reviews: { id: string; verdict: string; note: string }[] };
  expect(file.reviews).toEqual([
    expect.objectContaining({
      id: 'sess-4711',
      verdict: 'wrong',
      note: '=1+1 It shipped on Monday with DHL.',
    }),
  ]);
  const staging = await reviews('export', '--format', 'json', '--profile', 'Embedded mock', '--since', '1d');
  expect((JSON.parse(staging.stdout) as typeof file).reviews.map((r) => r.id)).toEqual(['sess-4711']);
  const later = await reviews('export', '--since', '2999-01-01');
  expect(later.stdout.trim().split('\n')).toHaveLength(1);
  const bad = await reviews('export', '--format', 'xml');
  expect(bad.code).toBe(2);
  expect(bad.stderr).toContain('xml');
});

test('the shell completes the reviews command and its export', () => {
  const script =
    `eval "$(node bin/agent-console.js completion bash)"; ` +
    `for words in "agent-console rev" "agent-console reviews e" "agent-console reviews export --f"; do ` +
    `read -ra COMP_WORDS <<< "$words"; COMP_CWORD=$(( \${#COMP_WORDS[@]} - 1 )); _agent_console; echo "\${COMPREPLY[*]}"; done`;
  const run = spawnSync('bash', ['-c', script], { encoding: 'utf8' });
  expect(run.stdout.trim().split('\n')).toEqual(['reviews', 'export', '--format']);
});
