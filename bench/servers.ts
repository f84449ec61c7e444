// Runs in a child process so the load generator and the servers don't share a thread: the mock
// (limits not enforced, so every reply is a real 200) and a bare node:https hello-world on the
// same certificate, and a bare Fastify hello-world. Prints one JSON line with their addresses.
import { createServer, request as httpsRequest } from 'node:https';
import Fastify from 'fastify';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startMockServer } from '../mock/server';
import { loadOrCreateTls } from '../mock/cert';
import { STREAM_DONE } from '../shared/api';

const dataDir = mkdtempSync(join(tmpdir(), 'agent-console-bench-'));
const mock = await startMockServer({ dataDir });
mock.service.faults.enforceRateLimits = false;
for (const agent of mock.service.state.agents) {
  Object.assign(agent.tuning, { latencyMs: 0, chunkDelayMs: 0 });
}
mock.control.setAgent('storyteller', { chunkCount: 20_000 });

const tls = await loadOrCreateTls(dataDir);
const hello = JSON.stringify({ hello: 'world' });
// The same bytes the mock sends for GET /api/v1/agents, to separate payload cost from the mock's own.
const agentsBody = JSON.stringify({
  agents: mock.service.state.agents.map(({ tuning: _t, ...agent }) => agent),
  total: mock.service.state.agents.length,
  has_more: false,
});
// The storyteller's 20,000 frames exactly as the mock sends them (asked of the mock once, before
// the run), for a bare server that writes them in 16 KB writes: the floor under the mock's unpaced
// SSE emission. The same text matters: the story carries multi-byte characters, and encoding them
// is part of what any server sending these bytes pays.
const storyText = await new Promise<string>((resolve, reject) => {
  const body = JSON.stringify({ agent: 'storyteller', message: 'bench', stream: true });
  const req = httpsRequest(
    `${mock.baseUrl}/api/v1/chat`,
    {
      method: 'POST',
      ca: tls.ca,
      headers: { authorization: `Bearer ${mock.keys.pro}`, 'content-type': 'application/json' },
    },
    (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (piece: string) => (text += piece));
      res.on('end', () => resolve(text.slice(0, text.lastIndexOf(`data: ${STREAM_DONE}\n\n`))));
      res.on('error', reject);
    },
  );
  req.on('error', reject);
  req.end(body);
});
// Cut at frame boundaries (a 16 KB cut by string index could split a surrogate pair).
const writes: string[] = [''];
for (const frame of storyText.split(/(?<=\n\n)/)) {
  if ((writes.at(-1) as string).length >= 16 * 1024) writes.push('');
  writes[writes.length - 1] += frame;
}
const bare = createServer({ key: tls.key, cert: tls.cert }, (req, res) => {
  if (req.url === '/sse') {
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    for (const text of writes) res.write(text);
    res.end(`data: ${STREAM_DONE}\n\n`);
    return;
  }
  const body = req.url === '/agents' ? agentsBody : hello;
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
  res.end(body);
});
await new Promise<void>((resolve) => bare.listen(0, '127.0.0.1', resolve));
const address = bare.address();
const barePort = typeof address === 'object' && address ? address.port : 0;

const fastify = Fastify({ https: { key: tls.key, cert: tls.cert }, logger: false });
fastify.get('/', async () => ({ hello: 'world' }));
// Fastify sending the mock's /agents bytes: what the mock's own work costs beyond Fastify's.
fastify.get('/agents', async (_req, reply) => reply.type('application/json').send(agentsBody));
await fastify.listen({ port: 0, host: '127.0.0.1' });
const fastifyAddress = fastify.server.address();
const fastifyPort = typeof fastifyAddress === 'object' && fastifyAddress ? fastifyAddress.port : 0;

process.stdout.write(
  `${JSON.stringify({
    mock: mock.baseUrl,
    bare: `https://127.0.0.1:${barePort}`,
    fastify: `https://127.0.0.1:${fastifyPort}`,
    ca: tls.ca,
    key: mock.keys.pro,
  })}\n`,
);
process.on('SIGTERM', () => process.exit(0));
