// The packaged main process started under Node with the recording stand-in for `electron`
// (register.mjs), and a handle that asks the stand-in what the app did: the windows it asked for,
// the handlers it registered, and bridge calls made as the window's renderer makes them.
import { fork, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { BridgeResult } from '../../../shared/bridge';
import { testService } from '../../support/keychain';

const REGISTER = resolve('test/packaging/stand-in/register.mjs');
export interface Snapshot {
  calls: { api: string; args: unknown[]; at: number }[];
  handlers: string[];
  windows: {
    options: { webPreferences: Record<string, unknown> };
    loaded: string | undefined;
    actions: string[];
  }[];
}

export class Launched {
  private nextId = 0;
  private readonly waiting = new Map<number, (reply: Record<string, unknown>) => void>();
  stderr = '';
  exit: number | null | undefined;

  constructor(readonly child: ChildProcess) {
    child.stderr?.on('data', (chunk: Buffer) => (this.stderr += chunk.toString()));
    child.on('message', (reply: { id: number }) => this.waiting.get(reply.id)?.(reply));
    child.on('exit', (code) => {
      this.exit = code;
      for (const done of this.waiting.values()) done({ error: `exited (${code}):\n${this.tail()}` });
    });
  }

  ask(message: Record<string, unknown>, waitMs = 2_000): Promise<Record<string, unknown>> {
    const id = this.nextId++;
    return new Promise((done, fail) => {
      // Before the stand-in is loaded nobody answers: the caller asks again.
      const timer = setTimeout(() => this.waiting.delete(id) && fail(new Error('no answer')), waitMs);
      this.waiting.set(id, (reply) => {
        clearTimeout(timer);
        this.waiting.delete(id);
        if (reply.error) fail(new Error(String(reply.error)));
        else done(reply);
      });
      if (this.exit === undefined) this.child.send({ id, ...message });
    });
  }

  snapshot = async (): Promise<Snapshot> => (await this.ask({ op: 'snapshot' })) as unknown as Snapshot;

  /** A bridge call as the window's renderer makes it (from its main frame, on the loaded file). */
  async invoke<T>(call: string, input?: unknown): Promise<BridgeResult<T>> {
    return (await this.ask({ op: 'invoke', call, input }, 30_000)).result as BridgeResult<T>;
  }

  /** The call's value; fails the test with the bridge's error otherwise. */
  async value<T>(call: string, input?: unknown): Promise<T> {
    const result = await this.invoke<T>(call, input);
    if (!result.ok) throw new Error(`${call} failed: ${JSON.stringify(result.error)}`);
    return result.value;
  }

  /** Until the window has loaded its file, or the process has died (its stderr is the failure). */
  async started(): Promise<Snapshot> {
    for (const deadline = Date.now() + 60_000; Date.now() < deadline;) {
      if (this.exit !== undefined)
        throw new Error(`The packaged main process exited (${this.exit}):\n${this.tail()}`);
      const snapshot = await this.snapshot().catch(() => undefined);
      if (snapshot?.windows[0]?.loaded) return snapshot;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`No window within 60 s:\n${this.tail()}`);
  }

  /** The end of stderr: a failed import prints a whole minified line before the error. */
  tail(): string {
    return this.stderr
      .split('\n')
      .map((line) => (line.length > 300 ? `${line.slice(0, 300)}…` : line))
      .join('\n');
  }

  stop(): void {
    this.child.kill('SIGKILL');
  }
}

/**
 * The packaged main process, from an extracted copy of the package, resolving only inside it:
 * `resources` is the package's resources folder, `work` the test's folder for data and keychain.
 */
export function launchPackaged(
  appDir: string,
  label: string,
  where: { resources: string; work: string },
  options: { execPath?: string; env?: NodeJS.ProcessEnv } = {},
): Launched {
  const { resources, work } = where;
  const pkg = JSON.parse(readFileSync(join(appDir, 'package.json'), 'utf8')) as { main: string };
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    DBUS_SESSION_BUS_ADDRESS: process.env.DBUS_SESSION_BUS_ADDRESS,
    XDG_RUNTIME_DIR: process.env.XDG_RUNTIME_DIR,
    STAND_IN_PACKAGE_ROOT: appDir,
    STAND_IN_APP_DIR: appDir,
    STAND_IN_RESOURCES: resources,
    AGENT_CONSOLE_DATA_DIR: join(work, `data-${label}`),
    AGENT_CONSOLE_KEYCHAIN_SERVICE: testService(`package-${label}`),
    ...options.env,
  };
  return new Launched(
    fork(join(appDir, pkg.main), [], {
      cwd: appDir,
      env,
      execArgv: ['--import', REGISTER],
      stdio: 'pipe',
      ...(options.execPath ? { execPath: options.execPath } : {}),
    }),
  );
}
