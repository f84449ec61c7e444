// `npm run bench`: prints a table of performance figures (docs/performance.md). Each part of the console
// adds its rows here; nothing in `npm test` depends on timing.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import autocannon from 'autocannon';
import { Agent, request } from 'undici';
import { conversationListFigures } from './browsers';
import { limiterFigure, streamingClientFigure } from './core';
import { durabilityFigures } from './durability';
import { sessionMemoryFigure } from './edges';
import { healthMemoryFigure } from './health';
import { historyFigures } from './history';
import { loadFigures } from './load';
import { monitorMetricsFigures } from './monitor-metrics';
import { monitorLatenessFigures } from './monitors';
import { packagingFigures } from './packaging';
import { playgroundFigures } from './playground';
import { bundleFigure, firstScreenFigure } from './renderer';
import { judgedSuiteRunFigures, suiteRunFigures } from './suites';
import { median } from './timing';

interface Row {
  figure: string;
  value: string;
  note: string;
}
const rows: Row[] = [];
const DURATION_S = Number(process.env.BENCH_SECONDS ?? 5);

async function startServers() {
  const child = spawn(process.execPath, ['--import', 'tsx', 'bench/servers.ts'], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: child.stdout });
  const [line] = (await once(lines, 'line')) as [string];
  return {
    child,
    ...(JSON.parse(line) as { mock: string; bare: string; fastify: string; ca: string; key: string }),
  };
}

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);

async function throughput(
  url: string,
  headers: Record<string, string>,
  seconds = DURATION_S,
): Promise<number> {
  const result = await autocannon({ url, connections: 32, duration: seconds, headers, pipelining: 1 });
  if (result.non2xx > 0 || result.errors > 0) {
    throw new Error(`${url}: ${result.non2xx} non-2xx replies and ${result.errors} errors during the run`);
  }
  return result.requests.average;
}

const spread = (ratios: number[]): string => {
  const sorted = [...ratios].sort((a, b) => a - b).map((r) => r.toFixed(2));
  if (sorted.length <= 9) return `median of ${sorted.length} rounds, each ${sorted.join('/')}`;
  const at = (q: number): string => sorted[Math.floor((sorted.length - 1) * q)] as string;
  return `median of ${sorted.length} rounds, from ${at(0)} to ${at(1)}, middle half ${at(0.25)}–${at(0.75)}`;
};

/**
 * `a` against `b` in alternating rounds on this noisy 2-core machine: one pair's ratio swings by
 * ±30% from run to run, so each figure is the median of ROUNDS pairs measured back to back.
 */
async function pairedRatios(
  a: () => Promise<number>,
  b: () => Promise<number>,
  rounds = ROUNDS,
): Promise<{ a: number; b: number; ratio: number; ratios: number[] }> {
  await a(); // warm up both (JIT, TLS sessions) so neither is measured cold
  await b();
  const as: number[] = [];
  const bs: number[] = [];
  const ratios: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const x = await a();
    const y = await b();
    as.push(x);
    bs.push(y);
    ratios.push(x / y);
  }
  return { a: median(as), b: median(bs), ratio: median(ratios), ratios };
}

async function streamChunksPerSecond(url: string, key: string | undefined, ca: string): Promise<number> {
  const dispatcher = new Agent({ connect: { ca } });
  const started = performance.now();
  const res = key
    ? await request(url, {
        method: 'POST',
        dispatcher,
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ agent: 'storyteller', message: 'bench', stream: true }),
      })
    : await request(url, { dispatcher });
  let chunks = 0;
  let tail = '';
  for await (const piece of res.body) {
    const text = tail + (piece as Buffer).toString('utf8');
    const frames = text.split('\n\n');
    tail = frames.pop() ?? '';
    chunks += frames.filter((f) => f.startsWith('data: {')).length;
  }
  const seconds = (performance.now() - started) / 1000;
  await dispatcher.close();
  if (chunks !== 20_000) throw new Error(`${url}: ${chunks} chunks, expected 20,000`);
  return chunks / seconds;
}

const fmt = (n: number): string => Math.round(n).toLocaleString('en-US');

