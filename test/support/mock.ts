// Starts the real mock over HTTPS in a fresh data dir and gives tests a real HTTP client
// (undici) that trusts the mock's CA: nothing that crosses HTTP is mocked.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, request, type Dispatcher } from 'undici';
import { afterAll, beforeAll } from 'vitest';
import type { Clock } from '../../shared/clock';
import type { ApiClientOptions } from '../../electron/core/api-client';
import { startMockServer, type MockServer } from '../../mock/server';

export interface TestMock {
  server: MockServer;
  dataDir: string;
  dispatcher: Agent;
  /** A request to the mock with `key` (a demo key name or a raw secret) as the bearer. */
  call(
    method: Dispatcher.HttpMethod,
    path: string,
    options?: { key?: string | null; body?: unknown; rawBody?: string; headers?: Record<string, string> },
  ): Promise<{ status: number; headers: Record<string, string>; text: string; json: unknown }>;
  /** A request to the control path (`path` under /__control) with the mock's control token. */
  control(
    method: Dispatcher.HttpMethod,
    path: string,
    body?: unknown,
  ): Promise<{ status: number; headers: Record<string, string>; text: string; json: unknown }>;
  stop(): Promise<void>;
}

export function tempDir(prefix = 'agent-console-test-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

export async function startTestMock(
  options: { clock?: Clock; chatTimeoutMs?: number; dataDir?: string } = {},
): Promise<TestMock> {
  const dataDir = options.dataDir ?? tempDir();
  const server = await startMockServer({ dataDir, ...options });
  const dispatcher = new Agent({ connect: { ca: server.ca } });
  const keyFor = (key: string | null | undefined): string | undefined => {
    if (key === null) return undefined;
    const name = key ?? 'pro';
    return name in server.keys ? server.keys[name as keyof typeof server.keys] : name;
  };
  const mock: TestMock = {
    server,
    dataDir,
    dispatcher,
    control(method, path, body) {
      return mock.call(method, `/__control${path}`, {
        key: server.controlToken,
        ...(body !== undefined ? { body } : {}),
      });
    },
    async call(method, path, opts = {}) {
      const secret = keyFor(opts.key);
      const headers: Record<string, string> = { ...opts.headers };
      if (secret !== undefined) headers.authorization = `Bearer ${secret}`;
      let body: string | undefined = opts.rawBody;
      if (opts.body !== undefined) {
        body = JSON.stringify(opts.body);
        headers['content-type'] ??= 'application/json';
      }
      const res = await request(`${server.baseUrl}${path}`, { method, headers, body, dispatcher });
      const text = await res.body.text();
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch {
        json = undefined;
      }
      return { status: res.statusCode, headers: res.headers as Record<string, string>, text, json };
    },
    async stop() {
      await server.close();
      await dispatcher.close();
    },
  };
  return mock;
}

/**
 * The mock of a test file (or of a describe block): started before its tests with `options` and
 * handed to `started`, then stopped and its folder removed after them.
 */
export function withTestMock(
  started: (mock: TestMock) => void,
  options: Parameters<typeof startTestMock>[0] = {},
): void {
  let mock: TestMock | undefined;
  beforeAll(async () => {
    mock = await startTestMock(options);
    started(mock);
  });
  afterAll(async () => {
    if (!mock) return;
    await mock.stop();
    removeDir(mock.dataDir);
  });
}

/**
 * What an ApiClient needs to reach `server` with `key`: a demo key's name (its secret is sent) or a
 * raw secret, which is also the key's id.
 */
export function mockConnection(
  server: MockServer,
  key: string,
): Pick<ApiClientOptions, 'baseUrl' | 'ca' | 'keyId' | 'secret'> {
  const secret = server.keys[key as keyof typeof server.keys] ?? key;
  return { baseUrl: server.baseUrl, ca: server.ca, keyId: key, secret: async () => secret };
}

/** Node's arguments that run `npm run mock` from source, quietly, on `mockDir`: no build needed. */
export function standaloneMockArgs(mockDir: string): string[] {
  return ['--import', 'tsx', 'electron/cli/mock-serve.ts', '--data-dir', mockDir, '--quiet'];
}

export function removeDir(dir: string): void {
  // A process just told to stop may still be writing its last state file: retry ENOTEMPTY a few times.
  rmSync(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
}
