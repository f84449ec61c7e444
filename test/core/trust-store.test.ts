// A company's root certificate installed in the operating system's store is trusted without
// pasting it into a profile: on Linux the store is OpenSSL's, which SSL_CERT_FILE points at here,
// as an administrator's /etc/ssl/certs would hold it. Without it, the mock's private CA is not
// trusted and the run says so in words.
import { afterAll, beforeAll, expect, test } from 'vitest';
import { removeDir, startTestMock, tempDir, type TestMock } from '../support/mock';
import { runNode } from '../support/run-process';

let mock: TestMock;
let dataDir: string;

beforeAll(async () => {
  mock = await startTestMock();
  dataDir = tempDir('agent-console-trust-');
});

afterAll(async () => {
  await mock.stop();
  removeDir(mock.dataDir);
  removeDir(dataDir);
});

/** `agent-console test` against the mock with no --ca: only the stores say whether it is trusted. */
const run = (env: NodeJS.ProcessEnv) =>
  runNode(
    ['bin/agent-console.js', 'test', 'examples/agent-tests/echo.yaml', '--base-url', mock.server.baseUrl],
    {
      env: {
        AGENT_CONSOLE_DATA_DIR: dataDir,
        AGENT_API_KEY: mock.server.keys.pro,
        SSL_CERT_FILE: undefined,
        SSL_CERT_DIR: undefined,
        NODE_EXTRA_CA_CERTS: undefined,
        ...env,
      },
    },
  );

test('a CA in the system store is trusted with nothing pasted into the profile', async () => {
  const result = await run({ SSL_CERT_FILE: mock.server.caCertPath });
  expect(result.code, result.stderr).toBe(0);
  expect(result.stdout).toMatch(/^\d+ passed, 0 failed/m);
}, 60_000);

test('a CA in no store is refused before anything is sent, in words', async () => {
  const before = mock.server.control.requests().length;
  const result = await run({});
  expect(result.code).toBe(1);
  expect(`${result.stdout}${result.stderr}`).toContain("The service's certificate is not trusted");
  expect(mock.server.control.requests().length).toBe(before);
}, 60_000);
