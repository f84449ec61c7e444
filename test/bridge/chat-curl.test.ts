// "Copy as curl" for a playground request: the command a user can run as is, with the key as a
// variable and the profile's CA, and the body exactly as the console sends it.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { BridgeHost } from '../../electron/bridge/bridge-host';
import { ConsoleCore } from '../../electron/core/console-core';
import { removeDir, tempDir } from '../support/mock';

let core: ConsoleCore;
let host: BridgeHost;
let dataDir: string;

beforeAll(async () => {
  dataDir = tempDir('agent-console-curl-');
  core = await ConsoleCore.open({
    dataDir,
    embeddedMock: 'in-process',
    keychainService: `agent-console-curl-${randomBytes(4).toString('hex')}`,
  });
  host = new BridgeHost(core, { transport: 'web', version: 'test' });
});
afterAll(async () => {
  host.close();
  await core.close();
  removeDir(dataDir);
});

test('a streamed chat copies as curl -N with the CA, the key as $AGENT_API_KEY, and the body', async () => {
  const result = await host.invoke('chat:curl', {
    message: "it's here",
    agent: 'echo',
    session_id: 'abc123',
    stream: true,
  });
  if (!result.ok) throw new Error(result.error.message);
  const { command } = result.value as { command: string };
  const mock = core.mock as NonNullable<typeof core.mock>;
  expect(command).toBe(
    `curl -N --cacert '${mock.caCertPath}' -X POST '${mock.baseUrl}/api/v1/chat'` +
      ` -H "Authorization: Bearer $AGENT_API_KEY" -H 'Content-Type: application/json'` +
      ` --data-raw '{"message":"it'\\''s here","agent":"echo","session_id":"abc123","stream":true}'`,
  );
  expect(command).not.toContain(mock.keys.pro);
});

test('a plain chat has no -N, and bad input is refused', async () => {
  const plain = await host.invoke('chat:curl', { message: 'hi', stream: false });
  expect(plain.ok && (plain.value as { command: string }).command).toMatch(/^curl --cacert /);
  expect(await host.invoke('chat:curl', { message: 'hi' })).toMatchObject({
    ok: false,
    error: { code: 'BAD_INPUT' },
  });
});
