// The name incidents are acknowledged under, over the bridge as the Settings screen calls it: the
// OS user's until one is saved, a saved one on disk in settings.json (a fresh reader sees it) and
// used by the next acknowledgement, blank back to the OS user's, and a name on two lines or too
// long refused in words before the core sees it.
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { userInfo } from 'node:os';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { BridgeHost } from '../../electron/bridge/bridge-host';
import { ConsoleCore } from '../../electron/core/console-core';
import { removeDir, tempDir } from '../support/mock';

let core: ConsoleCore;
let host: BridgeHost;
let dataDir: string;

beforeAll(async () => {
  dataDir = tempDir('agent-console-incident-name-');
  core = await ConsoleCore.open({
    dataDir,
    embeddedMock: 'none',
    keychainService: `agent-console-incident-name-${randomBytes(4).toString('hex')}`,
  });
  host = new BridgeHost(core, { transport: 'web', version: 'test' });
});
afterAll(async () => {
  host.close();
  await core.close();
  removeDir(dataDir);
});

test('the OS user’s name until one is saved; saved on disk; blank goes back', async () => {
  const osUser = userInfo().username;
  expect(await host.invoke('monitors:incidentName', {})).toEqual({ ok: true, value: { osUser } });
  expect(await host.invoke('monitors:setIncidentName', { name: '  Dana (SRE) ' })).toEqual({
    ok: true,
    value: { name: 'Dana (SRE)', osUser },
  });
  expect(JSON.parse(readFileSync(core.settings.path, 'utf8'))).toMatchObject({ incidentName: 'Dana (SRE)' });
  expect(await host.invoke('monitors:setIncidentName', { name: '   ' })).toEqual({
    ok: true,
    value: { osUser },
  });
  expect(JSON.parse(readFileSync(core.settings.path, 'utf8'))).not.toHaveProperty('incidentName');
});

test('a name on two lines, or past 100 characters, is refused in words and nothing is saved', async () => {
  expect(await host.invoke('monitors:setIncidentName', { name: 'Dana\r\nBcc: x' })).toMatchObject({
    ok: false,
    error: { code: 'BAD_INPUT', message: expect.stringContaining('A name on one line') as unknown },
  });
  expect(await host.invoke('monitors:setIncidentName', { name: 'x'.repeat(101) })).toMatchObject({
    ok: false,
    error: { code: 'BAD_INPUT' },
  });
  expect(core.settings.read().incidentName).toBeUndefined();
});
