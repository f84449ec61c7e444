// `agent-console monitor`: the app's monitors with no UI, for a server that watches
// around the clock. It runs the monitors of a monitors file (by default the data folder's, as the
// app saved them), writes the same history, prints one line per confirmed change, and serves
// Prometheus metrics (prom-client) for Prometheus, Alertmanager and Grafana to do the rest. A key
// comes from the keychain (a monitor's profile) or an environment variable (a monitor's service),
// never from the file or a flag. SIGTERM and SIGINT stop it cleanly, the history flushed.
import { stat } from 'node:fs/promises';
import { createServer, type ServerResponse, type Server } from 'node:http';
import { resolve } from 'node:path';
import { WATCH_WORDS } from '../../shared/monitor';
import type { ConsoleCore } from '../core/console-core';
import { MonitorFileError, type MonitorConfig } from '../core/monitors/monitor-config';
import { monitorMetrics } from '../core/monitors/monitor-metrics';
import { StatusPagePublisher } from '../core/monitors/status-page-files';
import { checkCaCertFile, isLoopbackHost, normaliseBaseUrl, type Profile } from '../core/profiles';
import { rememberSecret } from '../core/redact';
import type { CommandContext } from './cli-session';
import { describeError, EXIT, exitCodeFor, onStopSignals, UsageError } from './output';

/** "127.0.0.1:9464", "[::1]:9464", "0.0.0.0:9464". */
function listenAddress(text: string): { host: string; port: number } {
  const match = /^(\[[^\]]+\]|[^:]+):(\d{1,5})$/.exec(text.trim());
  const port = Number(match?.[2]);
  if (!match || port > 65_535)
    throw new UsageError(`--metrics takes HOST:PORT, e.g. 127.0.0.1:9464 (got "${text}").`);
  return { host: (match[1] as string).replace(/^\[|\]$/g, ''), port };
}

const origin = (address: { host: string; port: number }): string =>
  `http://${address.host.includes(':') ? `[${address.host}]` : address.host}:${address.port}`;

/** A monitor with a service of its own: a key from the environment, a profile for this run only. */
function serviceProfiles(core: ConsoleCore): (config: MonitorConfig) => Promise<Profile> {
  return async (config) => {
    const service = config.service as NonNullable<MonitorConfig['service']>;
    const secret = process.env[service.keyEnv]?.trim();
    if (!secret) {
      throw new UsageError(
        `Monitor "${config.name}" needs its API key in the environment variable ${service.keyEnv}.`,
      );
    }
    // The vault remembers a key it takes; this masks it even where the vault refuses it as malformed.
    rememberSecret(secret);
    const key = await core.vault.add({
      name: `${config.name} (${service.keyEnv})`,
      secret,
      sessionOnly: true,
    });
    return {
      id: `service-${config.id ?? config.name}`,
      name: config.name,
      baseUrl: normaliseBaseUrl(service.baseUrl),
      keyId: key.id,
      ...(service.ca ? { caCertPath: checkCaCertFile(service.ca) } : {}),
      builtIn: false,
    };
  };
}

/** The longest a change waits before the status page is written again, and the shortest. */
const STATUS_EVERY_S = { default: 10, min: 1, max: 3600 };

function statusEvery(text: string | undefined): number {
  if (text === undefined) return STATUS_EVERY_S.default * 1000;
  const seconds = Number(text);
  if (!Number.isInteger(seconds) || seconds < STATUS_EVERY_S.min || seconds > STATUS_EVERY_S.max) {
    throw new UsageError(
      `--status-every takes whole seconds from ${STATUS_EVERY_S.min} to ${STATUS_EVERY_S.max} (got "${text}").`,
    );
  }
  return seconds * 1000;
}

async function statusFolder(dir: string): Promise<string> {
  const folder = resolve(dir);
  const info = await stat(folder).catch(() => undefined);
  if (!info?.isDirectory()) {
    throw new UsageError(`--status-page names a folder that exists: there is none at ${folder}.`);
  }
  return folder;
}

/** The status page as served: nothing it could load, as in its own policy. */
function sendStatus(res: ServerResponse, status: StatusPagePublisher | undefined, json: boolean): void {
  const page = status?.current();
  if (!page) return void res.writeHead(404, { 'content-type': 'text/plain' }).end('No status page yet.\n');
  res
    .writeHead(200, {
      'content-type': json ? 'application/json' : 'text/html; charset=utf-8',
      'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'",
      'x-content-type-options': 'nosniff',
      'cache-control': 'no-cache',
    })
    .end(json ? page.json : page.html);
}

