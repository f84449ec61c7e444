// chat:… — each call the core's chat (exchanges.ts, `core.chat`, which records and limits every
// exchange) and its streams (chat-streams.ts, `core.chat.streams`, which batch the chunks and keep
// the streams a window re-attaches to); here their events go out in the contract's words.
import { curlForChat } from '../../core/curl';
import { toBridgeError } from '../bridge-error';
import type { DomainHandlers, HandlerContext } from './context';

export function chatHandlers({ core, emit, onClose }: HandlerContext): DomainHandlers<'chat'> {
  const { streams } = core.chat;
  onClose(streams.onChunk((chunks) => emit('chat:chunk', chunks)));
  onClose(
    streams.onEnd((end, failure) =>
      emit('chat:end', failure ? { ...end, error: toBridgeError(failure) } : end),
    ),
  );
  return {
    'chat:send': async (request) => core.chat.send(request),
    'chat:stream': async ({ streamId, ...request }) => streams.start(streamId, request),
    'chat:live': async ({ session_id }) => streams.live(session_id),
    'chat:frames': async ({ streamId }) => streams.frames(streamId),
    'chat:cancel': async ({ streamId }) => streams.cancel(streamId),
    'chat:curl': async ({ profileId, ...request }) => ({
      command: curlForChat(core.profile(profileId), request),
    }),
  };
}
