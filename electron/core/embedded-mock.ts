// The embedded mock as a core opens it: none, started in this process, or — for a command beside a
// running app — the one another process on the same data folder already runs.
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Clock } from '../../shared/clock';
import { awaitRunningEndpoint, findRunningEndpoint, type MockEndpoint } from '../../mock/endpoint-file';
import type { MockServer } from '../../mock/server';
import type { CoreError } from './core-error';
import { lockMockState } from './folder-lock';
import { mockDataDir } from './paths';

export interface EmbeddedMockOptions {
  dataDir: string;
  embeddedMock?: 'in-process' | 'discover' | 'none';
  onWarning?: (message: string) => void;
}

/**
 * The embedded mock as `options.embeddedMock` asks: none; started in this process; or, with
 * 'discover', the one another process on this data folder runs, else started here.
 */
export async function startEmbeddedMock(
  options: EmbeddedMockOptions,
  clock: Clock,
): Promise<{ mock?: MockServer; running?: MockEndpoint }> {
  const mode = options.embeddedMock ?? 'in-process';
  if (mode === 'none') return {};
  const mockDir = mockDataDir(options.dataDir);
  const running = mode === 'discover' ? findRunningEndpoint(mockDir) : undefined;
  if (running) return { running };
  // Loaded only here: a real profile's session never loads fastify or selfsigned. The event loop
  // gets a turn before and after each long step of a start: the web host answers the
  // page's requests on this thread while its core opens, and a start made only of promise steps
  // never lets the loop reach them (measured: the page's HTML waited 40–65 ms for the mock's start).
  await nextTurn();
  const { startMockServer } = await import('../../mock/server');
  await nextTurn();
  const start = () =>
    startMockServer({
      dataDir: mockDir,
      clock,
      lockDataDir: lockMockState,
      ...(options.onWarning ? { onWarning: options.onWarning } : {}),
    });
  return mode === 'discover' ? startOrJoinMock(mockDir, start) : { mock: await start() };
}

/**
 * Discover mode when no mock is announced: start one, or — when another process took the folder a
 * moment ago (two commands started together) — use that one's mock once it is announced. Its owner
 * may also be gone again by then (a short command): then the folder is free and this one starts its
 * own. Gives up after ten seconds with the folder's owner named.
 */
async function startOrJoinMock(
  mockDir: string,
  start: () => Promise<MockServer>,
): Promise<{ mock?: MockServer; running?: MockEndpoint }> {
  const until = Date.now() + 10_000;
  for (;;) {
    try {
      return { mock: await start() };
    } catch (error) {
      if ((error as CoreError).code !== 'FOLDER_IN_USE' || Date.now() >= until) throw error;
    }
    const running = await awaitRunningEndpoint(mockDir, 500);
    if (running) return { running };
  }
}
