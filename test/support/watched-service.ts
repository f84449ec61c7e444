// One service watched by the console's real monitors: the real mock on the system clock (its
// latency is real time, which is what TTFT measures), a core on a ManualClock (the monitor's
// timestamps, escalation and maintenance times move only when a test says), a profile on the
// mock, and a local webhook receiver that keeps what it is posted.
import { createServer, type Server } from 'node:http';
import { ManualClock } from '../../shared/clock';
import type { MonitorNotification } from '../../shared/monitor';
import type { NewChannel } from '../../shared/bridge/monitors';
import { ConsoleCore } from '../../electron/core/console-core';
import type { Monitor } from '../../electron/core/monitors/monitor';
import type { MonitorInput } from '../../electron/core/monitors/monitor-config';
import { removeDir, startTestMock, tempDir, type TestMock } from './mock';

export interface WatchedService {
  clock: ManualClock;
  core: ConsoleCore;
  mock: TestMock;
  dataDir: string;
  /** The receiver's base URL (http on loopback). */
  receiverUrl: string;
  /** What the receiver was posted, by path. */
  received: { path: string; body: Record<string, unknown> }[];
  notifications: MonitorNotification[];
  close(): Promise<void>;
}

/** A profile named `name` on the mock, with the mock's pro key for this session only. */
export async function addMockProfile(core: ConsoleCore, name: string, mock: TestMock): Promise<void> {
  const key = await core.vault.add({
    name: `${name} key`,
    secret: mock.server.keys.pro,
    sessionOnly: true,
    origins: [new URL(mock.server.baseUrl).origin],
  });
  core.profiles.add({ name, baseUrl: mock.server.baseUrl, keyId: key.id, caCertPem: mock.server.ca });
}

export async function watchService(
  name: string,
  options: { dataDir?: string; clock?: ManualClock } = {},
): Promise<WatchedService> {
  const dataDir = options.dataDir ?? tempDir('agent-console-watched-');
  const clock = options.clock ?? new ManualClock(Date.parse('2026-11-02T09:00:00Z'));
  const mock = await startTestMock();
  mock.server.control.setAgent('echo', { latencyMs: 0, chunkDelayMs: 0 });
  const received: WatchedService['received'] = [];
  const receiver: Server = createServer((req, res) => {
    let text = '';
    req.on('data', (d: Buffer) => (text += d.toString()));
    req.on('end', () => {
      received.push({ path: req.url ?? '', body: JSON.parse(text) as Record<string, unknown> });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const address = receiver.address();
  const receiverUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  const core = await ConsoleCore.open({
    dataDir,
    clock,
    embeddedMock: 'none',
    keychainService: `agent-console-watched-${process.pid}`,
  });
  await addMockProfile(core, name, mock);
  await core.openMonitors();
  const notifications: MonitorNotification[] = [];
  core.monitors.subscribe((event) => {
    if (event.type === 'notification') notifications.push(event.notification);
  });
  return {
    clock,
    core,
    mock,
    dataDir,
    receiverUrl,
    received,
    notifications,
    async close() {
      for (const monitor of core.monitors.all()) await core.monitors.remove(monitor.id);
      await core.close();
      await mock.stop();
      await new Promise((resolve) => receiver.close(resolve));
      if (!options.dataDir) removeDir(dataDir);
    },
  };
}

/** The monitor "Production" on the watched profile, polled only when a test says, telling `notify`. */
export async function watchProduction(
  watched: WatchedService,
  notify: MonitorInput['notify'],
  newChannels?: NewChannel[],
): Promise<Monitor> {
  const view = await watched.core.monitors.add({
    name: 'Production',
    profile: 'Production',
    health: { every: '24h' },
    ...(notify ? { notify } : {}),
    ...(newChannels ? { newChannels } : {}),
  });
  const monitor = watched.core.monitors.get(view.id) as Monitor;
  await monitor.health.checkNow();
  return monitor;
}
