// The headless monitor against the hostile server, as on a server: `agent-console monitor --config
// monitors.yaml --metrics 127.0.0.1:PORT`, the key in AGENT_API_KEY (`service.keyEnv`'s default),
// a synthetic check from a suite file, and webhooks to a receiver of our own. Its stdout and stderr,
// the webhook bodies, /metrics and every file in its data folder hold no 12-character run of the
// key, whether the server wrote it plainly, JSON-escaped or over HTTPS (`ca:`) — nor does its status
// page, served at /status and kept in a folder, with what failed shown or not. A second monitor
// and a third meet a health report and a chat reply nested 100,000 deep, and a 300 MB health
// report: each stays up, serves /metrics, stays under 200 MB of memory, and records the failure.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { removeDir, tempDir } from '../support/mock';
import { startHostileServer, type HostileServer } from './hostile-server';
import { makeTls } from './hostile-tls';
import { startMonitorProcess, type MonitorProcess } from './hostile-processes';
import { fileLeaks, journal, leaks, tail, until, watchRss, type Secret } from './hostile-support';
import { plantKey } from './leak-check';

const KEY = plantKey('hk6');
const SECRETS: Secret[] = [{ name: 'KEY', value: KEY }];
let dir: string;
let http: HostileServer;
let https: HostileServer;
let receiver: Server;
/** Webhook POST bodies by path. */
const hooks: { path: string; body: string }[] = [];
let leaky: MonitorProcess;
let nested: MonitorProcess;
let huge: MonitorProcess;
let rss: ReturnType<typeof watchRss>;

const SUITE = `name: Echo check
cases:
  - name: says pong
    message: ping
    assert:
      - contains: pong
  - name: whole reply
    stream: false
    message: ping
    assert:
      - equals: pong
`;

function monitorsFile(monitors: Record<string, unknown>[]): string {
  return `${JSON.stringify({ monitors }, null, 2)}\n`;
}

