// core.chat.streams with no bridge in front: what the CLI or any other front end gets — a stream
// started under its own id, its chunks and its end as events, the stream listed while it runs,
// its raw frames after, and the core's close stopping what still runs (the core owns them).
import { randomBytes } from 'node:crypto';
import { afterEach, beforeEach, expect, test } from 'vitest';
import type { StreamChunkEvent, StreamEndEvent } from '../../shared/bridge';
import { ConsoleCore } from '../../electron/core/console-core';
import { removeDir, tempDir } from '../support/mock';
import { until } from '../support/until';

let core: ConsoleCore;
let dataDir: string;
let closed = false;

beforeEach(async () => {
  dataDir = tempDir('agent-console-chat-streams-');
  closed = false;
  core = await ConsoleCore.open({
    dataDir,
    embeddedMock: 'in-process',
    keychainService: `agent-console-chat-streams-${randomBytes(4).toString('hex')}`,
  });
});
afterEach(async () => {
  if (!closed) await core.close();
  removeDir(dataDir);
});

function follow(streamId: string) {
  const chunks: StreamChunkEvent['chunks'] = [];
  let end: Omit<StreamEndEvent, 'error'> | undefined;
  core.chat.streams.onChunk((event) => event.streamId === streamId && chunks.push(...event.chunks));
  core.chat.streams.onEnd((event) => {
    if (event.streamId === streamId) end = event;
  });
  return { chunks, ended: () => end };
}

test('a stream is listed while it runs, ends once, and its frames are kept after', async () => {
  core.mock?.control.setAgent('storyteller', { latencyMs: 0, chunkDelayMs: 10, chunkCount: 60 });
  const { chunks, ended } = follow('cli-1');
  const started = await core.chat.streams.start('cli-1', {
    message: 'go',
    agent: 'storyteller',
    session_id: 'clisession1',
  });
  expect(started.streamId).toBe('cli-1');
  expect(core.chat.streams.live('clisession1').map((s) => s.streamId)).toEqual(['cli-1']);
  const end = await until('the end of the stream', ended);
  expect(end).toMatchObject({ status: 'done', chunkCount: 60, sawDone: true });
  expect(chunks.map((c) => c.index)).toEqual([...Array(60).keys()]);
  expect(core.chat.streams.live('clisession1')).toEqual([]);
  expect(core.chat.streams.frames('cli-1').at(-1)?.data).toBe('[DONE]');
  expect(core.chat.streams.cancel('cli-1')).toEqual({ cancelled: false });
});

test('closing the core stops the streams still coming in', async () => {
  core.mock?.control.setAgent('storyteller', { latencyMs: 0, chunkDelayMs: 20, chunkCount: 500 });
  const { ended } = follow('cli-2');
  await core.chat.streams.start('cli-2', { message: 'long', agent: 'storyteller' });
  closed = true;
  await core.close();
  expect(await until('the end of the stream', ended)).toMatchObject({ status: 'cancelled' });
});
