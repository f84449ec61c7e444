// Chaos presets: each does what it says, each is undone by undo and by reset, and none survives a
// restart of the mock (nothing sticks by accident).
import { afterEach, describe, expect, test } from 'vitest';
import { ManualClock } from '../../shared/clock';
import { CHAOS_PRESETS, type ChaosPreset } from '../../mock/chaos';
import { startTestMock, tempDir, removeDir, type TestMock } from '../support/mock';

let mock: TestMock | undefined;
afterEach(async () => {
  await mock?.stop();
  mock = undefined;
});

const chat = (m: TestMock, body: Record<string, unknown>, key = 'pro') =>
  m.call('POST', '/api/v1/chat', { key, body: { agent: 'echo', message: 'hi', ...body } });

/** What each preset looks like from a client's side; `true` when the preset is visibly on. */
const SYMPTOMS: Record<ChaosPreset, (m: TestMock) => Promise<boolean>> = {
  'rate-limit-storm': async (m) =>
    (await m.call('GET', '/api/v1/health')).headers['x-ratelimit-limit'] === '30',
  'flaky-agent': async (m) => {
    const statuses = [(await chat(m, {})).status, (await chat(m, {})).status];
    return statuses.includes(502);
  },
  'slow-service': async (m) => {
    m.server.control.setAgent('echo', { latencyMs: 0 });
    const started = Date.now();
    await chat(m, {});
    // Timeout 6.5 s − 5 s: slowed replies take 1.5 s; a normal one under a loaded machine far less.
    return Date.now() - started >= 1_000;
  },
  'broken-streams': async (m) => {
    const res = await chat(m, { stream: true, message: 'x'.repeat(200) }).catch(() => undefined);
    return res === undefined || !res.text.includes('[DONE]');
  },
  degraded: async (m) =>
    ((await m.call('GET', '/api/v1/health')).json as { status: string }).status === 'degraded',
  outage: async (m) =>
    ((await m.call('GET', '/api/v1/health')).json as { status: string }).status === 'unhealthy',
  'plan-expired': async (m) => (await m.call('GET', '/api/v1/agents')).status === 403,
};

describe('each preset', () => {
  test.each(Object.keys(CHAOS_PRESETS) as ChaosPreset[])(
    '%s: on, undone, on again, reset, restarted',
    async (preset) => {
      const dataDir = tempDir();
      // A short chat timeout so "slow service" (timeout − 5 s, at least the agent's own latency) stays quick.
      mock = await startTestMock({ dataDir, chatTimeoutMs: 6_500 });
      const symptom = SYMPTOMS[preset];
      expect(await symptom(mock), 'off before').toBe(false);
      mock.server.control.applyChaos(preset);
      expect(await symptom(mock), 'on').toBe(true);
      mock.server.control.undoChaos(preset);
      expect(await symptom(mock), 'undone').toBe(false);
      mock.server.control.applyChaos(preset);
      mock.server.control.reset();
      expect(await symptom(mock), 'after reset').toBe(false);
      mock.server.control.applyChaos(preset);
      await mock.stop();
      mock = await startTestMock({ dataDir, chatTimeoutMs: 6_500 });
      expect(await symptom(mock), 'after a restart').toBe(false);
      await mock.stop();
      mock = undefined;
      removeDir(dataDir);
    },
    30_000,
  );
});

describe('details', () => {
  test('outage: health is unhealthy and chats answer 503, but reads still work', async () => {
    mock = await startTestMock();
    mock.server.control.applyChaos('outage');
    expect((await chat(mock, {})).status).toBe(503);
    expect((await mock.call('GET', '/api/v1/agents')).status).toBe(200);
  });

  test('rate-limit storm: a second client uses a third of the window', async () => {
    const clock = new ManualClock();
    mock = await startTestMock({ clock });
    mock.server.control.applyChaos('rate-limit-storm');
    await clock.advance(60_000);
    const res = await mock.call('GET', '/api/v1/health');
    // 10 requests of the second client in the last minute, then this one.
    expect(res.headers['x-ratelimit-remaining']).toBe('19');
  });

  test('presets are listed with what they do, over HTTP too', async () => {
    mock = await startTestMock();
    const on = await mock.control('POST', '/chaos/broken-streams');
    expect(on.json).toMatchObject({
      active: [{ preset: 'broken-streams', description: CHAOS_PRESETS['broken-streams'] }],
    });
    const unknown = await mock.control('POST', '/chaos/meteor');
    expect(unknown.status).toBe(404);
    await mock.control('DELETE', '/chaos');
    expect((await mock.control('GET', '/state')).json).toMatchObject({ chaos: [] });
  });
});
