// `npm run mock -- --host 0.0.0.0` serves the API to other machines, but its control path (revoke
// keys, break agents, read every request) answers this machine only unless --allow-remote-control
// says otherwise, and then still only with its token. "Another machine" is this machine's own
// non-loopback address: the socket sees a non-loopback peer, as it would from elsewhere.
import { spawn, type ChildProcess } from 'node:child_process';
import { networkInterfaces } from 'node:os';
import { afterAll, describe, expect, test } from 'vitest';
import { Agent, request } from 'undici';
import { startMockServer, type MockServer } from '../../mock/server';
import { removeDir, tempDir } from '../support/mock';

const lanAddress = Object.values(networkInterfaces())
  .flat()
  .find((i) => i && i.family === 'IPv4' && !i.internal)?.address;

const cleanups: (() => Promise<void> | void)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

/** GET over HTTPS trusting `ca`; the certificate names 127.0.0.1, not the LAN address. */
async function get(url: string, ca: string, key?: string): Promise<{ status: number; text: string }> {
  const dispatcher = new Agent({ connect: { ca, checkServerIdentity: () => undefined } });
  try {
    const headers = key ? { authorization: `Bearer ${key}` } : {};
    const res = await request(url, { dispatcher, headers });
    return { status: res.statusCode, text: await res.body.text() };
  } finally {
    await dispatcher.close();
  }
}

describe.skipIf(!lanAddress)(
  'the mock on all interfaces (skipped: this machine has no non-loopback IPv4 address)',
  () => {
    test('`npm run mock -- --host 0.0.0.0`: the API answers another address, the control path only loopback, and it says so', async () => {
      const dataDir = tempDir('agent-console-mock-remote-');
      const child: ChildProcess = spawn(
        process.execPath,
        ['bin/agent-console.js', 'mock', '--host', '0.0.0.0', '--data-dir', dataDir, '--quiet'],
        { stdio: ['ignore', 'pipe', 'pipe'] },
      );
      cleanups.push(() => removeDir(dataDir));
      cleanups.push(
        () =>
          new Promise<void>((done) => {
            if (child.exitCode !== null) return done();
            child.once('exit', () => done());
            child.kill('SIGTERM');
          }),
      );
      let stderr = '';
      child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
      const line = await new Promise<string>((resolve, reject) => {
        let out = '';
        child.stdout?.on('data', (d: Buffer) => {
          out += d.toString();
          if (out.includes('\n')) resolve(out.split('\n')[0] ?? '');
        });
        child.once('exit', (code) => reject(new Error(`the mock exited (${code}): ${stderr}`)));
      });
      const { baseUrl, caCertPath, keys, controlToken } = JSON.parse(line) as {
        baseUrl: string;
        caCertPath: string;
        keys: Record<string, string>;
        controlToken: string;
      };
      const { readFileSync } = await import('node:fs');
      const ca = readFileSync(caCertPath, 'utf8');
      const port = new URL(baseUrl).port;
      const remote = `https://${lanAddress}:${port}`;

      expect((await get(`${remote}/api/v1/health`, ca, keys.pro)).status).toBe(200);
      // The loopback rule comes first: another machine is refused as such, token or not.
      const refused = await get(`${remote}/__control/state`, ca, controlToken);
      expect(refused.status).toBe(403);
      expect((await get(`${remote}/__control/state`, ca)).status).toBe(403);
      expect(refused.text).toContain('answers this machine only');
      expect(refused.text).toContain('--allow-remote-control');
      // Percent-encoding the path does not get around it: the matched route decides.
      expect((await get(`${remote}/%5F_control/state`, ca)).status).not.toBe(200);
      expect((await get(`https://127.0.0.1:${port}/__control/state`, ca, controlToken)).status).toBe(200);
      expect((await get(`https://127.0.0.1:${port}/__control/state`, ca)).status).toBe(401);
      await expect.poll(() => stderr).toContain('the control path (/__control) answers this machine only');
    }, 60_000);

    test('with allowRemoteControl (--allow-remote-control) the control path answers other addresses too, with its token only', async () => {
      const dataDir = tempDir('agent-console-mock-remote-');
      const server: MockServer = await startMockServer({
        dataDir,
        host: '0.0.0.0',
        allowRemoteControl: true,
      });
      cleanups.push(() => removeDir(dataDir));
      cleanups.push(() => server.close());
      const port = new URL(server.baseUrl).port;
      const remote = `https://${lanAddress}:${port}/__control/state`;
      expect((await get(remote, server.ca, server.controlToken)).status).toBe(200);
      expect((await get(remote, server.ca)).status).toBe(401);
    });
  },
);
