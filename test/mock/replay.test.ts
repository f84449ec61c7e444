// Record and replay: a mock agent given a recorded reply sends the same chunks, with the recorded
// pacing, scaled, or as fast as it can.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { FIXTURE_FORMAT, type Fixture } from '../../shared/fixture';
import { startTestMock, type TestMock } from '../support/mock';

let mock: TestMock;
beforeAll(async () => {
  mock = await startTestMock();
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

async function timedStream(agent: string) {
  const started = Date.now();
  const res = await mock.call('POST', '/api/v1/chat', { body: { agent, message: 'anything', stream: true } });
  return {
    ms: Date.now() - started,
    chunks: contents(res.text),
    done: res.text.trimEnd().endsWith('data: [DONE]'),
  };
}

describe('a fixture assigned to an agent', () => {
  test.each([
    ['original', 1, 400, 2_000],
    ['scaled', 0.5, 200, 380],
    ['fast', 1, 0, 150],
  ] as const)(
    'replays %s (scale %s): same chunks, paced as recorded',
    async (mode, scale, atLeast, below) => {
      mock.server.control.assignFixture('echo', { fixture, mode, scale });
      const run = await timedStream('echo');
      expect(run.chunks).toEqual(fixture.chunks.map((c) => c.content));
      expect(run.done).toBe(true);
      expect(run.ms).toBeGreaterThanOrEqual(atLeast);
      expect(run.ms).toBeLessThan(below);
    },
  );

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
