// The long-running processes the hostile-server suite drives as a user would: the headless
// monitor and the web host (its bridge over HTTP and its event stream).
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { freePort } from '../support/free-port';
import { tail, until } from './hostile-support';

export interface BridgeEventLog {
  events: { event: string; payload: unknown }[];
  close(): void;
}

/** The web host's event stream (GET /bridge/events), every event kept as it arrives. */
export async function followBridgeEvents(url: URL): Promise<BridgeEventLog> {
  const token = url.searchParams.get('token') as string;
  const controller = new AbortController();
  const res = await fetch(`${url.origin}/bridge/events?token=${token}`, { signal: controller.signal });
  if (!res.ok || !res.body) throw new Error(`the event stream answered ${res.status}`);
  const events: BridgeEventLog['events'] = [];
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
  void (async () => {
    let buffered = '';
    for (;;) {
      const { value, done } = await reader.read().catch(() => ({ value: undefined, done: true }));
      if (done) return;
      buffered += value;
      let end: number;
      while ((end = buffered.indexOf('\n\n')) !== -1) {
        const block = buffered.slice(0, end);
        buffered = buffered.slice(end + 2);
        const event = /^event: (.*)$/m.exec(block)?.[1];
        const data = /^data: (.*)$/m.exec(block)?.[1];
        if (event && data) events.push({ event, payload: JSON.parse(data) });
      }
    }
  })();
  return { events, close: () => controller.abort() };
}

export interface MonitorProcess {
  child: ChildProcess;
  metricsUrl: string;
  stdout: () => string;
  stderr: () => string;
  /** Its exit code (or signal) once it has ended. */
  exited: Promise<string>;
  /** Null while it runs, else how it ended. */
  ended: () => string | null;
  stop(): Promise<void>;
}

/**
 * `agent-console monitor --config FILE --metrics 127.0.0.1:PORT` as on a server: the key in the
 * environment (AGENT_API_KEY) with `moreEnv`, no keychain session bus. Resolves once /healthz answers.
 */
export async function startMonitorProcess(
  config: string,
  dataDir: string,
  key: string,
  moreEnv: NodeJS.ProcessEnv = {},
  moreArgs: string[] = [],
): Promise<MonitorProcess> {
  const port = await freePort();
  const env: NodeJS.ProcessEnv = { ...process.env, AGENT_API_KEY: key, ...moreEnv };
  delete env.DBUS_SESSION_BUS_ADDRESS;
  const child = spawn(
    process.execPath,
    [
      'bin/agent-console.js',
      'monitor',
      '--config',
      config,
      '--metrics',
      `127.0.0.1:${port}`,
      '--data-dir',
      dataDir,
      ...moreArgs,
    ],
    { env, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let out = '';
  let err = '';
  let ended: string | null = null;
  child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (err = (err + d.toString()).slice(-20_000)));
  const exited = new Promise<string>((resolve) =>
    child.once('exit', (code, signal) =>
      resolve((ended = signal ? `signal ${signal}` : `exit code ${code}`)),
    ),
  );
  const metricsUrl = `http://127.0.0.1:${port}`;
  await until(
    `the monitor's /healthz (stderr: ${err})`,
    async () => {
      if (ended) throw new Error(`the monitor ended (${ended}): ${err}`);
      return (await fetch(`${metricsUrl}/healthz`)).ok ? true : undefined;
    },
    30_000,
  );
  return {
    child,
    metricsUrl,
    stdout: () => out,
    stderr: () => err,
    exited,
    ended: () => ended,
    async stop() {
      if (ended === null) child.kill('SIGKILL');
      await exited;
    },
  };
}

export interface WebHost {
  child: ChildProcess;
  /** The URL it printed, token and all. */
  url: URL;
  stderr: () => string;
  /** Null while it runs, else how it ended. */
  ended: () => string | null;
  stop(): Promise<void>;
}

/**
 * The web host as `npm run web` runs it (the built bundle, out/node/web-host.js), started in a
 * folder of its own with a stand-in for the built renderer: `npm test` builds the renderer only
 * after the unit tests, and the bridge over HTTP is all these tests use.
 */
export async function startWebHost(dataDir: string, env: NodeJS.ProcessEnv = {}): Promise<WebHost> {
  const home = join(dataDir, '..', `${basename(dataDir)}-home`);
  mkdirSync(join(home, 'out/renderer'), { recursive: true });
  writeFileSync(join(home, 'out/renderer/index.html'), '<!doctype html><title>stand-in</title>');
  writeFileSync(join(home, 'package.json'), JSON.stringify({ version: '0.0.0-hostile' }));
  const child = spawn(process.execPath, [resolve('out/node/web-host.js')], {
    cwd: home,
    env: { ...process.env, AGENT_CONSOLE_DATA_DIR: dataDir, AGENT_CONSOLE_NO_OPEN: '1', ...env },
  });
  let err = '';
  let ended: string | null = null;
  child.stderr?.on('data', (d: Buffer) => (err = (err + d.toString()).slice(-20_000)));
  const exited = new Promise<void>((resolve_) =>
    child.once('exit', (code, signal) => {
      ended = signal ? `signal ${signal}` : `exit code ${code}`;
      resolve_();
    }),
  );
  const url = await new Promise<URL>((resolve_, reject) => {
    createInterface({ input: child.stdout as NodeJS.ReadableStream }).on('line', (line) => {
      const match = /^Agent Console: (\S+)/.exec(line);
      if (match?.[1]) resolve_(new URL(match[1]));
    });
    void exited.then(() => reject(new Error(`the web host ended (${ended}): ${err}`)));
  });
  return {
    child,
    url,
    stderr: () => err,
    ended: () => ended,
    async stop() {
      if (ended === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

export interface HostAnswer {
  /** The bridge's `ok`; undefined when no bridge result came (an HTTP error, a host gone). */
  ok: boolean | undefined;
  value?: unknown;
  message: string;
  /** What came back, shortened, for a failure message. */
  text: string;
}

/** A bridge call over HTTP that tells a host that died, or answered with something else. */
export async function hostCall(host: WebHost, name: string, input: unknown = {}): Promise<HostAnswer> {
  const token = host.url.searchParams.get('token') as string;
  try {
    const res = await fetch(`${host.url.origin}/bridge/call/${name}?token=${token}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(input),
    });
    // A reply of hundreds of MB (the bridge passing a huge one on) is read up to 1 MB and counted.
    const kept: Buffer[] = [];
    let bytes = 0;
    const reader = res.body?.getReader();
    for (;;) {
      const read = await reader?.read();
      if (!read || read.done) break;
      const chunk = Buffer.from(read.value);
      if (bytes < 1024 * 1024) kept.push(chunk);
      bytes += chunk.length;
    }
    const text = Buffer.concat(kept).toString('utf8');
    const whole = bytes <= 1024 * 1024;
    let body: { ok?: boolean; value?: unknown; error?: { message?: string } } = {};
    try {
      body = whole ? (JSON.parse(text) as typeof body) : { ok: /^\{"ok":true/.test(text) };
    } catch {
      // Not JSON: told as it came.
    }
    return {
      ok: res.status === 200 ? body.ok : undefined,
      value: body.value,
      message: body.error?.message ?? `HTTP ${res.status}`,
      text: `HTTP ${res.status} ${text.slice(0, 300)}${whole ? '' : ` … (${bytes} bytes in all)`}`,
    };
  } catch (error) {
    await new Promise((r) => setTimeout(r, 200));
    return {
      ok: undefined,
      message: String(error),
      text: `${String(error)}; the web host ${host.ended() ?? 'runs'}: ${tail(host.stderr())}`,
    };
  }
}
