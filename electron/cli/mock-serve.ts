// `npm run mock -- --port P --data-dir D` (`agent-console mock serve`): the mock alone. Prints
// exactly one line of JSON on stdout (where it listens, the CA to trust, the demo keys, the control
// path's token); human-readable logs go to stderr. The mock's host: it picks the data folder (the
// app's own mock's by default) and hands the mock the lock on it.
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { resolve } from 'node:path';
import { announceEndpoint, withdrawEndpoint } from '../../mock/endpoint-file';
import { startMockServer } from '../../mock/server';
import { lockMockState } from '../core/folder-lock';
import { defaultDataDir, mockDataDir } from '../core/paths';
import { isLoopbackHost } from '../core/profiles';

const USAGE =
  'Usage: npm run mock -- [--port P] [--host 127.0.0.1] [--allow-remote-control] [--data-dir DIR] [--chat-timeout-ms MS] [--client-ca FILE] [--quiet]';

function fail(message: string): never {
  process.stderr.write(`${message}\n${USAGE}\n`);
  process.exit(2);
}

/** What `mock serve` takes, as its command line gives it. */
export interface MockServeOptions {
  port?: string;
  host?: string;
  /** The mock's own folder (for the CLI: `--data-dir` names it directly, as for npm run mock). */
  dataDir?: string;
  chatTimeoutMs?: string;
  allowRemoteControl?: boolean;
  /** A PEM CA: the mock requires client certificates it signed (mutual TLS). */
  clientCa?: string;
  quiet?: boolean;
}

/** Runs the standalone mock with command-line arguments (`npm run mock`, the tests' standalone mock). */
async function mockServeCommand(args: string[]): Promise<void> {
  let values;
  try {
    ({ values } = parseArgs({
      args,
      options: {
        port: { type: 'string' },
        host: { type: 'string' },
        'data-dir': { type: 'string' },
        'chat-timeout-ms': { type: 'string' },
        'allow-remote-control': { type: 'boolean', default: false },
        'client-ca': { type: 'string' },
        quiet: { type: 'boolean', default: false },
        help: { type: 'boolean', default: false },
      },
      strict: true,
    }));
  } catch (error) {
    fail((error as Error).message);
  }
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  await serveMock({
    port: values.port,
    host: values.host,
    dataDir: values['data-dir'],
    chatTimeoutMs: values['chat-timeout-ms'],
    allowRemoteControl: values['allow-remote-control'],
    ...(values['client-ca'] ? { clientCa: values['client-ca'] } : {}),
    quiet: values.quiet,
  });
}

/** The CA whose client certificates the mock requires (`--client-ca`), read and checked. */
function readClientCa(path: string): string {
  let pem = '';
  try {
    pem = readFileSync(resolve(path), 'utf8');
  } catch {
    fail(`--client-ca: cannot read ${path}.`);
  }
  if (!pem.includes('-----BEGIN CERTIFICATE-----')) fail(`--client-ca: ${path} holds no PEM certificate.`);
  return pem;
}

/** Starts the mock and keeps it running until SIGINT or SIGTERM. */
export async function serveMock(options: MockServeOptions): Promise<void> {
  const values = {
    ...options,
    port: options.port ?? '0',
    host: options.host ?? '127.0.0.1',
    allowRemoteControl: options.allowRemoteControl === true,
  };
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    fail(`--port must be 0-65535 (got "${values.port}").`);
  const timeout = values.chatTimeoutMs === undefined ? undefined : Number(values.chatTimeoutMs);
  if (timeout !== undefined && !(Number.isInteger(timeout) && timeout > 0))
    fail('--chat-timeout-ms must be a positive integer.');
  // The app's own mock data by default, so `npm run mock` and the app see the same keys and history.
  const dataDir = resolve(values.dataDir ?? mockDataDir(defaultDataDir()));
  const log = values.quiet ? undefined : (line: string) => process.stderr.write(`${line}\n`);
  const clientCa = values.clientCa === undefined ? undefined : readClientCa(values.clientCa);

  const server = await startMockServer({
    dataDir,
    port,
    host: values.host,
    allowRemoteControl: values.allowRemoteControl,
    lockDataDir: lockMockState,
    ...(clientCa ? { clientCa } : {}),
    ...(timeout !== undefined ? { chatTimeoutMs: timeout } : {}),
    ...(log ? { log } : {}),
  });
  process.stdout.write(
    `${JSON.stringify({
      baseUrl: server.baseUrl,
      caCertPath: server.caCertPath,
      keys: server.keys,
      controlToken: server.controlToken,
    })}\n`,
  );
  announceEndpoint(dataDir, {
    baseUrl: server.baseUrl,
    caCertPath: server.caCertPath,
    pid: process.pid,
    keys: server.keys,
  });
  process.stderr.write(
    `Agent Messaging Service mock on ${server.baseUrl} (data in ${dataDir}). Ctrl+C stops it.\n`,
  );
  if (!isLoopbackHost(values.host)) {
    process.stderr.write(
      values.allowRemoteControl
        ? `Listening on ${values.host}: anyone who can reach it and holds the control token can use the control path (/__control), which revokes keys and reads every request.\n`
        : `Listening on ${values.host}: the API answers other machines; the control path (/__control) answers this machine only (--allow-remote-control opens it).\n`,
    );
  }

  const stop = async (): Promise<void> => {
    withdrawEndpoint(dataDir);
    await server.close();
    process.exit(0);
  };
  // on(), not once(): signal-exit (in the lock and atomic-write libraries) re-raises a signal when it
  // thinks no other listener is left, which a once() listener no longer is by the time it checks.
  process.on('SIGINT', () => void stop());
  process.on('SIGTERM', () => void stop());
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  mockServeCommand(process.argv.slice(2)).catch((error: unknown) => {
    process.stderr.write(`mock: ${(error as Error).message}\n`);
    process.exit(1);
  });
}
