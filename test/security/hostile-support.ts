// What the hostile-server suite's files share: the leak finder (a secret shown as <NAME> in what it
// reports, so a failure can be quoted as it is), real processes of the CLI, their memory, and the
// web host's event stream.
import { spawn, type ChildProcess } from 'node:child_process';
import {
  closeSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  readSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { basename, join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { keyRuns } from './leak-check';

export interface Secret {
  /** How a leak report names it: <KEY>, <CI_SECRET>. */
  name: string;
  value: string;
}

/** JSON's `\uXXXX` escapes decoded, at any depth of escaping (`\\u005f` in JSON inside JSON). */
export function unescapeJson(text: string): string {
  return text.replace(/\\+u([0-9a-fA-F]{4})/g, (_all, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

/** `excerpt` with every run of 12 or more characters of the secret written as <NAME> or <NAME[i:j]>. */
function named(excerpt: string, secret: Secret): string {
  let out = excerpt.replaceAll(secret.value, `<${secret.name}>`);
  for (let length = secret.value.length - 1; length >= 12; length--) {
    for (let i = 0; i + length <= secret.value.length; i++) {
      const run = secret.value.slice(i, i + length);
      if (out.includes(run)) out = out.replaceAll(run, `<${secret.name}[${i}:${i + length}]>`);
    }
  }
  return out;
}

/** `text` for a failure message: secrets named, control characters written as `\xNN`. */
export function shown(text: string, secrets: readonly Secret[]): string {
  const plain = secrets.reduce((out, secret) => named(out, secret), text);
  return plain.replace(
    // eslint-disable-next-line no-control-regex
    /[\u0000-\u001f\u007f-\u009f]/g,
    (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`,
  );
}

/**
 * The leaks of `secrets` in `text`: none is an empty list. A leak is any 12-character run of a
 * secret, in the text as it is or with its JSON escapes decoded; each is told as `where: the line`
 * (cut to 200 characters around the run), the secret named rather than shown.
 */
export function leaks(where: string, text: string, secrets: readonly Secret[]): string[] {
  const found: string[] = [];
  const decoded = unescapeJson(text);
  for (const secret of secrets) {
    for (const [form, body] of [
      ['', text],
      [' (JSON-escaped)', decoded],
    ] as const) {
      if (form && body === text) continue;
      const runs = keyRuns(body, secret.value, 12);
      if (runs.length === 0) continue;
      const at = body.indexOf(runs[0] as string);
      const start = Math.max(body.lastIndexOf('\n', at) + 1, at - 100);
      const endOfLine = body.indexOf('\n', at);
      const end = Math.min(endOfLine === -1 ? body.length : endOfLine, at + 100);
      found.push(`${where}${form}: ${named(body.slice(start, end), secret)}`);
      break;
    }
  }
  return found;
}

export function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

/** The leaks in every file under `dir`. */
export function fileLeaks(dir: string, secrets: readonly Secret[]): string[] {
  return filesUnder(dir).flatMap((file) =>
    leaks(file.slice(dir.length + 1), readFileSync(file, 'utf8'), secrets),
  );
}

export interface Run {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  /** The bytes as written, for the control-character checks. */
  stdoutBytes: Buffer;
  stderrBytes: Buffer;
  /** All the bytes written to stdout, of which only the first `maxOutputBytes` are kept. */
  stdoutTotal: number;
  /** Killed after `timeoutMs`. */
  timedOut: boolean;
  ms: number;
}

/** `node bin/agent-console.js …` with `env` over this process's environment (undefined unsets). */
export function runCli(
  args: string[],
  options: {
    env?: Record<string, string | undefined>;
    stdin?: string;
    timeoutMs?: number;
    /** Output kept per stream (a 300 MB reply printed whole is counted, not kept). */
    maxOutputBytes?: number;
  } = {},
): Promise<Run> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const env: Record<string, string | undefined> = { ...process.env, ...options.env };
    for (const [name, value] of Object.entries(env)) if (value === undefined) delete env[name];
    const child = spawn(process.execPath, ['bin/agent-console.js', ...args], {
      env: env as NodeJS.ProcessEnv,
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    const max = options.maxOutputBytes ?? 8 * 1024 * 1024;
    let outBytes = 0;
    let errBytes = 0;
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, options.timeoutMs ?? 60_000);
    child.stdout.on('data', (d: Buffer) => {
      if (outBytes < max) out.push(d);
      outBytes += d.length;
    });
    child.stderr.on('data', (d: Buffer) => {
      if (errBytes < max) err.push(d);
      errBytes += d.length;
    });
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      const stdoutBytes = Buffer.concat(out);
      const stderrBytes = Buffer.concat(err);
      resolve({
        code,
        signal,
        stdout: stdoutBytes.toString('utf8'),
        stderr: stderrBytes.toString('utf8'),
        stdoutBytes,
        stderrBytes,
        stdoutTotal: outBytes,
        timedOut,
        ms: Date.now() - started,
      });
    });
    child.stdin.end(options.stdin ?? '');
  });
}

/** Runs `work` over `items`, at most `width` at a time, results in order. */
export async function inPool<T, R>(
  items: readonly T[],
  width: number,
  work: (item: T) => Promise<R>,
): Promise<R[]> {
  const results: R[] = new Array<R>(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const index = next++;
      results[index] = await work(items[index] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(width, items.length) }, worker));
  return results;
}

/** A process's resident memory in MB, from /proc (undefined once it is gone). */
export function rssMb(pid: number): number | undefined {
  try {
    const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) / 1024 : undefined;
  } catch {
    return undefined;
  }
}

/** Samples a process's RSS every `everyMs` until stopped; `max` is the highest seen. */
export function watchRss(pid: number, everyMs = 50): { max: () => number; stop: () => void } {
  let max = rssMb(pid) ?? 0;
  const timer = setInterval(() => {
    max = Math.max(max, rssMb(pid) ?? 0);
  }, everyMs);
  return { max: () => max, stop: () => clearInterval(timer) };
}

export async function until<T>(
  what: string,
  probe: () => T | undefined | Promise<T | undefined>,
  ms: number,
): Promise<T> {
  const end = Date.now() + ms;
  let last: unknown;
  for (;;) {
    try {
      const value = await probe();
      if (value !== undefined) return value;
    } catch (error) {
      last = error;
    }
    if (Date.now() > end)
      throw new Error(`timed out after ${ms} ms waiting for ${what}${last ? ` (${String(last)})` : ''}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

export function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const server = createServer();
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => done(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

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

/** The last lines of a process's stderr, each cut short (a minified bundle's line is long). */
export function tail(text: string, lines = 12): string {
  return text
    .split('\n')
    .slice(-lines)
    .map((l) => (l.length > 200 ? `${l.slice(0, 200)}…` : l))
    .join('\n');
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
 * environment (AGENT_API_KEY), no keychain session bus. Resolves once /healthz answers.
 */
export async function startMonitorProcess(
  config: string,
  dataDir: string,
  key: string,
): Promise<MonitorProcess> {
  const port = await freePort();
  const env: NodeJS.ProcessEnv = { ...process.env, AGENT_API_KEY: key };
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

/** The lines of a JSON-lines journal, read up to `maxBytes` (a 300 MB line is told, not read). */
export function journal(path: string, maxBytes = 4 * 1024 * 1024): { lines: string[]; bytes: number } {
  let bytes: number;
  try {
    bytes = statSync(path).size;
  } catch {
    return { lines: [], bytes: 0 };
  }
  const fd = openSync(path, 'r');
  try {
    const buffer = Buffer.alloc(Math.min(bytes, maxBytes));
    readSync(fd, buffer, 0, buffer.length, 0);
    const lines = buffer
      .toString('utf8')
      .split('\n')
      .filter((l) => l.trim() !== '')
      .map((l) => (l.length > 300 ? `${l.slice(0, 300)}… (${l.length} characters)` : l));
    return { lines, bytes };
  } finally {
    closeSync(fd);
  }
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
