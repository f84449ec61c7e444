// A loopback server that does what a hostile or careless service does with the key it receives:
// echoes it back in 401 bodies (JSON and plain text), in stream error events, and in streamed
// content split across two chunks at a chosen offset. It records every Authorization it saw.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface EchoServer {
  baseUrl: string;
  /** Every bearer token received, in order. */
  bearers: string[];
  close(): Promise<void>;
}

const json = (body: unknown) => JSON.stringify(body);

async function readBody(req: IncomingMessage): Promise<string> {
  let text = '';
  for await (const piece of req) text += String(piece);
  return text;
}

export async function startEchoServer(): Promise<EchoServer> {
  const bearers: string[] = [];
  const server: Server = createServer((req, res) => {
    void (async () => {
      const key = (req.headers.authorization ?? '').replace(/^Bearer /, '');
      if (key) bearers.push(key);
      const body = await readBody(req);
      // A generous tier, so the key's limiter does not pace the suite's many requests.
      res.setHeader('x-ratelimit-limit', '300');
      res.setHeader('x-ratelimit-remaining', '299');
      if (req.url?.endsWith('/health')) {
        res.writeHead(401, { 'content-type': 'text/plain' });
        res.end(`Unauthorized: key ${key} is not valid here`);
        return;
      }
      const message = String((JSON.parse(body || '{}') as { message?: unknown }).message ?? '');
      if (message === 'json401') {
        res.writeHead(401, { 'content-type': 'application/json', 'x-request-id': `req_${key}` });
        res.end(
          json({
            error: {
              code: 'invalid_key',
              type: 'authentication_error',
              message: `Incorrect API key provided: ${key}`,
              request_id: `req_${key}`,
            },
          }),
        );
        return;
      }
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      if (message === 'stream-error') {
        res.end(
          `data: ${json({ content: 'ok ' })}\n\ndata: ${json({ error: { code: 'bad', message: `key ${key}` } })}\n\n`,
        );
        return;
      }
      // "split:<offset>": the key inside the reply, cut in two at that offset.
      const text = `Your key is ${key}, keep it safe.`;
      const at = Number(message.replace('split:', '')) || 0;
      res.write(`data: ${json({ content: text.slice(0, at) })}\n\n`);
      res.write(`: comment ${key}\n\n`);
      res.end(`data: ${json({ content: text.slice(at) })}\n\ndata: [DONE]\n\n`);
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    bearers,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
