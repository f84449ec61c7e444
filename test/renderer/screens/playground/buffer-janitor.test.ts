// A closed reply lets go of its text: switching session frees the buffers of the
// replies that were shown, but never those of a reply still streaming, nor those still on screen.
import { expect, test, vi } from 'vitest';

vi.stubGlobal('requestAnimationFrame', (run: () => void) => setTimeout(run, 0));

const { usePlayground } = await import('../../../../renderer/screens/playground/playground-store');
const { bufferFor } = await import('../../../../renderer/screens/playground/stream-buffer');
await import('../../../../renderer/screens/playground/buffer-janitor');

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

function reply(id: string, status: 'done' | 'streaming') {
  return { role: 'agent' as const, id, request: { message: 'hi', stream: true }, status, attempts: 1 };
}

test('closing a session frees its finished replies and keeps a streaming one until it ends', async () => {
  bufferFor('r1').setText('a long finished reply');
  bufferFor('r2').setText('still coming');
  usePlayground.setState({
    ids: ['u1', 'r1', 'u2', 'r2'],
    turns: {
      u1: { role: 'user', id: 'u1', text: 'first', at: 1, replyId: 'r1' },
      r1: reply('r1', 'done'),
      u2: { role: 'user', id: 'u2', text: 'second', at: 2, replyId: 'r2' },
      r2: reply('r2', 'streaming'),
    },
  });
  await settle();
  expect(bufferFor('r1').text()).toBe('a long finished reply');

  usePlayground.setState({ ids: [] }); // another session opened
  await settle();
  expect(Object.keys(usePlayground.getState().turns).sort()).toEqual(['r2', 'u2']);
  expect(bufferFor('r1').text()).toBe(''); // a fresh, empty buffer: the old one is gone
  expect(bufferFor('r2').text()).toBe('still coming');

  usePlayground.setState((s) => ({ turns: { ...s.turns, r2: reply('r2', 'done') } }));
  await settle();
  expect(usePlayground.getState().turns).toEqual({});
  expect(bufferFor('r2').text()).toBe('');
});

test('a compare round keeps its replies until the round is cleared', async () => {
  bufferFor('c1').setText('compared');
  usePlayground.setState({
    ids: [],
    rounds: [{ id: 'round', message: 'hi', at: 1, replyIds: ['c1'] }],
    turns: { c1: reply('c1', 'done') },
  });
  await settle();
  expect(bufferFor('c1').text()).toBe('compared');
  usePlayground.setState({ rounds: [] });
  await settle();
  expect(bufferFor('c1').text()).toBe('');
});
