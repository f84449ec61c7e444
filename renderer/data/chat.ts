// Chat (chat:*): not cached data but exchanges as they happen — a reply sent whole, a stream named
// by the page (so it listens before the first chunk) whose chunks and end arrive as events, the
// streams of a session still coming in the core, a stream's raw frames, and "copy as curl". The
// playground and the replay call these; the query cache hears of a recorded reply through
// `chat:end` (bridge-cache.ts).
import type { BridgeInput, LiveStream, StreamChunkEvent, StreamEndEvent } from '../../shared/bridge';
import type { StreamFrames, StreamStarted } from '../../shared/bridge/chat';
import type { ReceivedChatReply } from '../../shared/received';
import { bridge } from '../bridge';

export const sendChat = (input: BridgeInput<'chat:send'>): Promise<ReceivedChatReply> =>
  bridge.chat.send(input);

export const startStream = (input: BridgeInput<'chat:stream'>): Promise<StreamStarted> =>
  bridge.chat.stream(input);

/** Stops a stream; one already over, or not yet known to the core, is no failure worth telling. */
export const cancelStream = (streamId: string): void => {
  void bridge.chat.cancel({ streamId }).catch(() => undefined);
};

export const liveStreams = (sessionId: string): Promise<LiveStream[]> =>
  bridge.chat.live({ session_id: sessionId });

export const streamFrames = (streamId: string): Promise<StreamFrames> => bridge.chat.frames({ streamId });

export const chatCurl = (input: BridgeInput<'chat:curl'>): Promise<string> =>
  bridge.chat.curl(input).then((r) => r.command);

export const onStreamChunk = (listener: (event: StreamChunkEvent) => void): (() => void) =>
  bridge.on('chat:chunk', listener);

export const onStreamEnd = (listener: (event: StreamEndEvent) => void): (() => void) =>
  bridge.on('chat:end', listener);
