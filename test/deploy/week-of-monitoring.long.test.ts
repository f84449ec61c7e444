// A week of two monitors, simulated: two profiles on two real mocks over HTTPS, each
// monitor polling health every minute and running a synthetic check against two agents every
// minute, on one stepping clock shared by the core and the mocks (so the mocks' rate windows move
// with it). Memory after GC stays flat within 10% from day 1 to day 7, and the history files stay
// within their rings' capacity (a week of checks) and 1/8 of slack.
// The mock keeps every conversation, as the service does, and rewrites its state file on each: it
// is reset every simulated hour so that the figure is the monitors' memory, not the mock's.
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { HEALTH_HISTORY_CAPACITY } from '../../shared/health';
import { ConsoleCore } from '../../electron/core/console-core';
import { SYNTHETIC_HISTORY_CAPACITY } from '../../electron/core/monitors/synthetic-history';
import { removeDir, startTestMock, tempDir, type TestMock } from '../support/mock';
import { SteppingClock } from '../support/stepping-clock';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
const MINUTE = 60_000;
const DAY_MINUTES = 24 * 60;
const DAYS = 7;

function memoryAfterGc(): number {
  for (let i = 0; i < 3; i++) gc();
  const usage = process.memoryUsage();
  return usage.heapUsed + usage.arrayBuffers;
}

let clock: SteppingClock;
let dataDir: string;
let core: ConsoleCore;
const mocks: TestMock[] = [];

beforeAll(async () => {
  clock = new SteppingClock(Date.parse('2026-03-02T00:00:00Z'));
  dataDir = tempDir('agent-console-week-');
  for (let i = 0; i < 2; i++) {
    const mock = await startTestMock({ clock });
    mocks.push(mock);
  }
  core = await ConsoleCore.open({
    dataDir,
    clock,
    embeddedMock: 'none',
    keychainService: `agent-console-week-${process.pid}`,
  });
  for (const [i, name] of ['Staging', 'Production'].entries()) {
    const mock = mocks[i] as TestMock;
    const key = await core.vault.add({
      name,
      secret: mock.server.keys.pro,
      sessionOnly: true,
      origins: [new URL(mock.server.baseUrl).origin],
    });
    core.profiles.add({ name, baseUrl: mock.server.baseUrl, keyId: key.id, caCertPem: mock.server.ca });
  }
  await core.openMonitors();
  for (const name of ['Staging', 'Production']) {
    await core.monitors.add({
      name,
      profile: name,
      health: { every: '1m' },
      synthetic: { every: '1m', agents: ['echo', 'helpdesk'], message: 'ping', stream: true },
    });
  }
  resetMocks();
}, 30_000);

/** Back to the seed (the demo keys stay), agents answering at once. */
function resetMocks(): void {
  for (const mock of mocks) {
    mock.server.control.reset();
    for (const agent of ['echo', 'helpdesk']) {
      mock.server.control.setAgent(agent, { latencyMs: 0, chunkDelayMs: 0 });
    }
  }
}

afterAll(async () => {
  await core?.close();
  for (const mock of mocks) await mock.stop();
  removeDir(dataDir);
}, 30_000);

test(`${DAYS} simulated days of two monitors with synthetic checks every minute: memory flat, history bounded`, async () => {
  let polls = 0;
  let runs = 0;
  core.monitors.subscribe((event) => {
    if (event.type === 'health' && event.update.sample) polls++;
    if (event.type === 'synthetic') runs++;
  });
  const monitors = core.monitors.all();
  /** One simulated minute at a time, waiting for each monitor's poll and check to complete. */
  const simulate = async (minutes: number): Promise<void> => {
    for (let m = 0; m < minutes; m++) {
      if (m % 60 === 59) resetMocks();
      const want = { polls: polls + 2, runs: runs + 2 };
      await clock.advance(MINUTE);
      while (polls < want.polls || runs < want.runs) await new Promise((r) => setImmediate(r));
    }
  };
  const flush = async () => {
    for (const m of monitors) {
      await m.health.history.flush();
      await m.synthetic?.flush();
    }
  };
  core.monitors.start();
  await simulate(DAY_MINUTES);
  await flush();
  const day1 = memoryAfterGc();
  await simulate((DAYS - 1) * DAY_MINUTES);
  await flush();
  const end = memoryAfterGc();

  // Every check was made, each on time (the key is the monitor's own and idle otherwise).
  expect(polls).toBeGreaterThanOrEqual(2 * DAYS * DAY_MINUTES);
  expect(runs).toBeGreaterThanOrEqual(2 * DAYS * DAY_MINUTES);
  const views = core.monitors.list().filter((v) => !v.implicit);
  for (const view of views) {
    expect(view.status).toBe('healthy');
    const day = view.synthetic?.passed24h;
    expect(day?.passed).toBe(day?.runs);
    expect(day?.runs).toBeGreaterThanOrEqual(2 * DAY_MINUTES);
    expect(day?.runs).toBeLessThanOrEqual(2 * (DAY_MINUTES + 1));
  }
  const change = (end - day1) / day1;
  expect(Math.abs(change), `memory ${day1} → ${end} bytes (${(change * 100).toFixed(1)}%)`).toBeLessThan(0.1);

  for (const m of monitors) {
    const dir = join(dataDir, 'monitors', m.id);
    const healthLines = readFileSync(join(dir, 'health.jsonl'), 'utf8').trimEnd().split('\n').length;
    const syntheticLines = readFileSync(join(dir, 'synthetic.jsonl'), 'utf8').trimEnd().split('\n').length;
    // A week fills each ring; the files hold at most capacity + 1/8, plus a header.
    expect(m.health.history.size).toBe(HEALTH_HISTORY_CAPACITY);
    expect(m.synthetic?.size).toBe(SYNTHETIC_HISTORY_CAPACITY);
    expect(healthLines).toBeLessThanOrEqual(Math.ceil(HEALTH_HISTORY_CAPACITY * 1.125) + 1);
    expect(syntheticLines).toBeLessThanOrEqual(Math.ceil(SYNTHETIC_HISTORY_CAPACITY * 1.125) + 1);
    expect(syntheticLines).toBeGreaterThanOrEqual(SYNTHETIC_HISTORY_CAPACITY);
    // A few MB at most, whatever the uptime.
    expect(statSync(join(dir, 'synthetic.jsonl')).size).toBeLessThan(4 * 1024 * 1024);
  }
}, 600_000);
