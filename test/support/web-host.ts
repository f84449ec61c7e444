// The web host as `npm run web` runs it (the built bundle, out/node/web-host.js) on a folder of the
// test's own, with a caller for its bridge over HTTP (the token in the query, as the printed URL has it).
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import type { BridgeResult } from '../../shared/bridge';

export interface WebHostProcess {
  child: ChildProcess;
  /** The URL it printed, token and all, as a user opens it. */
  url: URL;
  call<T>(name: string, input?: unknown): Promise<BridgeResult<T>>;
  /** SIGTERM, as Ctrl+C in its terminal would, and its exit code once it is gone. */
  stop(): Promise<number | null>;
}

/** Rebuilds out/node when the sources are newer (the web host runs from its bundle). */
export async function ensureWebHostBuilt(): Promise<void> {
  const { ensureNodeTools } = (await import('../../scripts/build.mjs')) as {
    ensureNodeTools: () => Promise<void>;
  };
  await ensureNodeTools();
}

export async function startWebHostProcess(
  dataDir: string,
  env: NodeJS.ProcessEnv = {},
): Promise<WebHostProcess> {
  const child = spawn(process.execPath, ['out/node/web-host.js'], {
    env: { ...process.env, AGENT_CONSOLE_DATA_DIR: dataDir, AGENT_CONSOLE_NO_OPEN: '1', ...env },
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  const url = await new Promise<URL>((resolve, reject) => {
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    createInterface({ input: child.stdout }).on('line', (line) => {
      const match = /^Agent Console: (\S+)/.exec(line);
      if (match?.[1]) resolve(new URL(match[1]));
    });
    child.once('exit', (code) => reject(new Error(`the web host exited (${code}): ${stderr}`)));
  });
  const token = url.searchParams.get('token') as string;
  return {
    child,
    url,
    async call<T>(name: string, input: unknown = {}) {
      const res = await fetch(`${url.origin}/bridge/call/${name}?token=${token}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(input),
      });
      return (await res.json()) as BridgeResult<T>;
    },
    stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      return exited;
    },
  };
}

export function valueOf<T>(result: BridgeResult<T>): T {
  if (!result.ok) throw new Error(`bridge call failed: ${JSON.stringify(result.error)}`);
  return result.value;
}
