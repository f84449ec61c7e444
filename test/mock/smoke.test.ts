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
