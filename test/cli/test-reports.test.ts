// Several reports of one run at once, against the real mock, from a hostile run: replies that echo
// the API key and a declared secret, and a case named with markup. No report holds the key or the
// secret, and the HTML report shows the markup as text.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { testService } from '../support/keychain';
import { removeDir, startTestMock, tempDir, type TestMock } from '../support/mock';
import { runNode } from '../support/run-process';

let dataDir: string;
let mock: TestMock;
const SECRET = 'hunter2-correct-horse-battery';

beforeAll(async () => {
  dataDir = tempDir('agent-console-reports-');
  mock = await startTestMock();
});

afterAll(async () => {
  await mock.stop();
  removeDir(mock.dataDir);
  removeDir(dataDir);
});

test('json, junit, markdown and html at once: the key and a declared secret appear in none, markup stays text', async () => {
  const key = mock.server.keys.pro;
  const suite = join(dataDir, 'hostile.yaml');
  writeFileSync(
    suite,
    `name: Hostile
targets: { agents: [echo] }
env: [REPORT_SECRET]
cases:
  - name: '<script>alert(1)</script> echoes'
    message: 'key {{env.REPORT_SECRET}} ${key.slice(0, 4)}{{env.KEY_TAIL}} <script>alert(2)</script>'
    assert: [{ contains: 'no such text' }]
`.replace('{{env.KEY_TAIL}}', key.slice(4)),
  );
  const file = (name: string): string => join(dataDir, name);
  const run = await runNode(
    [
      'bin/agent-console.js',
      'test',
      suite,
      '--base-url',
      mock.server.baseUrl,
      '--ca',
      mock.server.caCertPath,
      '--reporter',
      `json:${file('r.json')}`,
      '--reporter',
      `junit:${file('r.xml')}`,
      '--reporter',
      `markdown:${file('r.md')}`,
      '--reporter',
      `html:${file('r.html')}`,
      '--reporter',
      'pretty',
    ],
    {
      env: {
        AGENT_CONSOLE_DATA_DIR: dataDir,
        AGENT_CONSOLE_KEYCHAIN_SERVICE: testService('test-reports'),
        AGENT_API_KEY: key,
        REPORT_SECRET: SECRET,
      },
    },
  );
  expect(run.code, run.stderr + run.stdout).toBe(1);
  for (const [reporter, name] of [
    ['json', 'r.json'],
    ['junit', 'r.xml'],
    ['markdown', 'r.md'],
    ['html', 'r.html'],
  ]) {
    expect(run.stdout).toContain(`Wrote the ${reporter} report to ${file(name ?? '')}.`);
  }
  const reports = ['r.json', 'r.xml', 'r.md', 'r.html'].map((name) => readFileSync(file(name), 'utf8'));
  for (const text of [...reports, run.stdout, run.stderr]) {
    expect(text).not.toContain(key);
    expect(text).not.toContain(SECRET);
  }
  // The reply came back (masked) and is in every report.
  const json = JSON.parse(reports[0] ?? '') as {
    suites: { cells: { attempts: { steps: { reply: string }[] }[] }[] }[];
  };
  const reply = json.suites[0]?.cells[0]?.attempts[0]?.steps[0]?.reply ?? '';
  expect(reply).toMatch(/^Echo: key \*\*\*/);
  const html = reports[3] ?? '';
  expect(html).not.toMatch(/<script/i);
  expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt; echoes');
  expect(html).toContain('&lt;script&gt;alert(2)&lt;/script&gt;');
  expect(reports[2]).toContain('&lt;script&gt;alert\\(1\\)&lt;/script&gt; echoes');
}, 90_000);
