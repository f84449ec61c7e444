// Routes the core's stream events to replies. A stream is registered before `chat:stream` is
// called, because its chunks (and even its end) may arrive before the call's own answer does.
import type { StreamEndEvent } from '../../../shared/bridge';
import { bridge } from '../../bridge';
import { bufferFor } from './stream-buffer';

interface Expected {
  replyId: string;
  resolve: (end: StreamEndEvent) => void;
}

const expected = new Map<string, Expected>();
let listening = false;

function listen(): void {
  if (listening) return;
  listening = true;
  bridge.on('chat:chunk', (event) => {
    const target = expected.get(event.streamId);
    if (target) bufferFor(target.replyId).append(event.chunks);
  });
  bridge.on('chat:end', (event) => {
    const target = expected.get(event.streamId);
    if (!target) return;
    expected.delete(event.streamId);
    target.resolve(event);
  });
}

/** Resolves with the stream's end; its chunks go to the reply's buffer meanwhile. */
export function expectStream(streamId: string, replyId: string): Promise<StreamEndEvent> {
  listen();
  return new Promise((resolve) => expected.set(streamId, { replyId, resolve }));
}

/** The call failed before the stream started: no end will come. */
export function forgetStream(streamId: string): void {
  expected.delete(streamId);
}
