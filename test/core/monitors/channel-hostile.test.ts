// Receivers no channel should trust, on a local server: one that never answers, one that answers
// 500, one that streams its answer without end, and Discord's 429 with `retry_after`. Each costs a
// bounded wait and a bounded read, ends in words naming the receiver's host only, and never holds
// up the monitor: its checks go on while a delivery hangs, and stopping it ends the wait at once.
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { systemClock } from '../../../shared/clock';
import type { MonitorNotification } from '../../../shared/monitor';
import { ChannelDispatch } from '../../../electron/core/monitors/channels/channel-dispatch';
import { createMemorySecretStore } from '../../../electron/core/secret-store';
import { watchProduction, watchService } from '../../support/watched-service';

let server: Server;
let base: string;
const hits = new Map<string, number[]>();
const bodies = new Map<string, string[]>();
/** Bytes an endless answer got out before the client dropped it, by path. */
const streamed = new Map<string, number>();
const hanging = new Set<ServerResponse>();
/** Endless answers whose connection the client closed. */
const dropped = new Set<string>();

function endless(res: ServerResponse, path: string, status: number): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  const chunk = Buffer.alloc(64 * 1024, 'x');
  let sent = 0;
  const pump = (): void => {
    while (!res.destroyed) {
      const more = res.write(chunk);
      sent += chunk.length;
      if (!more) break;
    }
    streamed.set(path, sent);
  };
  res.on('drain', pump);
  res.on('close', () => {
    streamed.set(path, sent);
    dropped.add(path);
  });
  pump();
}

