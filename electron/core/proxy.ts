// Which HTTP proxy a request from the core goes through: the standard variables, as curl, Node
// and most command-line tools read them (docs/architecture.md, "Proxies").
//
// - `https_proxy`/`HTTPS_PROXY` for https:// services, `http_proxy`/`HTTP_PROXY` for http://
//   ones, then `all_proxy`/`ALL_PROXY` for both. Lower case wins over upper case, as in curl.
// - `no_proxy`/`NO_PROXY`: a comma- or space-separated list of `*`, host names (which match their
//   subdomains too, with or without a leading dot), IP addresses, CIDR ranges (`10.0.0.0/8`,
//   `fd00::/8`) and any of these with `:port`.
// - This computer (localhost, 127.x.x.x, ::1) is a host like any other, as in curl: a local
//   service goes direct when `no_proxy` names it (most company setups list `localhost,127.0.0.1`).
//   The embedded mock is part of the app and always direct (profile-clients.ts).
//
// A proxy carries HTTPS through a CONNECT tunnel, so the service's TLS — and the key inside it —
// runs end to end; the proxy sees only the host and port. Only http:// and https:// proxies are
// used; anything else is refused in words, never silently ignored.
import { BlockList, isIP } from 'node:net';

/** The environment variables the proxy choice reads; the process's by default. */
export type ProxyEnvironment = Readonly<Record<string, string | undefined>>;

export interface ProxyChoice {
  /** The proxy's URL as given, credentials included: for the dispatcher only. */
  url: URL;
  /** The proxy as shown (request log, errors): scheme, host and port, never credentials. */
  shown: string;
}

export class ProxySettingError extends Error {}

function variable(env: ProxyEnvironment, lower: string, upper: string): string | undefined {
  return env[lower]?.trim() || env[upper]?.trim() || undefined;
}

/** A proxy URL as the variable gives it; `proxy.example:3128` means http://. */
export function parseProxyUrl(value: string, from: string): ProxyChoice {
  let url: URL;
  try {
    url = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(value) ? value : `http://${value}`);
  } catch {
    throw new ProxySettingError(`${from} is not a proxy URL (expected http://host:port).`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ProxySettingError(
      `${from} names a ${url.protocol.slice(0, -1)} proxy; the console uses http:// and https:// proxies only.`,
    );
  }
  return { url, shown: `${url.protocol}//${url.host}` };
}

function bareHost(hostname: string): string {
  return hostname.replace(/^\[|\]$/g, '').toLowerCase();
}

function defaultPort(target: URL): string {
  return target.port || (target.protocol === 'https:' ? '443' : '80');
}

/** One `no_proxy` entry against the target: `host`, `.domain`, `ip`, `cidr`, each with an optional `:port`. */
function entryMatches(entry: string, host: string, port: string): boolean {
  if (entry === '*') return true;
  let pattern = entry.toLowerCase();
  let wantedPort: string | undefined;
  const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(pattern);
  if (bracketed) {
    pattern = bracketed[1] as string;
    wantedPort = bracketed[2];
  } else if (/^[^:]+:\d+$/.test(pattern)) {
    [pattern, wantedPort] = pattern.split(':') as [string, string];
  }
  if (wantedPort !== undefined && wantedPort !== port) return false;
  const slash = pattern.indexOf('/');
  if (slash > 0) {
    const base = pattern.slice(0, slash);
    const bits = Number(pattern.slice(slash + 1));
    const family = isIP(base);
    if (!family || !isIP(host) || !Number.isInteger(bits)) return false;
    const range = new BlockList();
    try {
      range.addSubnet(base, bits, family === 4 ? 'ipv4' : 'ipv6');
    } catch {
      return false;
    }
    return range.check(host, isIP(host) === 4 ? 'ipv4' : 'ipv6');
  }
  if (isIP(pattern)) return isIP(host) !== 0 && pattern === host;
  const domain = pattern.replace(/^\*?\./, '');
  return host === domain || host.endsWith(`.${domain}`);
}

/** Whether `no_proxy` sends the target direct. */
export function bypassesProxy(target: URL, noProxy: string | undefined): boolean {
  const entries = (noProxy ?? '').split(/[\s,]+/).filter(Boolean);
  const host = bareHost(target.hostname);
  const port = defaultPort(target);
  return entries.some((entry) => entryMatches(entry, host, port));
}

/**
 * The proxy for a request to `target`, or none (direct). Throws ProxySettingError, naming the
 * variable, when the one that applies is not a usable proxy URL.
 */
export function proxyFromEnvironment(
  target: URL,
  env: ProxyEnvironment = process.env,
): ProxyChoice | undefined {
  if (bypassesProxy(target, variable(env, 'no_proxy', 'NO_PROXY'))) return undefined;
  const scheme = target.protocol === 'https:' ? 'https' : 'http';
  const named: [string, string][] = [
    scheme === 'https' ? ['https_proxy', 'HTTPS_PROXY'] : ['http_proxy', 'HTTP_PROXY'],
    ['all_proxy', 'ALL_PROXY'],
  ];
  for (const [lower, upper] of named) {
    const value = variable(env, lower, upper);
    if (value === undefined) continue;
    const from = env[lower]?.trim() ? lower : upper;
    return parseProxyUrl(value, from);
  }
  return undefined;
}

/** Whether any proxy variable is set: then they decide, and the system's settings are not asked. */
export function environmentNamesProxy(env: ProxyEnvironment = process.env): boolean {
  return ['https_proxy', 'http_proxy', 'all_proxy'].some((name) =>
    Boolean(env[name]?.trim() || env[name.toUpperCase()]?.trim()),
  );
}

/**
 * The operating system's answer for one URL, as Chromium gives it to the desktop app
 * (`session.resolveProxy`, which applies the system's settings, PAC files included): a list like
 * `PROXY proxy.corp:8080; DIRECT`, tried in order. The first entry decides: DIRECT is none;
 * PROXY and HTTPS name a proxy; SOCKS is refused in words, as SOCKS anywhere else.
 */
export function proxyFromSystem(answer: string): ProxyChoice | undefined {
  const first = answer.split(';')[0]?.trim() ?? '';
  const [kind = '', where = ''] = first.split(/\s+/);
  switch (kind.toUpperCase()) {
    case '':
    case 'DIRECT':
      return undefined;
    case 'PROXY':
      return parseProxyUrl(`http://${where}`, "The system's proxy setting");
    case 'HTTPS':
      return parseProxyUrl(`https://${where}`, "The system's proxy setting");
    default:
      throw new ProxySettingError(
        `The system's proxy setting for this service is ${kind.toLowerCase()} (${where}); the console uses http:// and https:// proxies only. Set a proxy in the profile.`,
      );
  }
}
