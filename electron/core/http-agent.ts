// undici's Agent, request() and error classes, without the rest of undici. Importing
// undici's index evaluates everything undici offers: fetch, WebSocket, EventSource, the cache and
// cookie APIs (whose cookies load Node's own copy of undici as well), the mock agents. That was
// ~30 ms of CPU in every CLI call and every start of the web host and the app (measured: the CLI's
// `agents --json` against a running mock, 206–212 → 179 ms). These are undici's own modules, wired
// as its index wires them. undici has no `exports` map, and the lockfile pins the version: a
// release that moves these files fails the build, not a user.
import type { Agent as AgentInstance, Dispatcher } from 'undici';
import UndiciAgent from 'undici/lib/dispatcher/agent.js';
import UndiciProxyAgent from 'undici/lib/dispatcher/proxy-agent.js';
import UndiciDispatcher from 'undici/lib/dispatcher/dispatcher.js';
import api from 'undici/lib/api/index.js';
import undiciErrors from 'undici/lib/core/errors.js';
import type { ClientCertificateTls } from './client-certificate';
import type { ProxyChoice } from './proxy';
import { trustFor } from './trust-store';

// What undici's index does on import: request() (and stream(), pipeline()…) on every dispatcher.
Object.assign(UndiciDispatcher.prototype, api);

export const Agent = UndiciAgent;
export type Agent = AgentInstance;
export const errors = undiciErrors;

/**
 * Connections to one service: direct, or through `proxy` — a CONNECT tunnel for https://, so TLS
 * runs from here to the service, checked against the bundled and the system's roots and `ca`
 * when given (trust-store.ts), with the profile's client certificate when it has one. Credentials
 * in the proxy's URL become its Proxy-Authorization.
 */
export function dispatcherFor(options: {
  ca?: string;
  proxy?: ProxyChoice | undefined;
  clientCert?: ClientCertificateTls | undefined;
}): Dispatcher {
  const tls = { secureContext: trustFor(options.ca, options.clientCert) };
  return options.proxy
    ? new UndiciProxyAgent({ uri: options.proxy.url.href, requestTls: tls })
    : new UndiciAgent({ connect: tls });
}

/** undici's request() on `dispatcher`, to a URL. */
export function request(
  dispatcher: Dispatcher,
  url: URL | string,
  options: Omit<Dispatcher.RequestOptions, 'origin' | 'path'>,
): Promise<Dispatcher.ResponseData> {
  const target = typeof url === 'string' ? new URL(url) : url;
  return dispatcher.request({
    ...options,
    origin: target.origin,
    path: `${target.pathname}${target.search}`,
  });
}