beforeAll(async () => {
  server = createServer((req, res) => {
    const path = req.url ?? '';
    let body = '';
    req.on('data', (d: Buffer) => (body += d.toString()));
    req.on('end', () => {
      hits.set(path, [...(hits.get(path) ?? []), Date.now()]);
      bodies.set(path, [...(bodies.get(path) ?? []), body]);
      if (path.startsWith('/hang')) hanging.add(res);
      else if (path === '/500') res.writeHead(500).end('{"error":"down"}');
      else if (path === '/endless') endless(res, path, 200);
      else if (path === '/endless-500') endless(res, path, 500);
      else if (path === '/discord-limited' && (hits.get(path)?.length ?? 0) === 1)
        res
          .writeHead(429, { 'content-type': 'application/json', 'retry-after': '9' })
          .end('{"message":"You are being rate limited.","retry_after":1.2,"global":false}');
      else res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  for (const res of hanging) res.destroy();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const notification = (body = 'Production: GET /health answered 503.'): MonitorNotification => ({
  monitorId: 'production',
  monitorName: 'Production',
  from: 'healthy',
  to: 'unhealthy',
  at: Date.parse('2026-11-02T09:00:00Z'),
  title: 'Service unhealthy',
  body,
  desktop: false,
});

const dispatch = (timeoutMs?: number) =>
  new ChannelDispatch({
    secrets: createMemorySecretStore(),
    sleep: (ms, signal) => systemClock.sleep(ms, signal),
    ...(timeoutMs !== undefined ? { timeoutMs } : {}),
  });

const webhook = (path: string) => ({
  kind: 'webhook' as const,
  url: `${base}${path}`,
  format: 'json' as const,
});

describe('a receiver that misbehaves', () => {
  test('one that never answers: each attempt ends at the timeout, and the error names its host only', async () => {
    const started = Date.now();
    const outcome = await dispatch(400).test([webhook('/hang/secret-path-token')], notification(), 'x');
    expect(Date.now() - started).toBeLessThan(6000);
    expect(hits.get('/hang/secret-path-token')).toHaveLength(3);
    expect(outcome).toEqual({
      delivered: 0,
      failures: [`The webhook at ${base}/… did not take the notification (no answer within 0.4 s).`],
    });
  });

  test('one that answers 500: tried three times, then said in words', async () => {
    const outcome = await dispatch().test([webhook('/500')], notification(), 'x');
    expect(hits.get('/500')).toHaveLength(3);
    expect(outcome.failures).toEqual([`The webhook at ${base}/… did not take the notification (HTTP 500).`]);
  });

  test('one that streams its answer without end: taken at its 200, read no further', async () => {
    const started = Date.now();
    const outcome = await dispatch().test([webhook('/endless')], notification(), 'x');
    expect(outcome).toEqual({ delivered: 1, failures: [] });
    expect(Date.now() - started).toBeLessThan(5000);
    // The client hung up: what was sent is what the socket buffers hold, not a stream read to its end.
    await expect.poll(() => dropped.has('/endless')).toBe(true);
    expect(streamed.get('/endless')).toBeLessThan(16 * 1024 * 1024);
  });

  test('a 500 streamed without end: each attempt read no further, then said in words', async () => {
    const outcome = await dispatch().test([webhook('/endless-500')], notification(), 'x');
    expect(outcome.failures).toEqual([`The webhook at ${base}/… did not take the notification (HTTP 500).`]);
    expect(hits.get('/endless-500')).toHaveLength(3);
    expect(streamed.get('/endless-500')).toBeLessThan(16 * 1024 * 1024);
  });
});

describe('Discord', () => {
  test('a 429 is retried after the retry_after it asks for', async () => {
    const outcome = await dispatch()
      .test([{ kind: 'discord', url: { env: 'TEST_DISCORD_LIMITED' } }], notification(), 'x')
      .catch((error: unknown) => ({ delivered: 0, failures: [String(error)] }));
    // No variable: said in words, nothing sent.
    expect(outcome.failures).toEqual([
      'The environment variable TEST_DISCORD_LIMITED (a Discord webhook URL) is not set.',
    ]);
    process.env.TEST_DISCORD_LIMITED = `${base}/discord-limited`;
    try {
      const sent = await dispatch().test(
        [{ kind: 'discord', url: { env: 'TEST_DISCORD_LIMITED' } }],
        notification(),
        'x',
      );
      expect(sent).toEqual({ delivered: 1, failures: [] });
    } finally {
      delete process.env.TEST_DISCORD_LIMITED;
    }
    const [first, second] = hits.get('/discord-limited') ?? [];
    // 1.2 s as the body asks (not the header's 9 s, nor the 0.5 s a 5xx would wait).
    expect((second as number) - (first as number)).toBeGreaterThanOrEqual(1150);
    expect((second as number) - (first as number)).toBeLessThan(5000);
  });

  test('a long message is cut to Discord’s limits: 2,000 characters of content, 4,096 of description', async () => {
    process.env.TEST_DISCORD = `${base}/discord`;
    try {
      await dispatch().test(
        [{ kind: 'discord', url: { env: 'TEST_DISCORD' } }],
        { ...notification(`Production: ${'é🙂'.repeat(5000)}`), monitorName: 'M'.repeat(2500) },
        'x',
      );
    } finally {
      delete process.env.TEST_DISCORD;
    }
    const payload = JSON.parse(bodies.get('/discord')?.[0] ?? '{}') as {
      content: string;
      embeds: { description: string; fields: { value: string }[] }[];
    };
    expect(payload.content).toHaveLength(2000);
    expect(payload.content.endsWith('…')).toBe(true);
    const description = payload.embeds[0]?.description ?? '';
    expect(description.length).toBeLessThanOrEqual(4096);
    expect(description.endsWith('🙂…') || description.endsWith('é…')).toBe(true);
    expect(payload.embeds[0]?.fields.every((f) => f.value.length <= 1024)).toBe(true);
  });
});

test('a monitor whose channel hangs goes on checking, and stopping it ends the wait at once', async () => {
  const watched = await watchService('Production');
  try {
    process.env.TEST_TEAMS_HANG = `${base}/hang/teams`;
    const monitor = await watchProduction(watched, {
      webhooks: [{ kind: 'teams', url: { env: 'TEST_TEAMS_HANG' } }],
    });
    watched.mock.server.control.setHealth({ api: 'down' });
    await monitor.health.checkNow();
    await monitor.health.checkNow();
    expect(monitor.currentStatus()).toBe('unhealthy');
    await expect.poll(() => hits.get('/hang/teams')?.length ?? 0).toBe(1);
    // The delivery hangs; the checks do not wait for it.
    watched.mock.server.control.setHealth({ api: 'operational' });
    await monitor.health.checkNow();
    await monitor.health.checkNow();
    expect(monitor.currentStatus()).toBe('healthy');
    const started = Date.now();
    await watched.core.monitors.stop();
    expect(Date.now() - started).toBeLessThan(2000);
  } finally {
    delete process.env.TEST_TEAMS_HANG;
    await watched.close();
  }
}, 30_000);
