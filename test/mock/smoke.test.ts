import { afterAll, beforeAll, expect, test } from 'vitest';
import { startTestMock, type TestMock } from '../support/mock';

let mock: TestMock;
beforeAll(async () => {
  mock = await startTestMock();
});
afterAll(() => mock.stop());

test('the mock answers an authenticated GET over HTTPS', async () => {
  const res = await mock.call('GET', '/api/v1/health');
  expect(res.status).toBe(200);
  expect(res.json).toMatchObject({ status: 'healthy' });
});

test("agents are listed with the spec's fields only (the mock's own tuning stays inside)", async () => {
  const res = await mock.call('GET', '/api/v1/agents');
  expect(res.status).toBe(200);
  const [first] = (res.json as { agents: Record<string, unknown>[] }).agents;
  expect(Object.keys(first ?? {}).sort()).toEqual(
    ['agent_id', 'deployed_at', 'description', 'model', 'name', 'slug', 'status'].sort(),
  );
});
