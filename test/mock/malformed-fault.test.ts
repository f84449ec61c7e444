// The mock's garbling fault (faults.malformedNext): successful replies that are not JSON,
// or carry the wrong content type, for the given count and path prefix only; then back to normal.
import { beforeEach, expect, it } from 'vitest';
import { withTestMock, type TestMock } from '../support/mock';

let mock: TestMock;

withTestMock((started) => (mock = started));
beforeEach(() => mock.server.control.reset());

it('bad-json: a 200 whose body is not JSON, under the JSON content type, count times on the prefix', async () => {
  mock.server.control.setFaults({
    malformedNext: { kind: 'bad-json', count: 2, pathPrefix: '/api/v1/agents' },
  });
  const health = await mock.call('GET', '/api/v1/health');
  expect(health.json).toBeDefined();
  for (let i = 0; i < 2; i++) {
    const garbled = await mock.call('GET', '/api/v1/agents');
    expect(garbled.status).toBe(200);
    expect(garbled.headers['content-type']).toContain('application/json');
    expect(garbled.json).toBeUndefined();
    expect(garbled.text).toContain('not JSON');
  }
  expect((await mock.call('GET', '/api/v1/agents')).json).toHaveProperty('agents');
});

it('wrong-content-type: the right body as text/html, on a stream too; errors are never garbled', async () => {
  mock.server.control.setFaults({ malformedNext: { kind: 'wrong-content-type', count: 2 } });
  // An error reply does not consume it.
  expect((await mock.call('GET', '/api/v1/agents', { key: 'revoked' })).status).toBe(401);
  const list = await mock.call('GET', '/api/v1/agents');
  expect(list.headers['content-type']).toContain('text/html');
  expect(list.json).toHaveProperty('agents');
  const stream = await mock.call('POST', '/api/v1/chat', {
    body: { agent: 'echo', message: 'hi', stream: true },
  });
  expect(stream.headers['content-type']).toContain('text/html');
  expect(stream.text).toContain('data: [DONE]');
  const after = await mock.call('GET', '/api/v1/agents');
  expect(after.headers['content-type']).toContain('application/json');
  expect(mock.server.control.state().faults.malformedNext).toBeUndefined();
});
