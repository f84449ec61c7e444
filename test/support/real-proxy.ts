// A real HTTP proxy for the tests (the `proxy` package): CONNECT tunnels and Basic proxy
// authentication, with what it was asked and every byte a client sent it kept for the test to read.
import { Buffer } from 'node:buffer';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { createProxy } from 'proxy';

export const PROXY_USER = 'alice';
export const PROXY_PASSWORD = 'proxy-pw-7c1d9e2f4a';

export interface RealProxy {
  url(credentials?: string): string;
  /** CONNECT targets asked for, in order (host:port). */
  tunnels: string[];
  /** Every byte a client sent to the proxy: CONNECT lines, headers and the tunnelled TLS. */
  wire(): string;
  close(): Promise<void>;
}

/** A proxy that asks for PROXY_USER and PROXY_PASSWORD; `open`, one that asks nothing. */
export async function startProxy(options: { open?: boolean } = {}): Promise<RealProxy> {
  const server = createProxy(createServer());
  const expected = `Basic ${Buffer.from(`${PROXY_USER}:${PROXY_PASSWORD}`).toString('base64')}`;
  if (!options.open) server.authenticate = (req) => req.headers['proxy-authorization'] === expected;
  const tunnels: string[] = [];
  const received: Buffer[] = [];
  server.on('connect', (req: IncomingMessage) => tunnels.push(req.url ?? ''));
  // Tunnels leave the HTTP server's keeping once they are made: closing it ends them here.
  const sockets = new Set<Socket>();
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('data', (chunk: Buffer) => received.push(chunk));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: (credentials = `${PROXY_USER}:${PROXY_PASSWORD}`) => `http://${credentials}@127.0.0.1:${port}`,
    tunnels,
    wire: () => Buffer.concat(received).toString('latin1'),
    close: () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