beforeAll(async () => {
  dir = tempDir('agent-console-hostile-monitor-');
  const tls = await makeTls();
  [http, https] = await Promise.all([startHostileServer(), startHostileServer({ tls })]);
  receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (d: Buffer) => (body += d.toString()));
    req.on('end', () => {
      hooks.push({ path: req.url ?? '', body });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const hook = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  const caFile = join(dir, 'hostile-ca.pem');
  writeFileSync(caFile, tls.ca);
  writeFileSync(join(dir, 'echo-check.yaml'), SUITE);
  mkdirSync(join(dir, 'status-page'));
  const watched = (name: string, service: Record<string, unknown>) => ({
    name,
    service,
    health: { every: '10s' },
    synthetic: { every: '1h', suite: 'echo-check.yaml' },
    notify: {
      webhooks: [
        { url: `${hook}/json/${name}`, format: 'json' },
        { url: `${hook}/slack/${name}`, format: 'slack' },
      ],
    },
  });
  // YAML is a superset of JSON: the files are written as JSON.
  writeFileSync(
    join(dir, 'leaks.yaml'),
    monitorsFile([
      { ...watched('Plain', { baseUrl: http.url('plain') }), public: { 'show-errors': true } },
      { ...watched('Escaped', { baseUrl: http.url('escaped'), keyEnv: 'AGENT_API_KEY' }), public: true },
      {
        ...watched('Secure', { baseUrl: https.url('u005f'), ca: caFile }),
        public: { 'show-errors': true },
      },
    ]),
  );
  const once = (name: string, mode: 'nested' | 'huge') => ({
    name,
    service: { baseUrl: http.url(mode) },
    health: { every: '1h' },
    // 300 MB once is enough: the huge monitor meets it in its health poll only.
    ...(mode === 'nested' ? { synthetic: { every: '1h', message: 'hello', stream: false } } : {}),
  });
  // One process each, so that one's end does not hide what the other does.
  writeFileSync(join(dir, 'nested.yaml'), monitorsFile([once('Nested', 'nested')]));
  writeFileSync(join(dir, 'huge.yaml'), monitorsFile([once('Huge', 'huge')]));
  [leaky, nested, huge] = await Promise.all([
    startMonitorProcess(join(dir, 'leaks.yaml'), join(dir, 'leaks-data'), KEY, {}, [
      '--status-page',
      join(dir, 'status-page'),
      '--status-every',
      '1',
    ]),
    startMonitorProcess(join(dir, 'nested.yaml'), join(dir, 'nested-data'), KEY),
    startMonitorProcess(join(dir, 'huge.yaml'), join(dir, 'huge-data'), KEY),
  ]);
  rss = watchRss(huge.child.pid as number);
}, 60_000);

afterAll(async () => {
  rss?.stop();
  await Promise.all([leaky?.stop(), nested?.stop(), huge?.stop()]);
  await Promise.all([http?.close(), https?.close()]);
  await new Promise((resolve) => (receiver ? receiver.close(resolve) : resolve(undefined)));
  if (dir) removeDir(dir);
});

describe('a headless monitor watching the hostile server', () => {
  test('stdout, stderr, webhooks, /metrics and every file in its data folder hold no part of the key', async () => {
    const data = join(dir, 'leaks-data');
    const ids = ['plain', 'escaped', 'secure'];
    // The checks at start: each monitor's poll and synthetic check recorded, and told to the webhooks.
    await until(
      `a health sample and a synthetic result from each monitor, and their webhooks (${leaky.stderr()})`,
      () => {
        if (leaky.ended()) throw new Error(`the monitor ended (${leaky.ended()}): ${leaky.stderr()}`);
        const recorded = ids.every(
          (id) =>
            journal(join(data, 'monitors', id, 'health.jsonl')).lines.length > 1 &&
            journal(join(data, 'monitors', id, 'synthetic.jsonl')).lines.length > 1,
        );
        const told = ['Plain', 'Escaped', 'Secure'].every((name) =>
          hooks.some((h) => h.path.endsWith(`/${name}`)),
        );
        return recorded && told ? true : undefined;
      },
      45_000,
    );
    const metrics = await (await fetch(`${leaky.metricsUrl}/metrics`)).text();
    // The status page follows within its second: each public monitor on it, with what it met.
    const status = await until('the status page with every monitor checked', async () => {
      const page = await (await fetch(`${leaky.metricsUrl}/status.json`)).text();
      const shown = (JSON.parse(page) as { monitors: { level: string }[] }).monitors;
      return shown.length === 3 && shown.every((m) => m.level !== 'no-data') ? page : undefined;
    });
    const statusHtml = await (await fetch(`${leaky.metricsUrl}/status`)).text();
    expect.soft(statusHtml).toContain('<h3>Escaped</h3>');
    expect.soft(readFileSync(join(dir, 'status-page', 'index.html'), 'utf8')).toContain('<h3>Plain</h3>');
    expect.soft(readFileSync(join(dir, 'status-page', 'status.json'), 'utf8')).toContain('"Secure"');
    expect.soft(metrics).toContain('agent_console_monitor_status{monitor="Plain"');
    expect
      .soft(http.requests.filter((r) => r.bearer === KEY && r.path === 'chat').length)
      .toBeGreaterThanOrEqual(4);
    expect
      .soft(https.requests.filter((r) => r.bearer === KEY && r.path === 'health').length)
      .toBeGreaterThanOrEqual(1);
    expect([
      ...leaks('stdout', leaky.stdout(), SECRETS),
      ...leaks('stderr', leaky.stderr(), SECRETS),
      ...hooks.flatMap((h) => leaks(`webhook ${h.path}`, h.body, SECRETS)),
      ...leaks('/metrics', metrics, SECRETS),
      ...leaks('/status.json', status, SECRETS),
      ...leaks('/status', statusHtml, SECRETS),
      ...fileLeaks(data, SECRETS),
      ...fileLeaks(join(dir, 'status-page'), SECRETS),
    ]).toEqual([]);
  }, 60_000);
});

/** The last line of a journal, and the file's size. */
const lastLine = (j: { lines: string[]; bytes: number }): string =>
  `${j.lines.at(-1) ?? '(nothing)'} [${(j.bytes / 1048576).toFixed(1)} MB]`;

async function stillServing(monitor: MonitorProcess): Promise<void> {
  expect.soft(monitor.ended(), `stderr: ${tail(monitor.stderr())}`).toBeNull();
  const scraped = await fetch(`${monitor.metricsUrl}/metrics`).then(
    (r) => r.status,
    (e: unknown) => String(e),
  );
  expect.soft(scraped, '/metrics').toBe(200);
}

describe('a headless monitor meeting replies no client should take in', () => {
  test('a health report and a chat reply nested 100,000 deep: it stays up and records each failure', async () => {
    const data = join(dir, 'nested-data', 'monitors', 'nested');
    const results = () => ({
      health: journal(join(data, 'health.jsonl')),
      synthetic: journal(join(data, 'synthetic.jsonl')),
    });
    // Each journal's first line is its header: a result is a second line.
    await until(
      'a result of each check, or the monitor gone',
      () => (nested.ended() || Object.values(results()).every((j) => j.lines.length > 1) ? true : undefined),
      30_000,
    ).catch(() => undefined);
    await stillServing(nested);
    const seen = results();
    expect.soft(lastLine(seen.health), 'health.jsonl').toMatch(/"e":"/);
    expect(lastLine(seen.synthetic), 'synthetic.jsonl').toMatch(/nested/i);
  }, 60_000);

  test('a 300 MB health report: it stays up, under 200 MB, and records the failure', async () => {
    const file = join(dir, 'huge-data', 'monitors', 'huge', 'health.jsonl');
    await until(
      'a result of the poll, or the monitor gone',
      () => (huge.ended() || journal(file).lines.length > 1 ? true : undefined),
      75_000,
    ).catch(() => undefined);
    rss.stop();
    await stillServing(huge);
    const seen = journal(file);
    expect.soft(rss.max(), 'the most memory (VmRSS, MB) the monitor held').toBeLessThan(200);
    expect.soft(seen.bytes, 'health.jsonl bytes').toBeLessThan(1024 * 1024);
    expect(lastLine(seen), 'health.jsonl').toMatch(/"e":"/);
  }, 110_000);
});
