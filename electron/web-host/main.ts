// `npm run web`: the console in a browser. Starts the embedded mock in-process, serves the built
// renderer on 127.0.0.1 and prints (and, where a desktop exists, opens) the tokened URL.
import { spawn } from 'node:child_process';
import { join, resolve } from 'node:path';
import { startMockServer } from '../../mock/server';
import { defaultDataDir } from '../core/paths';
import { startWebHost } from './server';

async function main(): Promise<void> {
  const dataDir = defaultDataDir();
  const mock = await startMockServer({ dataDir: join(dataDir, 'mock') });
  const host = await startWebHost({ rendererDir: resolve('out/renderer') });
  process.stdout.write(`Agent Console: ${host.url}\n`);
  process.stderr.write(`Embedded mock on ${mock.baseUrl}; data in ${dataDir}. Ctrl+C stops both.\n`);
  if (process.env.AGENT_CONSOLE_NO_OPEN !== '1' && (process.platform !== 'linux' || process.env.DISPLAY)) {
    const opener =
      process.platform === 'darwin' ? 'open' : process.platform === 'win32' ? 'explorer' : 'xdg-open';
    spawn(opener, [host.url], { stdio: 'ignore', detached: true })
      .on('error', () => undefined)
      .unref();
  }
  const stop = async (): Promise<void> => {
    await host.close();
    await mock.close();
    process.exit(0);
  };
  process.once('SIGINT', () => void stop());
  process.once('SIGTERM', () => void stop());
}

main().catch((error: unknown) => {
  process.stderr.write(`web: ${(error as Error).message}\n`);
  process.exit(1);
});
