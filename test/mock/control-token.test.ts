// The control path's token on disk: made once per data folder (0600), kept across restarts, and
// replaced only when it is not one this user alone holds. Real mocks on folders of the test's own.
import { chmodSync, lstatSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { startMockServer, type MockServer } from '../../mock/server';
import { removeDir, tempDir } from '../support/mock';

const posix = describe.skipIf(process.platform === 'win32');
const running: MockServer[] = [];
const dirs: string[] = [];
afterEach(async () => {
  for (const server of running.splice(0)) await server.close();
  for (const dir of dirs.splice(0)) removeDir(dir);
});

async function start(dataDir: string, warnings: string[] = []): Promise<MockServer> {
  const server = await startMockServer({ dataDir, onWarning: (message) => warnings.push(message) });
  running.push(server);
  return server;
}
function folder(): string {
  const dir = tempDir('agent-console-control-token-');
  dirs.push(dir);
  return dir;
}

posix('the control token file', () => {
  test('is made once, 0600, and kept across restarts', async () => {
    const dataDir = folder();
    const first = await start(dataDir);
    const file = join(dataDir, 'control-token');
    expect(first.controlToken).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(readFileSync(file, 'utf8').trim()).toBe(first.controlToken);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    await first.close();
    running.splice(0);
    const again = await start(dataDir);
    expect(again.controlToken).toBe(first.controlToken);
  });

  test('one that others could read is replaced by a new one, and the mock says so', async () => {
    const dataDir = folder();
    const first = await start(dataDir);
    await first.close();
    running.splice(0);
    chmodSync(join(dataDir, 'control-token'), 0o644);
    const warnings: string[] = [];
    const again = await start(dataDir, warnings);
    expect(again.controlToken).not.toBe(first.controlToken);
    expect(statSync(join(dataDir, 'control-token')).mode & 0o777).toBe(0o600);
    expect(warnings.join('\n')).toContain('other users could read it');
  });

  test('a link in its place is neither read nor written through: the file it points to stays as it was', async () => {
    const dataDir = folder();
    const elsewhere = join(folder(), 'theirs');
    const theirs = `${'T'.repeat(43)}\n`;
    writeFileSync(elsewhere, theirs, { mode: 0o600 });
    symlinkSync(elsewhere, join(dataDir, 'control-token'));
    const warnings: string[] = [];
    const server = await start(dataDir, warnings);
    expect(server.controlToken).not.toBe('T'.repeat(43));
    expect(lstatSync(join(dataDir, 'control-token')).isFile()).toBe(true);
    expect(readFileSync(elsewhere, 'utf8')).toBe(theirs);
    expect(warnings.join('\n')).toContain('symbolic link');
  });
});
