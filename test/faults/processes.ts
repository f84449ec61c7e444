// The fault suite's core worker (core-worker.ts) as a real process on a data folder of the test's
// own, its stdout read line by line and its stderr kept. The CLI runs with support/run-process.ts.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { createInterface } from 'node:readline';

export interface Worker {
  child: ChildProcessWithoutNullStreams;
  /** Every stdout line so far. */
  lines: string[];
  stderr(): string;
  /** Resolves with the first stdout line (from now on, or already seen) that `match` accepts. */
  waitFor(match: (line: string) => boolean, timeoutMs?: number): Promise<string>;
  send(line: string): void;
  exited: Promise<number | null>;
}

export function startWorker(dataDir: string): Worker {
  const child = spawn(process.execPath, ['--import', 'tsx', 'test/faults/core-worker.ts'], {
    env: { ...process.env, AGENT_CONSOLE_DATA_DIR: dataDir },
  });
  const lines: string[] = [];
  let err = '';
  const waiters = new Set<(line: string) => void>();
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  createInterface({ input: child.stdout }).on('line', (line) => {
    lines.push(line);
    for (const w of waiters) w(line);
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return {
    child,
    lines,
    stderr: () => err,
    send: (line) => child.stdin.write(`${line}\n`),
    exited,
    waitFor(match, timeoutMs = 30_000) {
      const seen = lines.find(match);
      if (seen) return Promise.resolve(seen);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(
            new Error(`No matching line in ${timeoutMs} ms. stdout:\n${lines.join('\n')}\nstderr:\n${err}`),
          );
        }, timeoutMs);
        const check = (line: string): void => {
          if (!match(line)) return;
          clearTimeout(timer);
          waiters.delete(check);
          resolve(line);
        };
        waiters.add(check);
        void exited.then(() => {
          if (!waiters.has(check)) return;
          clearTimeout(timer);
          waiters.delete(check);
          reject(new Error(`The worker exited. stdout:\n${lines.join('\n')}\nstderr:\n${err}`));
        });
      });
    },
  };
}
