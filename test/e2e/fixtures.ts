// Each e2e test gets its own data dir, an embedded mock and a web host on 127.0.0.1.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { test as base } from '@playwright/test';
import { startMockServer, type MockServer } from '../../mock/server';
import { startWebHost, type WebHost } from '../../electron/web-host/server';

interface AppFixtures {
  mock: MockServer;
  host: WebHost;
}

export const test = base.extend<AppFixtures>({
  // eslint-disable-next-line no-empty-pattern
  mock: async ({}, use) => {
    const dataDir = mkdtempSync(join(tmpdir(), 'agent-console-e2e-'));
    const mock = await startMockServer({ dataDir: join(dataDir, 'mock') });
    await use(mock);
    await mock.close();
    rmSync(dataDir, { recursive: true, force: true });
  },
  host: async ({ mock: _mock }, use) => {
    const host = await startWebHost({ rendererDir: resolve('out/renderer') });
    await use(host);
    await host.close();
  },
});

export const expect = test.expect;

export function screenshotPath(name: string): string {
  return resolve('test-results', 'screenshots', `${name}.png`);
}
