// `npm run web`: the console in a browser. Opens the core (with the embedded mock) on the app's
// data dir, serves the built renderer and the bridge on 127.0.0.1, and prints (and, where a
// desktop exists, opens) the tokened URL. The page is served while the core is still loading and
// opening (the browser fetches the renderer meanwhile); bridge calls wait for the core.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { BridgeHost } from '../bridge/bridge-host';
import type { ConsoleCore } from '../core/console-core';
import { preparePrivateFolders } from '../core/data-folder';
import { lockFolder } from '../core/folder-lock';
import { guardTerminal } from '../core/output-guard';
import { defaultDataDir, keychainServiceFromEnvironment } from '../core/paths';
import { keepRunningOnUnhandledRejection } from '../core/process-guard';
import { startWebHost } from './server';

/** The core and its bridge, loaded only now so that the page is served while they load. */
async function openConsole(
  dataDir: string,
  version: string,
): Promise<{ core: ConsoleCore; bridge: BridgeHost }> {
  // A turn of the event loop before and after loading the core's modules (25–30 ms at one go): a
  // request for the page that came in meanwhile is answered first.
  await nextTurn();
  const [{ ConsoleCore }, { BridgeHost }] = await Promise.all([
    import('../core/console-core'),
    import('../bridge/bridge-host'),
  ]);
  await nextTurn();
  const core = await ConsoleCore.open({
    dataDir,
    embeddedMock: 'discover',
    appVersion: version,
    // Polls GET /health every interval while the host runs, open tab or not.
    monitorHealth: true,
    ...keychainServiceFromEnvironment(),
    onWarning: (message) => process.stderr.write(`${message}\n`),
  });
  return { core, bridge: new BridgeHost(core, { transport: 'web', version }) };
}

async function main(): Promise<void> {
  const opened: { core?: ConsoleCore } = {};
  keepRunningOnUnhandledRejection((message) => {
    process.stderr.write(`web: ${guardTerminal(message)}\n`);
    opened.core?.appLog.error(message);
  });
  const dataDir = defaultDataDir();
  // Before the lock writes in it: a folder another user owns or may write in is refused in words.
  preparePrivateFolders(dataDir);
  // One owner per data folder: a second web host or app says which process holds it and exits.
  const owner = await lockFolder(dataDir, 'owner', 'the Agent Console web host');
  const { version } = JSON.parse(readFileSync(resolve('package.json'), 'utf8')) as { version: string };
  // Listening first, then loading the core: its modules take 50–130 ms of a start to load, and
  // the browser fetches the page meanwhile. Its bridge calls wait for the core.
  let listening!: () => void;
  const opening = new Promise<void>((go) => (listening = go)).then(() => openConsole(dataDir, version));
  const host = await startWebHost({
    rendererDir: resolve('out/renderer'),
    bridge: opening.then(({ bridge }) => bridge),
    ...(process.env.AGENT_CONSOLE_WEB_PORT ? { port: Number(process.env.AGENT_CONSOLE_WEB_PORT) } : {}),
  });
  process.stdout.write(`Agent Console: ${host.url}\n`);
  listening();
  process.stderr.write(`Data in ${dataDir}. Ctrl+C stops it.\n`);
  if (process.env.AGENT_CONSOLE_NO_OPEN !== '1' && (process.platform !== 'linux' || process.env.DISPLAY)) {
    const opener =
      process.platform === 'darwin' ? 'open' : process.platform === 'win32' ? 'explorer' : 'xdg-open';
    // No token on any command line (/proc/PID/cmdline is readable by every local user).
    // The opener gets a file only this user can read, which sends the browser to a one-time link.
    const dir = mkdtempSync(join(tmpdir(), 'agent-console-open-'));
    const page = join(dir, 'open.html');
    const target = host.launchUrl();
    writeFileSync(
      page,
      `<!doctype html><meta charset="utf-8"><meta http-equiv="refresh" content="0;url=${target}"><title>Agent Console</title>`,
      { mode: 0o600 },
    );
    setTimeout(() => rmSync(dir, { recursive: true, force: true }), 120_000).unref();
    process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
    spawn(opener, [page], { stdio: 'ignore', detached: true })
      .on('error', () => undefined)
      .unref();
  }
  const { core, bridge } = await opening;
  opened.core = core;
  const stop = async (): Promise<void> => {
    bridge.close();
    await host.close();
    await core.close();
    await owner.release();
    process.exit(0);
  };
  // on(), not once(): signal-exit (in the lock and atomic-write libraries) re-raises a signal when it
  // thinks no other listener is left, which a once() listener no longer is by the time it checks.
  process.on('SIGINT', () => void stop());
  process.on('SIGTERM', () => void stop());
}

main().catch((error: unknown) => {
  process.stderr.write(`web: ${(error as Error).message}\n`);
  process.exit(1);
});
