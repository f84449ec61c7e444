// Deleting a thread through the control path (mock/control.ts), as another client might: the
// thread leaves the list and appending to it answers 404 (spec §7), which the Threads browser shows.
import { describe, expect, it } from 'vitest';
import { ThreadList } from '../../shared/api';
import { withTestMock, type TestMock } from '../support/mock';
import { echoThread } from './conformance-support';

let mock: TestMock;

withTestMock((started) => (mock = started));

describe('DELETE /__control/threads/:id', () => {
  it('removes the thread: it is no longer listed and appending to it is a 404', async () => {
    const id = await echoThread(mock);
    const deleted = await mock.control('DELETE', `/threads/${id}`);
    expect(deleted.status).toBe(200);
    const listed = ThreadList.parse((await mock.call('GET', '/api/v1/threads')).json);
    expect(listed.threads.map((t) => t.id)).not.toContain(id);
    const append = await mock.call('POST', `/api/v1/threads/${id}/messages`, {
      body: { message: 'still there?' },
    });
    expect(append.status).toBe(404);
  });

  it('answers 404 for a thread that does not exist', async () => {
    expect((await mock.control('DELETE', '/threads/thr_nope')).status).toBe(404);
  });
});