function serveMetrics(
  address: { host: string; port: number },
  metrics: ReturnType<typeof monitorMetrics>,
  status: StatusPagePublisher | undefined,
): Promise<Server> {
  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (req.method !== 'GET') return void res.writeHead(405).end();
    if (path === '/healthz') return void res.writeHead(200, { 'content-type': 'text/plain' }).end('ok\n');
    if (path === '/status' || path === '/status/') return sendStatus(res, status, false);
    if (path === '/status.json') return sendStatus(res, status, true);
    if (path !== '/metrics')
      return void res.writeHead(404, { 'content-type': 'text/plain' }).end('Try /metrics or /status.\n');
    metrics.metrics().then(
      (text) => res.writeHead(200, { 'content-type': metrics.contentType }).end(text),
      (error: unknown) =>
        res.writeHead(500, { 'content-type': 'text/plain' }).end(`${(error as Error).message}\n`),
    );
  });
  return new Promise((resolvePromise, reject) => {
    server.once('error', reject);
    server.listen(address.port, address.host, () => resolvePromise(server));
  });
}

export async function monitorCommand(context: CommandContext): Promise<number> {
  const { out, err } = context.io;
  const options = context.options as {
    config?: string;
    metrics?: string;
    statusPage?: string;
    statusEvery?: string;
  };
  let core: ConsoleCore | undefined;
  let server: Server | undefined;
  let status: StatusPagePublisher | undefined;
  let stopListening = (): void => {};
  try {
    const address = options.metrics !== undefined ? listenAddress(options.metrics) : undefined;
    const everyMs = statusEvery(options.statusEvery);
    const statusDir = options.statusPage !== undefined ? await statusFolder(options.statusPage) : undefined;
    if (address && !isLoopbackHost(address.host)) {
      err(
        `Serving metrics on ${address.host}: anyone who can reach it can read them (no secrets are in them).`,
      );
    }
    core = await context.openCore();
    const opened = core;
    const monitors = await core.openMonitors({
      ...(options.config ? { file: resolve(options.config) } : {}),
      headless: true,
      serviceProfile: serviceProfiles(opened),
      onWarning: err,
    });
    if (monitors.all().length === 0) {
      throw new UsageError(
        `No monitors to run: add some in the app (Overview), or write a monitors file and pass --config (README "Monitors").`,
      );
    }
    monitors.subscribe((event) => {
      if (event.type !== 'notification' || event.notification.test) return;
      const n = event.notification;
      out(
        `${new Date(n.at).toISOString()}  ${n.monitorName}  ${WATCH_WORDS[n.from]} -> ${WATCH_WORDS[n.to]}  ${n.body}`,
      );
    });
    const metrics = monitorMetrics({
      monitors,
      limiters: core.limiters,
      vault: core.vault,
      now: () => opened.clock.now(),
    });
    if (address || statusDir) {
      status = new StatusPagePublisher(monitors, {
        ...(statusDir ? { dir: statusDir } : {}),
        everyMs,
        now: () => opened.clock.now(),
        onWarning: err,
      });
    }
    if (address) server = await serveMetrics(address, metrics, status);
    monitors.start();
    await status?.start();
    err(
      `Watching ${monitors
        .all()
        .map((m) => m.name)
        .join(
          ', ',
        )}${address ? `; metrics at ${origin(address)}/metrics, the status page at ${origin(address)}/status` : ''}${statusDir ? `; the status page kept in ${statusDir}` : ''}. SIGTERM or Ctrl+C stops.`,
    );
    // Until SIGTERM or Ctrl+C, or until the reader of its output has gone.
    await new Promise<void>((done) => {
      stopListening = onStopSignals(done, ['SIGTERM', 'SIGINT']);
      context.io.signal.addEventListener('abort', () => done(), { once: true });
    });
    metrics.close();
    return EXIT.ok;
  } catch (error) {
    if (error instanceof MonitorFileError) {
      err(error.message);
      return EXIT.usage;
    }
    err(`agent-console monitor: ${describeError(error)}`);
    return exitCodeFor(error);
  } finally {
    await status?.stop();
    stopListening();
    await new Promise((done) => (server ? server.close(done) : done(undefined)));
    // The session then closes the core: it stops the monitors and flushes their history.
  }
}
