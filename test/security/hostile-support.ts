// What the hostile-server suite's files share: the leak finder (a secret shown as <NAME> in what it
// reports, so a failure can be quoted as it is), real processes of the CLI, their memory, and the
// journals a monitor writes.
import { spawn } from 'node:child_process';
import { closeSync, openSync, readdirSync, readFileSync, readSync, statSync } from 'node:fs';
import { join } from 'node:path';
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

export { until } from '../support/until';

/** The last lines of a process's stderr, each cut short (a minified bundle's line is long). */
export function tail(text: string, lines = 12): string {
  return text
    .split('\n')
    .slice(-lines)
    .map((l) => (l.length > 200 ? `${l.slice(0, 200)}…` : l))
    .join('\n');
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
