// `npm run web`: the console in a browser. Opens the core (with the embedded mock) on the app's
// data dir, serves the built renderer and the bridge on 127.0.0.1, and prints (and, where a
// desktop exists, opens) the tokened URL.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { BridgeHost } from '../bridge/bridge-host';
import { ConsoleCore } from '../core/console-core';
import { defaultDataDir } from '../core/paths';
import { startWebHost } from './server';

async function main(): Promise<void> {
  const dataDir = defaultDataDir();
  const { version } = JSON.parse(readFileSync(resolve('package.json'), 'utf8')) as { version: string };
  const core = await ConsoleCore.open({
    dataDir,
    embeddedMock: 'discover',
    appVersion: version,
    // Polls GET /health every interval while the host runs, open tab or not (issue 7).
    monitorHealth: true,
    onWarning: (message) => process.stderr.write(`${message}\n`),
  });
  const bridge = new BridgeHost(core, { transport: 'web', version });
  const host = await startWebHost({
    rendererDir: resolve('out/renderer'),
    bridge,
    ...(process.env.AGENT_CONSOLE_WEB_PORT ? { port: Number(process.env.AGENT_CONSOLE_WEB_PORT) } : {}),
  });
  process.stdout.write(`Agent Console: ${host.url}\n`);
  process.stderr.write(`Data in ${dataDir}. Ctrl+C stops it.\n`);
  if (process.env.AGENT_CONSOLE_NO_OPEN !== '1' && (process.platform !== 'linux' || process.env.DISPLAY)) {
    const opener =
      process.platform === 'darwin' ? 'open' : process.platform === 'win32' ? 'explorer' : 'xdg-open';
    spawn(opener, [host.url], { stdio: 'ignore', detached: true })
      .on('error', () => undefined)
      .unref();
  }
  const stop = async (): Promise<void> => {
    bridge.close();
    await host.close();
    await core.close();
    process.exit(0);
  };
  process.once('SIGINT', () => void stop());
  process.once('SIGTERM', () => void stop());
}

main().catch((error: unknown) => {
  process.stderr.write(`web: ${(error as Error).message}\n`);
  process.exit(1);
});
