// Record and replay: a mock agent given a recorded reply sends the same chunks, with the recorded
// pacing, scaled, or as fast as it can.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { systemClock, type Clock } from '../../shared/clock';
import { FIXTURE_FORMAT, type Fixture } from '../../shared/fixture';
import { startTestMock, type TestMock } from '../support/mock';

/** The chat timeout's own sleep, told apart from the pauses between chunks by its length. */
const CHAT_TIMEOUT_MS = 30_000;
/** The pauses the mock took, as it asked its clock for them: exact, whatever the machine's load. */
let pauses: number[] = [];
const recordingClock: Clock = {
  now: () => systemClock.now(),
  sleep: (ms, signal) => {
    if (ms !== CHAT_TIMEOUT_MS) pauses.push(ms);
    return systemClock.sleep(ms, signal);
  },
};

let mock: TestMock;
beforeAll(async () => {
  mock = await startTestMock({ clock: recordingClock, chatTimeoutMs: CHAT_TIMEOUT_MS });
});
afterAll(() => mock.stop());

const fixture: Fixture = {
  format: FIXTURE_FORMAT,
  version: 1,
  name: 'five pieces',
  agent: 'storyteller',
  recordedAt: '2026-11-22T00:00:00.000Z',
  chunks: ['Once ', 'upon ', 'a ', 'time ', '🚀.'].map((content, i) => ({ content, atMs: 50 + i * 100 })),
};

function contents(text: string): string[] {
  return text
    .split('\n\n')
    .filter((f) => f.startsWith('data: {'))
    .map((f) => (JSON.parse(f.slice(6)) as { content: string }).content);
}

async function replayedStream(agent: string) {
  pauses = [];
  const res = await mock.call('POST', '/api/v1/chat', { body: { agent, message: 'anything', stream: true } });
  return { chunks: contents(res.text), done: res.text.trimEnd().endsWith('data: [DONE]'), pauses };
}

describe('a fixture assigned to an agent', () => {
  // Recorded at 50, 150, 250, 350 and 450 ms: a first chunk after 50 ms, then one every 100 ms.
  test.each([
    ['original', 1, [50, 100, 100, 100, 100]],
    ['scaled', 0.5, [25, 50, 50, 50, 50]],
    ['scaled', 2, [100, 200, 200, 200, 200]],
    ['fast', 1, []],
  ] as const)('replays %s (scale %s): same chunks, paced as recorded', async (mode, scale, paced) => {
    mock.server.control.assignFixture('echo', { fixture, mode, scale });
    const run = await replayedStream('echo');
    expect(run.chunks).toEqual(fixture.chunks.map((c) => c.content));
    expect(run.done).toBe(true);
    expect(run.pauses.filter((ms) => ms > 0)).toEqual(paced);
  });

  test('the non-streamed reply is the recorded text; clearing restores the agent', async () => {
    mock.server.control.assignFixture('echo', { fixture, mode: 'fast', scale: 1 });
    const replayed = await mock.call('POST', '/api/v1/chat', { body: { agent: 'echo', message: 'hi' } });
    expect((replayed.json as { response: string }).response).toBe('Once upon a time 🚀.');
    mock.server.control.clearFixture('echo');
    const own = await mock.call('POST', '/api/v1/chat', { body: { agent: 'echo', message: 'hi' } });
    expect((own.json as { response: string }).response).toBe('Echo: hi');
  });

  test('over the control path, and a fixture that is not one is refused', async () => {
    const ok = await mock.control('PUT', '/agents/helpdesk/fixture', { fixture, mode: 'fast', scale: 1 });
    expect(ok.json).toMatchObject({ slug: 'helpdesk', replay: { name: 'five pieces', chunks: 5 } });
    const bad = await mock.control('PUT', '/agents/helpdesk/fixture', {
      fixture: { ...fixture, chunks: [] },
      mode: 'fast',
      scale: 1,
    });
    expect(bad.status).toBe(400);
    await mock.control('DELETE', '/agents/helpdesk/fixture');
  });
});