const servers = await startServers();
try {
  const auth = { authorization: `Bearer ${servers.key}` };
  for (const url of [`${servers.bare}/`, `${servers.fastify}/`, `${servers.mock}/api/v1/agents`]) {
    await autocannon({ url, connections: 32, duration: 1, headers: auth }); // warm up
  }
  const bare = await throughput(`${servers.bare}/`, {});
  const fastify = await throughput(`${servers.fastify}/`, {});
  const bareAgents = await throughput(`${servers.bare}/agents`, {});
  const agents = await pairedRatios(
    () => throughput(`${servers.mock}/api/v1/agents`, auth, 2),
    () => throughput(`${servers.fastify}/agents`, {}, 2),
  );
  const mockHealth = await throughput(`${servers.mock}/api/v1/health`, auth);
  rows.push(
    {
      figure: 'bare node:https hello-world',
      value: `${fmt(bare)} req/s`,
      note: `${DURATION_S}s, 32 connections, TLS`,
    },
    {
      figure: 'bare Fastify hello-world',
      value: `${fmt(fastify)} req/s`,
      note: `bare/Fastify = ${(bare / fastify).toFixed(2)}×`,
    },
    {
      figure: 'bare node:https, agents body',
      value: `${fmt(bareAgents)} req/s`,
      note: 'the same 2 KB the mock sends for /agents',
    },
    {
      figure: 'mock GET /api/v1/agents',
      value: `${fmt(agents.a)} req/s`,
      note: `bare Fastify with the same body ${fmt(agents.b)} req/s: mock/Fastify = ${agents.ratio.toFixed(2)}× (goal ≥ 0.8×; ${spread(agents.ratios)}, 2 s each)`,
    },
    {
      figure: 'mock GET /api/v1/health',
      value: `${fmt(mockHealth)} req/s`,
      note: `bare/mock = ${(bare / mockHealth).toFixed(2)}×, Fastify/mock = ${(fastify / mockHealth).toFixed(2)}× (goal ≤ 2×)`,
    },
  );
  // One stream is about 10 ms, so one pair swings by ±50% (a GC, a state save, the other core
  // busy): the median of many pairs, which cost well under a second.
  const sse = await pairedRatios(
    () => streamChunksPerSecond(`${servers.mock}/api/v1/chat`, servers.key, servers.ca),
    () => streamChunksPerSecond(`${servers.bare}/sse`, undefined, servers.ca),
    Number(process.env.BENCH_SSE_ROUNDS ?? 21),
  );
  rows.push({
    figure: 'mock streamed chunks',
    value: `${fmt(sse.a)} chunks/s`,
    note: `a stream of 20,000 chunks, no pacing, request to last byte; a bare server writing the same frames in 16 KB writes ${fmt(sse.b)} chunks/s: mock/bare = ${sse.ratio.toFixed(2)}× (goal ≥ 0.8×; ${spread(sse.ratios)})`,
  });
} finally {
  servers.child.kill('SIGTERM');
}
rows.push(
  await streamingClientFigure(),
  await limiterFigure(),
  await bundleFigure(),
  await firstScreenFigure(),
);
rows.push(...(await playgroundFigures()));
// 200 long replies in one session, then the session closed.
rows.push(await sessionMemoryFigure());
// After bundleFigure above, which builds the renderer these pages load.
rows.push(...(await conversationListFigures()));
// The core's memory over a simulated week of health polling.
rows.push(await healthMemoryFigure());
// Four tiers, ten streams and the health poller, for BENCH_LOAD_SECONDS.
rows.push(...(await loadFigures()));
// 120 suite exchanges on a tier-60 key, on the real clock: about a minute.
rows.push(...(await suiteRunFigures()));
rows.push(...(await judgedSuiteRunFigures()));
// Two monitors' checks on a key kept busy with streams: how late they go out, ~45 s.
rows.push(...(await monitorLatenessFigures()));
// 20 monitors after a year of history: the /metrics scrape, memory against a fresh start, ~3 min.
rows.push(...(await monitorMetricsFigures()));

rows.push(...(await durabilityFigures()));
rows.push(...(await historyFigures()));
// The packaged app's size, the CLI's start, the web host's first page.
rows.push(...(await packagingFigures()));

const widths = [0, 1, 2].map((i) =>
  Math.max(
    ...[['figure', 'value', 'note'][i] as string, ...rows.map((r) => Object.values(r)[i] as string)].map(
      (s) => s.length,
    ),
  ),
);
const line = (cells: string[]): string =>
  `| ${cells.map((c, i) => c.padEnd(widths[i] as number)).join(' | ')} |`;
console.log(line(['figure', 'value', 'note']));
console.log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
for (const r of rows) console.log(line([r.figure, r.value, r.note]));
